from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied

from base.admin_scoping import lock_unscoped_admins
from base.dates import bound_admin_dates
from base.roles import ADMINISTRATOR


def restrict_admin_to_administrators(site):
    """Django admin is for administrators only; others get 403, anonymous the login page."""

    def has_permission(request):
        user = request.user
        return user.is_active and user.is_authenticated and user.has_role(ADMINISTRATOR)

    def login(request, extra_context=None):
        if request.user.is_authenticated:
            raise PermissionDenied
        return redirect_to_login(request.GET.get("next", request.get_full_path()))

    site.has_permission = has_permission
    site.login = login
    site.site_header = "Animal ordinance administration"
    site.site_title = "Administration"
    # Rows of the whole installation (beat schedules, lockouts, role groups) are a
    # superuser's; every other admin is scoped to the administrator's cities.
    lock_unscoped_admins(site)
    bound_admin_dates(site)  # no 0001-01-01 or 9999-12-31 in admin either (issue 13)
