from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from base.admin_scoping import lock_unscoped_admins
from base.dates import bound_admin_dates
from base.roles import ADMINISTRATOR


def restrict_admin_to_administrators(site):
    """Django admin is for administrators only; others get 403, anonymous the login page."""

    def has_permission(request):
        user = request.user
        return (
            user.is_active
            and user.is_authenticated
            and user.has_role(ADMINISTRATOR)
            # Past the second step (SecondFactorMiddleware sends them there first and
            # sets is_verified; a request that did not pass through it is refused).
            and getattr(user, "is_verified", lambda: False)()
        )

    def login(request, extra_context=None):
        if request.user.is_authenticated:
            raise PermissionDenied
        return redirect_to_login(request.GET.get("next", request.get_full_path()))

    site.has_permission = has_permission
    site.login = login
    # The app's devices hold the secret keys and recovery codes: never shown in admin,
    # not even to a superuser. A lost device is reset from the user's row instead
    # (UserAdmin's action, or `manage.py reset_second_factor`).
    for model in (TOTPDevice, StaticDevice):
        if site.is_registered(model):
            site.unregister(model)
    site.site_header = "Animal ordinance administration"
    site.site_title = "Administration"
    # Rows of the whole installation (beat schedules, lockouts, role groups) are a
    # superuser's; every other admin is scoped to the administrator's cities.
    lock_unscoped_admins(site)
    bound_admin_dates(site)  # no 0001-01-01 or 9999-12-31 in admin either
