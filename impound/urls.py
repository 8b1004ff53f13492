from .views import cases, dispositions, found, notices, records, redemption
from .views import lost as lost_views  # issue 20 item 2

app_name = "impound"

urlpatterns = [
    *cases.urlpatterns,
    *notices.urlpatterns,
    *redemption.urlpatterns,
    *dispositions.urlpatterns,
    *records.urlpatterns,
    *found.urlpatterns,
    *lost_views.urlpatterns,  # issue 20 item 2: lost-pet reports
]
