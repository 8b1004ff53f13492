"""The barking-dog seizure page (Glencoe 701 Subd. 5; RES-07, RES-08, REC-05).

Officers and administrators only (403 for other roles), the complaint within the user's
cities (404 otherwise). In a city whose ordinance has no such seizure (North Branch) the
page says so and offers nothing. Thin: one service call per POST; a ``Refused`` goes
next to its field and the form keeps what was entered.
"""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from base.access import get_in_jurisdiction, role_required
from base.forms import apply_service_errors
from base.roles import ADMINISTRATOR, OFFICER
from ordinance.refusals import Refused

from . import seizure as svc
from .models import Complaint, Kind
from .seizure_forms import ContactAttemptForm, SeizureForm
from .seizure_models import BarkingSeizure

SEIZURE_ROLES = (OFFICER, ADMINISTRATOR)


def _complaint(user, pk):
    return get_in_jurisdiction(
        Complaint.objects.select_related("jurisdiction", "barking_facts"), user, pk=pk
    )


def seizure_of(complaint) -> BarkingSeizure | None:
    try:
        return complaint.barking_seizure
    except BarkingSeizure.DoesNotExist:
        return None


def seizure_section(complaint, user) -> dict:
    """What the complaint page shows of the seizure: for a barking complaint, the
    seizure or the link to the checklist, or the city's lack of such a rule."""
    if complaint.kind != Kind.BARKING:
        return {}
    rule = svc.seizure_rule(complaint.jurisdiction, on=timezone.localdate())
    seizure = seizure_of(complaint) if rule else None
    return {
        "seizure_shown": True,
        "seizure_rule": rule,
        "seizure_none": "" if rule else svc.no_rule_message(complaint.jurisdiction),
        "seizure": seizure,
        "may_seize": rule is not None
        and seizure is None
        and complaint.is_open
        and user.has_role(*SEIZURE_ROLES),
    }


def _page(request, complaint, *, form=None, contact_form=None, status=200):
    rule = svc.seizure_rule(complaint.jurisdiction, on=timezone.localdate())
    context = {"complaint": complaint, "rule": rule}
    if rule is None:
        context["no_rule"] = svc.no_rule_message(complaint.jurisdiction)
        return render(request, "complaints/seizure_page.html", context, status=status)
    seizure = seizure_of(complaint)
    attempts = list(complaint.contact_attempts.select_related("recorded_by"))
    prior = list(svc.prior_barking_complaints(complaint)[:5])
    context.update(
        {
            "barking": complaint.kind == Kind.BARKING,
            "seizure": seizure,
            "prior": prior,
            "prior_ok": len(prior) >= rule.prior_min,
            # Condition 2 is the officer's belief; the system's reading sits beside it.
            "reading": svc.reading_label(complaint),
            "attempts": attempts,
            "may_act": complaint.is_open and seizure is None,
            "form": form or SeizureForm(complaint=complaint),
            "contact_form": contact_form or ContactAttemptForm(),
        }
    )
    return render(request, "complaints/seizure_page.html", context, status=status)


@role_required(*SEIZURE_ROLES)
def seizure(request, pk):
    """The checklist: GET shows it; POST calls ``seizure_record``."""
    complaint = _complaint(request.user, pk)
    if request.method != "POST":
        return _page(request, complaint)
    form = SeizureForm(request.POST, complaint=complaint)
    if form.is_valid():
        try:
            done = svc.seizure_record(complaint=complaint, actor=request.user, **form.cleaned_data)
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(
                request,
                _("Dog seized; impound case %(n)s opened and the notice issued.")
                % {"n": done.impound_case.number},
            )
            return redirect("complaints:seizure", complaint.pk)
    return _page(request, complaint, form=form, status=400)


@role_required(*SEIZURE_ROLES)
@require_POST
def contact_attempt(request, pk):
    """Log one attempt to reach the owner (condition 4)."""
    complaint = _complaint(request.user, pk)
    form = ContactAttemptForm(request.POST)
    if form.is_valid():
        try:
            svc.contact_attempt_record(complaint=complaint, actor=request.user, **form.cleaned_data)
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Contact attempt recorded."))
            return redirect("complaints:seizure", complaint.pk)
    return _page(request, complaint, contact_form=form, status=400)


urlpatterns = [
    path("<int:pk>/seizure/", seizure, name="seizure"),
    path("<int:pk>/seizure/contact/", contact_attempt, name="seizure_contact"),
]
