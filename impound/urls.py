from .views import cases, dispositions, found, notices, records, redemption
from .views import lost as lost_views

app_name = "impound"

urlpatterns = [
    *cases.urlpatterns,
    *notices.urlpatterns,
    *redemption.urlpatterns,
    *dispositions.urlpatterns,
    *records.urlpatterns,
    *found.urlpatterns,
    *lost_views.urlpatterns,  # lost-pet reports
]
