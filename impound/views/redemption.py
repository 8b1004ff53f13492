"""Redemption at the counter and the case page's redemption and gates section (IMP-07, IMP-08).

The clerk (or administrator) sees the quote, each fee with its section, the conditions
still unmet, and takes payment with ``case_redeem``; the officer may see the quote. The
officer or administrator clears a court's authorization with the order's scan (C16) and
records a judgement of humane destruction (NB Sec. 6-75). Refusals are shown next to the
fields, never a 500.
"""

from django import forms
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from base import dates
from base.access import get_in_jurisdiction, in_user_cities, role_required
from base.forms import CERTIFICATE_TYPES, apply_service_errors
from base.messages import success_with_receipt
from base.roles import ADMINISTRATOR, CLERK, OFFICER
from base.uploads import upload_check
from impound.models import CaseGate, CaseStatus, GateKind, ImpoundCase
from impound.services.gates import case_humane_destruction_judgement, gate_clear_court_authorization
from impound.services.redemption import (
    case_redeem,
    licenses_dogs,
    redemption_conditions,
    redemption_quote,
)
from licensing.forms.counter import DATE, CashPaymentForm
from licensing.forms.tendered import licensed_answer, payment_form
from licensing.services.documents import documents_for
from ordinance.refusals import Refused
from ordinance.rules import rule_in_force

COUNTER = (CLERK, ADMINISTRATOR)
VIEWERS = (CLERK, OFFICER, ADMINISTRATOR)
GATEKEEPERS = (OFFICER, ADMINISTRATOR)
YES_NO = [("yes", _("Yes")), ("no", _("No"))]


