from django.urls import path

from licensing.views import counter, owner_merge

urlpatterns = [
    path("counter/", counter.counter_start, name="counter_start"),
    path("counter/owner/<int:owner_pk>/", counter.counter_animal, name="counter_animal"),
    path("counter/animal/<int:animal_pk>/pay/", counter.counter_pay, name="counter_pay"),
    path("licenses/<int:pk>/issued/", counter.license_issued, name="license_issued"),
    path("licenses/<int:pk>/", counter.license_detail, name="license_detail"),
    path("licenses/<int:pk>/transfer/", counter.license_transfer, name="license_transfer"),
    path(
        "licenses/<int:pk>/duplicate-tag/",
        counter.license_duplicate_tag,
        name="license_duplicate_tag",
    ),
    path("licenses/<int:pk>/address/", counter.license_address, name="license_address"),
    path("licenses/<int:pk>/close/", counter.license_close, name="license_close"),
    path("receipts/<int:pk>/", counter.receipt_detail, name="receipt_detail"),
    path("receipts/<int:pk>/void/", counter.receipt_void, name="receipt_void"),
    path("tags/stock/", counter.tag_stock, name="tag_stock"),
    # Merging a duplicate owner record into this one.
    path("owners/<int:pk>/merge/", owner_merge.owner_merge_search, name="owner_merge"),
    path(
        "owners/<int:pk>/merge/<int:duplicate_pk>/",
        owner_merge.owner_merge_confirm,
        name="owner_merge_confirm",
    ),
]
