from django.urls import path

from . import second_factor_views, views

app_name = "accounts"

urlpatterns = [
    path("", views.home, name="home"),
    path("login/", views.login_view, name="login"),
    # The second step of logging in, for staff with two-step verification.
    path("login/code/", second_factor_views.verify, name="second_factor_verify"),
    path("logout/", views.logout_view, name="logout"),
    path("staff/", views.staff_home, name="staff_home"),
    path("staff/two-step/", second_factor_views.account, name="second_factor"),
    path("staff/two-step/enroll/", second_factor_views.enroll, name="second_factor_enroll"),
    path(
        "staff/two-step/recovery-codes/",
        second_factor_views.recovery_codes,
        name="second_factor_codes",
    ),
    path("staff/two-step/turn-off/", second_factor_views.turn_off, name="second_factor_off"),
    path("my/", views.resident_home, name="resident_home"),
]
