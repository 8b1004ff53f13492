from .views import (
    appeal,
    cases,
    classification,
    compliance,
    hearing,
    notices,
    owner,
    review,
    seizure,
)

app_name = "dangerous_dogs"

urlpatterns = [
    *cases.urlpatterns,
    *notices.urlpatterns,
    *hearing.urlpatterns,
    *appeal.urlpatterns,
    *compliance.urlpatterns,
    *seizure.urlpatterns,
    *owner.urlpatterns,
    *review.urlpatterns,
    *classification.urlpatterns,
]
