"""The clerk's daily close-out and deposit slip."""

from django.urls import path

from licensing.views import closeouts

urlpatterns = [
    path("closeouts/", closeouts.closeout_list, name="closeout_list"),
    path("closeouts/day/", closeouts.closeout_day, name="closeout_day"),
    path("closeouts/day/close/", closeouts.closeout_close, name="closeout_close"),
    path("closeouts/<int:pk>/", closeouts.closeout_detail, name="closeout_detail"),
]
