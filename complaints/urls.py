from . import views_casefile, views_reports
from .views import app_name, urlpatterns  # noqa: F401
from .views_seizure import urlpatterns as seizure_urlpatterns

urlpatterns = [
    *urlpatterns,
    *seizure_urlpatterns,
    *views_casefile.urlpatterns,
    *views_reports.urlpatterns,
]
