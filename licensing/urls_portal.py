"""The resident's read-only pages (their own animals, licenses, certificates)."""

from django.urls import path

from .views import changes
from .views import portal as views

urlpatterns = [
    path("my/animals/", views.portal_home, name="portal_home"),
    path("my/animals/<int:pk>/", views.portal_animal, name="portal_animal"),
    path(
        "my/vaccinations/<int:pk>/certificate/", views.portal_certificate, name="portal_certificate"
    ),
    # Changes the resident reports (issue 12 item 5); the clerk's side is urls_changes.
    path("my/animals/<int:pk>/report/<str:kind>/", changes.change_report, name="change_report"),
    path("my/changes/<int:pk>/", changes.change_detail, name="change_detail"),
    path("my/transfers/<str:token>/", changes.transfer_accept, name="transfer_accept"),
]
