from . import casefile_views, reports_views
from .seizure_views import urlpatterns as seizure_urlpatterns
from .views import app_name, urlpatterns  # noqa: F401

urlpatterns = [
    *urlpatterns,
    *seizure_urlpatterns,
    *casefile_views.urlpatterns,
    *reports_views.urlpatterns,
]
