from django.urls import path

from licensing.views import counter

urlpatterns = [
    path("counter/", counter.counter_start, name="counter_start"),
    path("counter/owner/<int:owner_pk>/", counter.counter_animal, name="counter_animal"),
    path("counter/animal/<int:animal_pk>/pay/", counter.counter_pay, name="counter_pay"),
    path("licences/<int:pk>/issued/", counter.licence_issued, name="licence_issued"),
    path("licences/<int:pk>/", counter.licence_detail, name="licence_detail"),
    path("licences/<int:pk>/transfer/", counter.licence_transfer, name="licence_transfer"),
    path("licences/<int:pk>/duplicate-tag/", counter.licence_duplicate_tag,
         name="licence_duplicate_tag"),
    path("licences/<int:pk>/address/", counter.licence_address, name="licence_address"),
    path("licences/<int:pk>/close/", counter.licence_close, name="licence_close"),
    path("receipts/<int:pk>/", counter.receipt_detail, name="receipt_detail"),
    path("receipts/<int:pk>/void/", counter.receipt_void, name="receipt_void"),
    path("tags/stock/", counter.tag_stock, name="tag_stock"),
]
