"""The resident's pages: their own animals, licenses, certificates, their online
applications and paying them."""

from django.urls import path

from .views import changes, linking, online, payments
from .views import portal as views

urlpatterns = [
    path("my/animals/", views.portal_home, name="portal_home"),
    path("my/link/", linking.portal_link, name="portal_link"),
    path("my/animals/<int:pk>/", views.portal_animal, name="portal_animal"),
    path(
        "my/vaccinations/<int:pk>/certificate/", views.portal_certificate, name="portal_certificate"
    ),
    path("my/animals/<int:pk>/apply/", online.application_start, name="application_start"),
    path("my/applications/<int:pk>/", online.application_detail, name="application_detail"),
    path("my/applications/<int:pk>/edit/", online.application_edit, name="application_edit"),
    path(
        "my/applications/<int:pk>/withdraw/",
        online.application_withdraw,
        name="application_withdraw",
    ),
    # The resident who owns the animal, or the city's clerk or administrator.
    path(
        "applications/<int:pk>/certificate/",
        online.application_certificate,
        name="application_certificate",
    ),
    # Paying an approved online application (licensing.payments).
    path("my/applications/<int:pk>/pay/", payments.application_pay, name="application_pay"),
    path("my/applications/<int:pk>/paid/", payments.application_paid, name="application_paid"),
    # Changes the resident reports; the clerk's side is urls_changes.
    path("my/animals/<int:pk>/report/<str:kind>/", changes.change_report, name="change_report"),
    path("my/changes/<int:pk>/", changes.change_detail, name="change_detail"),
    path("my/transfers/<str:token>/", changes.transfer_accept, name="transfer_accept"),
]
