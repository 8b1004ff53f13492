from django.urls import path

from . import views_admin

app_name = "integrations"

urlpatterns = [
    path("", views_admin.integration_list, name="list"),
    path("new/", views_admin.integration_create_view, name="create"),
    path("<int:pk>/", views_admin.integration_detail, name="detail"),
    path("<int:pk>/revoke/", views_admin.integration_revoke_view, name="revoke"),
]
