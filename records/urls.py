from django.urls import path

from . import views

app_name = "records"

urlpatterns = [
    path("exports/", views.export_list, name="export_list"),
    path("exports/<int:pk>/", views.export_detail, name="export_detail"),
    path("exports/<int:pk>/write/", views.export_build_now, name="export_build_now"),
    path("exports/<int:pk>/download/", views.export_download, name="export_download"),
]
