from dataclasses import replace
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.db.models import Sum
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.decorators import method_decorator
from django.views.decorators.cache import never_cache

from base.access import may_open, public, role_required
from base.client_ip import client_ip
from base.roles import ALL_ROLES, RESIDENT, STAFF_ROLES, VETERINARIAN
from ordinance import deadlines

from . import services
from .forms import LoginForm


def address_failures(ip: str | None, *, now=None) -> int:
    """Failed logins from this address within the cool-off time, whatever the usernames
    (Axes keeps one row per username and address)."""
    if not ip:
        return 0
    from axes.models import AccessAttempt

    since = (now or timezone.now()) - timedelta(hours=settings.AXES_COOLOFF_TIME)
    total = AccessAttempt.objects.filter(ip_address=ip, attempt_time__gte=since).aggregate(
        n=Sum("failures_since_start")
    )["n"]
    return total or 0


@method_decorator(never_cache, name="dispatch")
class LoginView(auth_views.LoginView):
    template_name = "registration/login.html"
    authentication_form = LoginForm  # a username or an e-mail address
    redirect_authenticated_user = True

    def get_context_data(self, **kwargs):
        # Django's view names the site by its host ("testserver", "10.0.0.5"); the page
        # shows the installation's or the city's name from accounts.context_processors.
        context = super().get_context_data(**kwargs)
        context.pop("site_name", None)
        return context

    def post(self, request, *args, **kwargs):
        # Axes locks one username at one address; this stops one address trying one
        # password over many usernames.
        failures = address_failures(client_ip(request)) if settings.AXES_ENABLED else 0
        if failures >= settings.LOGIN_FAILURES_PER_ADDRESS:
            return render(request, "registration/locked_out.html", status=429)
        return super().post(request, *args, **kwargs)


login_view = public(LoginView.as_view())
logout_view = public(auth_views.LogoutView.as_view())


@role_required(*ALL_ROLES)
def home(request):
    """After login: each role lands on its own home page."""
    if request.user.is_staff_member:
        return redirect("accounts:staff_home")
    if request.user.has_role(VETERINARIAN):
        # accounts sits below clinics: named by its URL, not imported.
        return redirect("clinics:home")
    return redirect("accounts:resident_home")


@role_required(*STAFF_ROLES)
def staff_home(request):
    today = timezone.localdate()
    upcoming = [
        # A deadline on a page this role may not open is listed without its link.
        d if not d.url or may_open(request.user, d.url) else replace(d, url="")
        for d in deadlines.upcoming_cached(
            jurisdiction_ids=request.user.jurisdiction_ids, today=today
        )
    ]
    return render(
        request,
        "accounts/home_staff.html",
        {
            "today": today,
            "due_today": [d for d in upcoming if d.due <= today],
            "due_soon": [d for d in upcoming if d.due > today],
            "horizon_days": deadlines.UPCOMING_HORIZON_DAYS,
            "role": request.user.primary_role,
            "second_factor_on": services.has_second_factor(request.user),
        },
    )


@role_required(RESIDENT)
def resident_home(request):
    """The resident's landing page: licensing's portal (their animals and documents).

    accounts sits below licensing (architecture.md), so it names the portal by its URL
    instead of importing it; without the portal the plain welcome page shows.
    """
    try:
        return redirect(reverse("licensing:portal_home"))
    except NoReverseMatch:
        return render(request, "accounts/home_resident.html", {})
