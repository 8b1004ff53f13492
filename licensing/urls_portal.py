"""The resident's pages: their own animals, licenses, certificates, and paying online."""

from django.urls import path

from .views import payments
from .views import portal as views

urlpatterns = [
    path("my/animals/", views.portal_home, name="portal_home"),
    path("my/animals/<int:pk>/", views.portal_animal, name="portal_animal"),
    path(
        "my/vaccinations/<int:pk>/certificate/", views.portal_certificate, name="portal_certificate"
    ),
    # Paying an approved online application (issue 12, licensing.payments).
    path("my/applications/<int:pk>/pay/", payments.application_pay, name="application_pay"),
    path("my/applications/<int:pk>/paid/", payments.application_paid, name="application_paid"),
]
