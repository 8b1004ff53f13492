"""The pages of django-allauth that residents use, under /account/, each public.

Only these are mounted (not ``allauth.urls``): sign-up, the e-mail confirmation, and the
password reset. Logging in stays on our own page (``accounts:login``, where Axes
watches); allauth's login address redirects there, so its links and redirects land on
the one login form. The URL names are allauth's own, which its code and mails reverse.
"""

from functools import wraps

from allauth.account import views as allauth
from django.urls import path, re_path
from django.views.generic import RedirectView

from base.access import public


def _public(view):
    """allauth's view function as allauth decorates it, marked public on a wrapper (not
    on allauth's own module-level function)."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        return view(request, *args, **kwargs)

    return public(wrapped)


class ToOurLogin(RedirectView):
    pattern_name = "accounts:login"
    query_string = True  # keeps ?next=


urlpatterns = [
    path("login/", public(ToOurLogin.as_view()), name="account_login"),
    path("signup/", _public(allauth.signup), name="account_signup"),
    path(
        "confirm-email/",
        _public(allauth.email_verification_sent),
        name="account_email_verification_sent",
    ),
    re_path(
        r"^confirm-email/(?P<key>[-:\w]+)/$",
        _public(allauth.confirm_email),
        name="account_confirm_email",
    ),
    path(
        "password/reset/",
        _public(allauth.password_reset),
        name="account_reset_password",
    ),
    path(
        "password/reset/done/",
        _public(allauth.password_reset_done),
        name="account_reset_password_done",
    ),
    re_path(
        r"^password/reset/key/(?P<uidb36>[0-9A-Za-z]+)-(?P<key>.+)/$",
        _public(allauth.password_reset_from_key),
        name="account_reset_password_from_key",
    ),
    path(
        "password/reset/key/done/",
        _public(allauth.password_reset_from_key_done),
        name="account_reset_password_from_key_done",
    ),
]
