"""/api/v1/: the read API. Every view is token-authenticated (no session, no login page),
so for the URL walks it is marked public: the token check is its access control."""

from django.urls import path

from base.access import public

from . import views

app_name = "api"

LIST, DETAIL = {"get": "list"}, {"get": "retrieve"}


def _pair(prefix, viewset, name):
    return [
        path(f"{prefix}/", public(viewset.as_view(LIST)), name=f"{name}-list"),
        path(f"{prefix}/<int:pk>/", public(viewset.as_view(DETAIL)), name=f"{name}-detail"),
    ]


urlpatterns = [
    *_pair("licenses", views.LicenseViewSet, "license"),
    *_pair("animals", views.AnimalViewSet, "animal"),
    *_pair("owners", views.OwnerViewSet, "owner"),
    *_pair("receipts", views.ReceiptViewSet, "receipt"),
    path("schema/", public(views.SchemaView.as_view()), name="schema"),
]
