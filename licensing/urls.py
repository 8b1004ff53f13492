from django.urls import include, path

app_name = "licensing"

# Each area of the app keeps its own routes (registry, counter, kennels, reports).
urlpatterns = [
    path("", include("licensing.urls_registry")),
    path("", include("licensing.urls_counter")),
    path("", include("licensing.urls_kennels")),
    path("", include("licensing.urls_reports")),
    path("", include("licensing.urls_portal")),
]
