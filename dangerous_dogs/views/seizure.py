"""Seizure and reclaim pages, and the case page's seizure section (DD-21, DD-23, C36).

The officer or administrator seizes (an impound case opens behind the release gate) and,
when the owner comes within the hold, records the reclaim: the proofs of the checklist
verified clear the gate, and the impound and boarding fees are paid through impound's own
redemption, in one step.
"""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from base.access import role_required
from base.forms import apply_service_errors
from base.messages import success_with_receipt
from base.roles import ADMINISTRATOR, OFFICER, STAFF_ROLES
from dangerous_dogs.forms_compliance import ReclaimForm, SeizeForm
from dangerous_dogs.models import Designation
from dangerous_dogs.services.compliance import (
    PROVEN_FIRST,
    compliance_checklist,
    seizure_citation,
)
from dangerous_dogs.services.seizure import case_reclaim, case_seize, seizure_notice
from impound.services.redemption import licenses_dogs, redemption_conditions, redemption_quote
from licensing.forms.tendered import licensed_answer, payment_form
from ordinance.refusals import Refused

from .compliance import _case, compliance_state

ACTING = (OFFICER, ADMINISTRATOR)


def seizure_section(request, *, case):
    if case.declared_designation != Designation.DANGEROUS:
        return None
    if case.impound_case_id is None and not case.may("seize"):
        return None
    if case.impound_case_id is None and case.compliance_deadline is None:
        return None
    checklist, _status = compliance_state(request, case)
    impound = case.impound_case
    gates = list(impound.gates.all()) if impound else []
    return "dangerous_dogs/seizure/_section.html", {
        "case": case,
        "impound": impound,
        "gates": gates,
        "checklist": checklist,
        "seizure_citation": ""
        if impound
        else seizure_citation(case.jurisdiction, on=timezone.localdate()),
        "may_seize": request.user.has_role(*ACTING) and case.may("seize"),
        "may_reclaim": request.user.has_role(*ACTING) and case.may("reclaim"),
    }


@role_required(*ACTING)
@require_http_methods(["GET", "POST"])
def seize(request, pk):
    case = _case(request.user, pk)
    form = SeizeForm(request.POST or None, jurisdiction=case.jurisdiction)
    if request.method == "POST" and form.is_valid():
        try:
            case_seize(case, actor=request.user, **form.cleaned_data)
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Seized: the impound case is open."))
            return redirect(case)
    today = timezone.localdate()
    checklist = compliance_checklist(case, on=today, registration_in_force=False)
    return render(
        request,
        "dangerous_dogs/seizure/seize.html",
        {
            "case": case,
            "form": form,
            "checklist": checklist,
            "seizure_citation": seizure_citation(case.jurisdiction, on=today),
        },
    )


def _quote(case, today, licensed):
    impound = case.impound_case
    try:
        quote = redemption_quote(case=impound, owner=case.owner, on=today, licensed=licensed)
    except Refused as exc:
        return (
            None,
            exc,
            redemption_conditions(case=impound, on=today, resident=case.owner.is_resident),
        )
    return quote, None, quote.conditions


@role_required(*STAFF_ROLES)
@require_http_methods(["GET", "POST"])
def reclaim(request, pk):
    case = _case(request.user, pk)
    may_act = request.user.has_role(*ACTING)
    if request.method == "POST" and not may_act:
        raise PermissionDenied
    today = timezone.localdate()
    ask = not licenses_dogs(case.jurisdiction, on=today)
    form = payment_form(ReclaimForm, request, ask_licensed=ask)
    licensed = None
    if request.method == "GET" and ask:
        licensed = licensed_answer(request.GET)  # "Recalculate" asks again, nothing paid
    elif form.is_bound and form.is_valid():
        licensed = form.licensed_value() if ask else None
    if request.method == "POST" and form.is_valid():
        try:
            redemption = case_reclaim(
                case,
                actor=request.user,
                method=form.cleaned_data["method"],
                reference=form.cleaned_data["reference"],
                tendered=form.cleaned_data.get("amount_tendered"),
                licensed=licensed,
            )
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            message = _("Reclaimed: the dog is released to the owner.")
            if redemption.receipt is not None:
                success_with_receipt(request, message, redemption.receipt)
            else:
                messages.success(request, message)
            return redirect(case)
    quote = refusal = conditions = None
    if case.may("reclaim") and case.impound_case and case.impound_case.is_open:
        quote, refusal, conditions = _quote(case, today, licensed)
    checklist = compliance_checklist(case, on=today, registration_in_force=False)
    return render(
        request,
        "dangerous_dogs/seizure/reclaim.html",
        {
            "case": case,
            "impound": case.impound_case,
            "form": form,
            "quote": quote,
            "refusal": refusal,
            "conditions": conditions,
            "checklist": checklist,
            "proof_missing": checklist.missing_of(PROVEN_FIRST),
            "may_act": may_act,
        },
    )


@role_required(*STAFF_ROLES)
def notice_pdf(request, pk):
    """The seizure notice of the case (the case page links here, so it does not look the
    document up on every view)."""
    case = _case(request.user, pk)
    notice = seizure_notice(case)
    if notice is None:
        raise Http404
    return redirect("notices:document_pdf", pk=notice.pk)


urlpatterns = [
    path("cases/<int:pk>/seizure-notice/", notice_pdf, name="seizure_notice"),
    path("cases/<int:pk>/seize/", seize, name="seizure_create"),
    path("cases/<int:pk>/reclaim/", reclaim, name="seizure_reclaim"),
]
SECTIONS = [("seizure", seizure_section, 60)]
