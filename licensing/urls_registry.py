"""Registry pages: search, owners, animals, rabies vaccinations and their files."""

from django.urls import path

from .views import linking, premises
from .views import registry as views

urlpatterns = [
    path("search/", views.search, name="search"),
    path("owners/new/", views.owner_create, name="owner_create"),
    path("owners/<int:pk>/", views.owner_detail, name="owner_detail"),
    path("owners/<int:pk>/edit/", views.owner_edit, name="owner_edit"),
    path("owners/<int:pk>/account/", linking.owner_account, name="owner_account"),
    path("owners/<int:owner_pk>/animals/new/", views.animal_create, name="animal_create"),
    path("premises/<int:pk>/", premises.premises_detail, name="premises_detail"),
    path("animals/<int:pk>/", views.animal_detail, name="animal_detail"),
    path("animals/<int:pk>/edit/", views.animal_edit, name="animal_edit"),
    path("animals/<int:pk>/photo/", views.animal_photo, name="animal_photo"),
    path("animals/<int:pk>/deceased/", views.animal_mark_deceased, name="animal_mark_deceased"),
    path(
        "animals/<int:animal_pk>/vaccinations/new/",
        views.vaccination_create,
        name="vaccination_create",
    ),
    path(
        "vaccinations/<int:pk>/certificate/",
        views.vaccination_certificate,
        name="vaccination_certificate",
    ),
]
