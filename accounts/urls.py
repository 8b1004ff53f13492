from django.urls import path

from . import views, views_second_factor

app_name = "accounts"

urlpatterns = [
    path("", views.home, name="home"),
    path("login/", views.login_view, name="login"),
    # The second step of logging in, for staff with two-step verification.
    path("login/code/", views_second_factor.verify, name="second_factor_verify"),
    path("logout/", views.logout_view, name="logout"),
    path("staff/", views.staff_home, name="staff_home"),
    path("staff/two-step/", views_second_factor.account, name="second_factor"),
    path("staff/two-step/enroll/", views_second_factor.enroll, name="second_factor_enroll"),
    path(
        "staff/two-step/recovery-codes/",
        views_second_factor.recovery_codes,
        name="second_factor_codes",
    ),
    path("staff/two-step/turn-off/", views_second_factor.turn_off, name="second_factor_off"),
    path("my/", views.resident_home, name="resident_home"),
]
