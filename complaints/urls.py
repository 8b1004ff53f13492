from . import views_casefile, views_reports
from .views import app_name, urlpatterns  # noqa: F401

urlpatterns = [*urlpatterns, *views_casefile.urlpatterns, *views_reports.urlpatterns]