class RedeemForm(CashPaymentForm):
    licensed = forms.ChoiceField(
        label=_("Is the animal licensed?"),
        choices=YES_NO,
        widget=forms.RadioSelect,
        required=False,
    )

    def __init__(self, *args, ask_licensed: bool, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["tag_number"]
        if not ask_licensed:
            del self.fields["licensed"]
        else:
            self.fields["licensed"].required = True

    def licensed_value(self):
        return licensed_answer(self.cleaned_data if hasattr(self, "cleaned_data") else {})


class CourtOrderForm(forms.Form):
    court = forms.CharField(label=_("Court"), max_length=120)
    order_number = forms.CharField(label=_("Order number"), max_length=60)
    order_date = dates.PastDateField(label=_("Order date"), widget=DATE)
    terms = forms.CharField(label=_("Terms of the order"), required=False, max_length=200)
    document = forms.FileField(label=_("The court's order (PDF or image)"))

    def clean_document(self):
        document = self.cleaned_data.get("document")
        if document is not None:
            return upload_check(document, CERTIFICATE_TYPES)
        return document


class HumaneDestructionForm(forms.Form):
    decided_by_name = forms.CharField(label=_("Judged by"), max_length=120)
    capacity = forms.CharField(label=_("In the capacity of"), max_length=120)
    decided_on = dates.PastDateField(label=_("Judged on"), widget=DATE)
    reasons = forms.CharField(label=_("Humane reasons"), widget=forms.Textarea(attrs={"rows": 3}))


def _case(user, pk):
    qs = ImpoundCase.objects.select_related(
        "jurisdiction", "animal__owner", "animal__jurisdiction", "redemption__receipt"
    ).prefetch_related("gates", "animal__vaccinations", "animal__licenses__tags")
    return get_in_jurisdiction(qs, user, pk=pk)


def redemption_state(case, *, on, licensed=None, resident=None):
    """(quote, refusal, conditions) for a case page: the quote, or the blank fees refused
    with their sections and the conditions read on their own."""
    owner = case.owner
    if owner is None:
        return None, None, redemption_conditions(case=case, on=on, resident=False)
    try:
        quote = redemption_quote(
            case=case, owner=owner, on=on, licensed=licensed, resident=resident
        )
    except Refused as exc:
        resident = owner.is_resident if resident is None else resident
        return None, exc, redemption_conditions(case=case, on=on, resident=resident)
    return quote, None, quote.conditions


@role_required(*VIEWERS)
@require_http_methods(["GET", "POST"])
def case_redeem_page(request, pk):
    case = _case(request.user, pk)
    if request.method == "POST" and request.user.primary_role not in COUNTER:
        raise PermissionDenied
    today = timezone.localdate()
    ask = not licenses_dogs(case.jurisdiction, on=today)
    form = payment_form(RedeemForm, request, ask_licensed=ask)
    licensed = case.licensed
    if request.method == "GET" and ask and "licensed" in request.GET:
        licensed = licensed_answer(request.GET)  # "Recalculate" asks again, nothing paid
    elif form.is_bound and form.is_valid():
        licensed = form.licensed_value() if ask else None
    redeemable = case.may("redeem")
    if request.method == "POST" and form.is_valid() and redeemable:
        try:
            redemption = case_redeem(
                case=case,
                owner=case.owner,
                actor=request.user,
                method=form.cleaned_data["method"],
                reference=form.cleaned_data["reference"],
                tendered=form.cleaned_data.get("amount_tendered"),
                licensed=licensed,
            )
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            success_with_receipt(
                request,
                _("Redeemed; receipt %(n)s issued.") % {"n": redemption.receipt.number},
                redemption.receipt,
            )
            return redirect("impound:case_redeem", pk=case.pk)
    quote = refusal = conditions = None
    receipt_docs = {}
    if case.status == CaseStatus.REDEEMED and hasattr(case, "redemption"):
        receipt_docs = documents_for(case.redemption.receipt) if case.redemption.receipt else {}
    elif redeemable:
        quote, refusal, conditions = redemption_state(
            case, on=today, licensed=licensed if ask else None
        )
    return render(
        request,
        "impound/redemption/redeem.html",
        {
            "case": case,
            "owner": case.owner,
            "quote": quote,
            "refusal": refusal,
            "conditions": conditions,
            "form": form,
            "may_redeem": request.user.primary_role in COUNTER,
            "receipt_docs": receipt_docs,
        },
    )


@role_required(*GATEKEEPERS)
@require_http_methods(["GET", "POST"])
def gate_clear(request, pk):
    gates = CaseGate.objects.select_related("case__jurisdiction")
    gate = in_user_cities(gates, request.user, "case__jurisdiction").filter(pk=pk).first()
    if gate is None:
        raise Http404
    form = CourtOrderForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            gate_clear_court_authorization(gate=gate, actor=request.user, **form.cleaned_data)
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            return redirect("impound:case_redeem", pk=gate.case_id)
    return render(request, "impound/redemption/gate_clear.html", {"gate": gate, "form": form})


@role_required(*GATEKEEPERS)
@require_http_methods(["GET", "POST"])
def humane_destruction(request, pk):
    case = _case(request.user, pk)
    rule = rule_in_force(
        case.jurisdiction, "humane_destruction_provision", on=timezone.localdate(), optional=True
    )
    form = HumaneDestructionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            case_humane_destruction_judgement(case=case, actor=request.user, **form.cleaned_data)
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            return redirect("impound:case_redeem", pk=case.pk)
    return render(
        request,
        "impound/redemption/humane_destruction.html",
        {"case": case, "form": form, "rule": rule},
    )


def case_redemption_section(request, *, case):
    """The case page's redemption status and gates (staff only)."""
    role = getattr(request.user, "primary_role", None)
    if role not in VIEWERS:
        return None
    # What is owed is on the redemption page (one answer, computed there): the case page
    # shows the status and the gates, so it stays within its query budget.
    return "impound/redemption/_section.html", {
        "case": case,
        "gates": list(case.gates.all()),
        "court_kind": GateKind.COURT_AUTHORIZATION.value,
        "gatekeeper": role in GATEKEEPERS,
        "may_redeem": role in COUNTER,
        "redeemable": case.may("redeem"),
    }


urlpatterns = [
    path("<int:pk>/redeem/", case_redeem_page, name="case_redeem"),
    path("gates/<int:pk>/clear/", gate_clear, name="gate_clear"),
    path("<int:pk>/humane-destruction/", humane_destruction, name="humane_destruction"),
]
SECTIONS = [("redemption", case_redemption_section, 30)]
