"""The clerk's queue of changes residents reported, mounted at online/changes/."""

from django.urls import path

from .views import changes_review as views

app_name = "changes"

urlpatterns = [
    path("", views.change_list, name="list"),
    path("<int:pk>/", views.change_detail, name="detail"),
]
