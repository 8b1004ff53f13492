from .views import urlpatterns as urlpatterns

app_name = "citations"
