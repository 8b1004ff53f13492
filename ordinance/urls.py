from django.urls import path

from . import views

app_name = "ordinance"

urlpatterns: list = [
    path("", views.profile_list, name="profile_list"),
    path("fees/", views.fee_schedule, name="fee_schedule"),
    path("<slug:slug>/", views.profile_detail, name="profile_detail"),
    path("<slug:slug>/<str:key>/amend/", views.rule_amend_view, name="rule_amend"),
]
