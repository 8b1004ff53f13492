from .views import bites, dashboard, exposures, pages, quarantines, vaccinations

app_name = "rabies"

urlpatterns = [
    *dashboard.urlpatterns,
    *pages.urlpatterns,
    *bites.urlpatterns,
    *quarantines.urlpatterns,
    *exposures.urlpatterns,
    *vaccinations.urlpatterns,
]
