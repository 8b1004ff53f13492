"""Kennel license pages: list, apply, detail with review steps and actions (KEN-01..08).

Thin: parse the form, call one service, redirect; a refused action re-renders the page
with the bound form and the reason, so nothing the clerk typed is lost.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django import forms as django_forms
from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from base.access import get_in_jurisdiction, role_required
from base.forms import apply_service_errors
from base.messages import success_with_receipt
from base.roles import ADMINISTRATOR, CLERK
from licensing.forms import kennels as forms
from licensing.models import KennelDecision, KennelLicense, KennelStatus
from licensing.selectors import owner_choices
from licensing.services.kennels import (
    animals,
    applications,
    denials,
    documents,
    issuance,
    payments,
    revocations,
    terms,
    transfers,
)
from licensing.services.kennels.applications import KennelRequest
from licensing.services.kennels.common import DecidedBy
from licensing.views.counter import owner_pick_kwargs
from ordinance.money import money_sum
from ordinance.refusals import Refused
from ordinance.rules import rule_citation

COUNTER = (CLERK, ADMINISTRATOR)


@role_required(*COUNTER)
def kennel_list(request):
    kennels = (
        KennelLicense.objects.for_user(request.user)
        .select_related("owner", "premises", "jurisdiction")
        .order_by("-applied_on", "-pk")
    )
    status = request.GET.get("status", "")
    if status in KennelStatus.values:
        kennels = kennels.filter(status=status)
    page = Paginator(kennels, 50).get_page(request.GET.get("page"))
    return render(
        request,
        "licensing/kennels/list.html",
        {
            "page": page,
            "statuses": KennelStatus.choices,
            "status": status,
            "several_cities": len(request.user.jurisdiction_ids) > 1,
        },
    )


def _only_city(user):
    """The one city a clerk serves, whose sections the application page can cite; None
    when they serve several (the owner picked decides the city, so no section is shown)."""
    cities = list(user.served_jurisdictions()[:2])
    return cities[0] if len(cities) == 1 else None


@role_required(*COUNTER)
def kennel_apply(request):
    city = _only_city(request.user)
    # The applicant is found by search within the clerk's cities.
    query = request.GET.get("q", "").strip()[:100]
    candidates = owner_choices(
        user=request.user,
        jurisdiction=city,
        query=query,
        picked=request.POST.get("owner") or request.GET.get("owner", ""),
    )
    form = forms.KennelApplyForm(
        request.POST or None,
        user=request.user,
        jurisdiction=city,
        candidates=candidates,
        initial={"owner": request.GET.get("owner")},
    )
    if request.method == "POST" and form.is_valid():
        owner = form.cleaned_data["owner"]
        try:
            kennel = applications.kennel_apply(
                owner=owner,
                premises=applications.kennel_premises_for(owner),
                application=KennelRequest(
                    business_nature=form.cleaned_data["business_nature"],
                    dog_count=form.cleaned_data["dog_count"],
                    cat_count=form.cleaned_data["cat_count"],
                    cup_reference=form.cleaned_data["cup_reference"],
                    became_subject_on=form.cleaned_data["became_subject_on"],
                ),
                actor=request.user,
                on=timezone.localdate(),
            )
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Application recorded."))
            return redirect(kennel)
    review_section = rule_citation(city, "KEN-04") if city is not None else ""
    return render(
        request,
        "licensing/kennels/apply.html",
        {
            "form": form,
            "review_section": review_section,
            "pick": {"q": query, "searched": bool(query), "count": len(candidates)},
        },
    )


def _kennel_for(request, pk):
    queryset = KennelLicense.objects.select_related(
        "owner", "premises", "jurisdiction", "receipt__voided_by"
    ).prefetch_related(
        Prefetch("decisions", queryset=KennelDecision.objects.order_by("decided_on", "pk")),
        "kennel_animals__animal",
        "receipt__lines",
    )
    return get_in_jurisdiction(queryset, request.user, pk=pk)


def _person(data) -> dict:
    """Who decided, as the decision forms give it."""
    decided = DecidedBy(
        name=data["decided_by_name"],
        capacity=data["decided_by_capacity"],
        on=data["decided_on"],
        reasons=data["reasons"],
    )
    return {"decided": decided}


def _payment(data):
    return {
        "method": data.get("method", ""),
        "reference": data.get("reference", ""),
        "tendered": data.get("amount_tendered"),
    }


# One handler per action: each calls one service with its form's cleaned data.


def _decide(kennel, data, actor, now):
    if data["outcome"] == KennelDecision.Outcome.DENIED:  # a denial starts the appeal clock
        return _deny(kennel, data, actor, now)
    applications.kennel_decision_record(
        kennel=kennel,
        step=data["step"],
        actor=actor,
        outcome=data["outcome"],
        conditions=data["conditions"],
        **_person(data),
    )


def _deny(kennel, data, actor, now):
    denials.kennel_deny(
        kennel=kennel,
        step=data["step"],
        actor=actor,
        notified_on=data["notified_on"],
        **_person(data),
    )


def _pay(kennel, data, actor, now):
    payments.kennel_fee_collect(kennel=kennel, actor=actor, now=now, **_payment(data))


def _issue(kennel, data, actor, now):
    issuance.kennel_issue(kennel=kennel, actor=actor, now=now, **_payment(data))


def _replace_fee(kennel, data, actor, now):
    payments.kennel_fee_replace(kennel=kennel, actor=actor, now=now, **_payment(data))


def _notified(kennel, data, actor, now):
    denials.kennel_denial_notified(kennel=kennel, notified_on=data["notified_on"], actor=actor)


def _appeal(kennel, data, actor, now):
    denials.kennel_appeal_file(kennel=kennel, filed_on=data["filed_on"], actor=actor)


def _appeal_decide(kennel, data, actor, now):
    denials.kennel_appeal_decide(
        kennel=kennel,
        granted=data["granted"],
        conditions=data["conditions"],
        actor=actor,
        **_person(data),
    )


def _revocation_notice(kennel, data, actor, now):
    revocations.kennel_revocation_notice(kennel=kennel, actor=actor, **data)


def _revocation_decide(kennel, data, actor, now):
    revocations.kennel_revocation_decide(
        kennel=kennel, revoke=data["revoke"], actor=actor, **_person(data)
    )


def _add_animal(kennel, data, actor, now):
    animals.kennel_animal_add(
        kennel=kennel, animal=data["animal"], on=timezone.localdate(now), actor=actor
    )


def _remove_animal(kennel, data, actor, now):
    animals.kennel_animal_remove(
        kennel=kennel, animal=data["animal"], on=data["removed_on"], actor=actor
    )


@dataclass(frozen=True)
class Action:
    """A form on the detail page, and the handler its valid data goes to."""

    form: type[django_forms.Form]
    handle: Callable
    kennel_form: bool = False  # the animal forms choose among this kennel's animals


ACTIONS = {
    "decide": Action(forms.StepDecisionForm, _decide),
    "pay": Action(forms.PaymentForm, _pay),
    "issue": Action(forms.PaymentForm, _issue),
    "replace-fee": Action(forms.PaymentForm, _replace_fee),
    "notified": Action(forms.NotifiedForm, _notified),
    "appeal": Action(forms.AppealFileForm, _appeal),
    "appeal-decide": Action(forms.AppealDecideForm, _appeal_decide),
    "revocation-notice": Action(forms.RevocationNoticeForm, _revocation_notice),
    "revocation-decide": Action(forms.RevocationDecideForm, _revocation_decide),
    "add-animal": Action(forms.KennelAnimalForm, _add_animal, kennel_form=True),
    "remove-animal": Action(forms.KennelAnimalRemoveForm, _remove_animal, kennel_form=True),
}


def _form(action, kennel, steps, data=None):
    cls = ACTIONS[action].form
    if action == "issue" and kennel.fee_paid:  # nothing more to take: issue with one click
        return django_forms.Form(data, prefix=action)
    if cls is forms.StepDecisionForm:
        return cls(data, steps=steps, prefix=action)
    if ACTIONS[action].kennel_form:
        return cls(data, kennel=kennel, prefix=action)
    return cls(data, prefix=action)


@role_required(*COUNTER)
def kennel_detail(request, pk, bound=None, error=""):
    kennel = _kennel_for(request, pk)
    today = timezone.localdate()
    try:
        steps = applications.step_progress(kennel, on=today)
    except Refused as exc:
        steps, error = [], error or str(exc)
    forms_by_action = {
        a.replace("-", "_"): _form(a, kennel, [s for s, _d in steps]) for a in ACTIONS
    }
    if bound is not None:
        forms_by_action[bound[0].replace("-", "_")] = bound[1]
    try:
        fee_lines = [] if kennel.fee_paid else payments.kennel_fee_lines(kennel, on=today)
        fee_error = ""
    except Refused as exc:
        fee_lines, fee_error = [], str(exc)
    appeal = denials.appeal_rule(kennel, on=today)
    return render(
        request,
        "licensing/kennels/detail.html",
        {
            "kennel": kennel,
            "steps": steps,
            "forms": forms_by_action,
            "error": error,
            "flags": applications.kennel_screening(kennel, on=today),
            "term_warning": terms.kennel_term_warning(kennel, on=today),
            "fee_lines": fee_lines,
            "fee_total": money_sum(line.amount for line in fee_lines),
            "fee_error": fee_error,
            "appeal_rule": appeal,
            "fee_voided": payments.kennel_fee_voided_reason(kennel),
            "sections": _sections(kennel, grace="LIC-13", term="KEN-05", replace_fee="LIC-06"),
            "S": KennelStatus,
            # The actions offered: the transitions its status allows (KennelLicense.TRANSITIONS).
            "may": {t.name: kennel.may(t.name) for t in KennelLicense.TRANSITIONS},
            "several_cities": len(request.user.jurisdiction_ids) > 1,
        },
        status=400 if bound is not None else 200,
    )


def _sections(kennel, **rules):
    """The kennel's city's section for each named rules.md ID, for the page to show ("" where
    its ordinance has none): ``_sections(kennel, term="KEN-05")["term"]``."""
    return {name: rule_citation(kennel.jurisdiction, rule) for name, rule in rules.items()}


@role_required(*COUNTER)
@require_POST
def kennel_action(request, pk, action):
    """Dispatch a detail-page form to its handler; a refusal re-renders the bound form."""
    kennel = _kennel_for(request, pk)
    if action not in ACTIONS:
        return redirect(kennel)
    try:
        steps = [s for s, _d in applications.step_progress(kennel, on=timezone.localdate())]
    except Refused:
        steps = []
    form = _form(action, kennel, steps, request.POST)
    if not form.is_valid():
        return kennel_detail(request, pk, bound=(action, form))
    try:
        ACTIONS[action].handle(kennel, form.cleaned_data, request.user, timezone.now())
    except Refused as exc:  # the reasons go on the bound form, with their sections
        apply_service_errors(form, exc)
        return kennel_detail(request, pk, bound=(action, form))
    messages.success(request, _("Recorded."))
    return redirect(kennel)


@role_required(*COUNTER)
@require_POST
def kennel_document(request, pk):
    kennel = _kennel_for(request, pk)
    try:
        document = documents.kennel_document_issue(
            kennel=kennel, actor=request.user, now=timezone.now()
        )
    except Refused as exc:
        return kennel_detail(request, pk, error=str(exc))
    return redirect("notices:document_pdf", document.pk)


@role_required(*COUNTER)
@require_http_methods(["GET", "POST"])
def kennel_transfer(request, pk):
    """LIC-12: transfer a current kennel license to a new owner found by search."""
    kennel = _kennel_for(request, pk)
    kwargs = owner_pick_kwargs(
        request, jurisdiction=kennel.jurisdiction, exclude_owner=kennel.owner
    )
    form = forms.KennelTransferForm(request.POST or None, **kwargs)
    today = timezone.localdate()
    if request.method == "POST" and form.is_valid():
        try:
            receipt = transfers.kennel_transfer(
                kennel=kennel,
                new_owner=form.cleaned_data["new_owner"],
                actor=request.user,
                on=today,
                method=form.cleaned_data["method"],
                reference=form.cleaned_data["reference"],
                tendered=form.cleaned_data.get("amount_tendered"),
            )
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            success_with_receipt(
                request,
                _("Kennel license transferred; receipt %(n)s issued.") % {"n": receipt.number},
                receipt,
            )
            return redirect(kennel)
    fee = transfers.kennel_transfer_fee(kennel, on=today)
    return render(
        request,
        "licensing/kennels/transfer.html",
        {
            "kennel": kennel,
            "form": form,
            "pick": request.owner_pick,
            "fee": fee,
            "sections": _sections(kennel, transfer="LIC-12"),
        },
    )
