from permits.views import app_name, urlpatterns  # noqa: F401
