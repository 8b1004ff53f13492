from .views import cases, dispositions, found, notices, records, redemption

app_name = "impound"

urlpatterns = [
    *cases.urlpatterns,
    *notices.urlpatterns,
    *redemption.urlpatterns,
    *dispositions.urlpatterns,
    *records.urlpatterns,
    *found.urlpatterns,
]
