"""The resident's read-only pages (their own animals, licenses, certificates)."""

from django.urls import path

from .views import linking
from .views import portal as views

urlpatterns = [
    path("my/animals/", views.portal_home, name="portal_home"),
    path("my/link/", linking.portal_link, name="portal_link"),
    path("my/animals/<int:pk>/", views.portal_animal, name="portal_animal"),
    path(
        "my/vaccinations/<int:pk>/certificate/", views.portal_certificate, name="portal_certificate"
    ),
]
