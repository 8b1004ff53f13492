"""The administrator's integration pages: the integrations of their
cities, a new one (its token shown once, on the answer to the POST, never again) and a
revocation. An integration reading any city the administrator does not serve is a 404."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from base.access import role_required
from base.forms import apply_service_errors
from base.roles import ADMINISTRATOR
from ordinance.models import Jurisdiction
from ordinance.refusals import Refused

from .forms import IntegrationForm, RevokeForm
from .models import Integration
from .services import integration_create, integration_revoke

RECENT_CALLS = 50


def _integrations(request):
    qs = Integration.objects.all()
    if not request.user.is_superuser:
        others = Jurisdiction.objects.exclude(pk__in=request.user.jurisdiction_ids)
        qs = qs.exclude(cities__in=others)
    return qs


def _integration(request, pk) -> Integration:
    found = _integrations(request).filter(pk=pk).prefetch_related("cities").first()
    if found is None:
        raise Http404
    return found


def _cities(request):
    return list(request.user.served_jurisdictions().order_by("name"))


@role_required(ADMINISTRATOR)
def integration_list(request):
    integrations = _integrations(request).prefetch_related("cities").select_related("created_by")
    return render(request, "api/integration_list.html", {"integrations": integrations})


@role_required(ADMINISTRATOR)
def integration_create_view(request):
    form = IntegrationForm(request.POST or None, cities=_cities(request))
    if request.method == "POST" and form.is_valid():
        try:
            integration, token = integration_create(
                actor=request.user, now=timezone.now(), **form.cleaned_data
            )
        except Refused as refused:
            apply_service_errors(form, refused)
        else:
            response = render(
                request, "api/integration_token.html", {"integration": integration, "token": token}
            )
            response["Cache-Control"] = "no-store"  # the token is on this page only
            return response
    status = 400 if form.is_bound else 200
    return render(request, "api/integration_form.html", {"form": form}, status=status)


@role_required(ADMINISTRATOR)
def integration_detail(request, pk, revoke_form=None):
    integration = _integration(request, pk)
    calls = integration.calls.all()[:RECENT_CALLS]
    return render(
        request,
        "api/integration_detail.html",
        {
            "integration": integration,
            "calls": calls,
            "revoke_form": revoke_form or RevokeForm(),
            "recent": RECENT_CALLS,
        },
        status=400 if revoke_form is not None else 200,
    )


@role_required(ADMINISTRATOR)
@require_POST
def integration_revoke_view(request, pk):
    integration = _integration(request, pk)
    form = RevokeForm(request.POST)
    if not form.is_valid():
        return integration_detail(request, pk, revoke_form=form)
    try:
        integration_revoke(
            integration=integration,
            actor=request.user,
            reason=form.cleaned_data["reason"],
            now=timezone.now(),
        )
    except Refused as refused:
        apply_service_errors(form, refused)
        return integration_detail(request, pk, revoke_form=form)
    messages.success(request, _("%(name)s's token no longer works.") % {"name": integration.name})
    return redirect("integrations:detail", integration.pk)
