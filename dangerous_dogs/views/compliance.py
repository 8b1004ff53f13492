"""Compliance and registration pages, and their sections of the case page (DD-10..DD-15).

Thin views: the role first (403), the case within the user's cities (404), a form, one
service call, a ``Refused`` next to its field. The officer or administrator records each
proof, the humane destruction, and issues or renews the certificate of registration
(taking the fee with a receipt, as the counter does).
"""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from base.access import get_in_jurisdiction, role_required
from base.forms import apply_service_errors
from base.messages import success_with_receipt
from base.roles import ADMINISTRATOR, OFFICER, STAFF_ROLES
from dangerous_dogs.forms_compliance import DestroyedForm, FeePaymentForm, ProofForm
from dangerous_dogs.models import (
    CaseStatus,
    ComplianceProof,
    Designation,
    DesignationCase,
    Registration,
    Requirement,
)
from dangerous_dogs.selectors import Table, read_tables
from dangerous_dogs.services.compliance import (
    BOND,
    FEE_CAP,
    INSURANCE,
    MICROCHIP_STATUTE,
    case_destroyed,
    compliance_checklist,
    proof_record,
)
from dangerous_dogs.services.registration import (
    registration_fee,
    registration_issue,
    registration_renew,
    registration_status,
)
from impound.models import CaseGate
from licensing.models import Receipt
from notices.models import IssuedDocument
from ordinance.refusals import Refused, refusing

ACTING = (OFFICER, ADMINISTRATOR)
PROVABLE = (Requirement.ENCLOSURE, Requirement.COVERAGE, Requirement.MICROCHIP)
SHOWN = (
    CaseStatus.DECLARED,
    CaseStatus.REGISTERED,
    CaseStatus.SEIZED,
    CaseStatus.DESTROYED,
)


def registrations_prefetch():
    return Prefetch(
        "registrations", queryset=Registration.objects.select_related("document", "receipt")
    )


def _case(user, pk):
    qs = DesignationCase.objects.select_related(
        "jurisdiction", "animal", "owner", "impound_case"
    ).prefetch_related("proofs", registrations_prefetch())
    return get_in_jurisdiction(qs, user, pk=pk)


PART_C_TABLES = {
    "proofs": Table(ComplianceProof, lambda ref: ComplianceProof.objects.filter(case=ref("pk"))),
    "registrations": Table(
        Registration,
        lambda ref: Registration.objects.filter(case=ref("pk")),
        related={"receipt": Receipt, "document": IssuedDocument},
    ),
    "gates": Table(
        CaseGate,
        lambda ref: CaseGate.objects.filter(case_id=ref("impound_case_id")),
        ("opened_at", "pk"),
    ),
}


def _prefetched(instance, name: str, rows: list) -> None:
    """Hand ``rows`` to ``instance.<name>.all()`` as a prefetch would (no query)."""
    queryset = getattr(instance, name).all()
    queryset._result_cache, queryset._prefetch_done = rows, True
    instance.__dict__.setdefault("_prefetched_objects_cache", {})[name] = queryset


def read_part_c(case) -> None:
    """The proofs, registrations and the seizure's gates of the case in one query, handed
    to ``case.proofs``, ``case.registrations`` and ``case.impound_case.gates``."""
    if getattr(case, "_part_c_read", False):
        return
    tables = read_tables(case, PART_C_TABLES)
    _prefetched(case, "proofs", tables["proofs"])
    _prefetched(case, "registrations", tables["registrations"])
    if case.impound_case_id is not None:
        _prefetched(case.impound_case, "gates", tables["gates"])
    case._part_c_read = True


def compliance_state(request, case):
    """(checklist, registration status) of the case page, read once per request."""
    cache = getattr(request, "_dd_compliance", None)
    if cache is not None and cache[0] == case.pk:
        return cache[1]
    today = timezone.localdate()
    if case.declared_designation == Designation.DANGEROUS:
        read_part_c(case)
    status = registration_status(case, on=today)
    checklist = compliance_checklist(case, on=today, registration_in_force=status.in_force)
    request._dd_compliance = (case.pk, (checklist, status))
    return checklist, status


def coverage_layers(checklist):
    """Both sides of each minimum with their sections (the page shows Glencoe's $50 and
    the statute's $300,000, and the profile's warning)."""
    rules = checklist.rules
    return [rules[BOND], rules[INSURANCE]] if rules else []


def _may_act(request) -> bool:
    return request.user.has_role(*ACTING)


# --- Sections of the case page --------------------------------------------------------


def compliance_section(request, *, case):
    if not case.declared_designation or case.status not in SHOWN:
        return None
    checklist, status = compliance_state(request, case)
    return "dangerous_dogs/compliance/_section.html", {
        "case": case,
        "checklist": checklist,
        "coverage_layers": coverage_layers(checklist),
        "microchip": checklist.rules.get(MICROCHIP_STATUTE) if checklist.rules else None,
        "may_act": _may_act(request) and case.may("destroy"),
        "may_prove": _may_act(request) and case.in_force,
        "provable": PROVABLE,
    }


def registration_section(request, *, case):
    if case.declared_designation != Designation.DANGEROUS or case.status not in SHOWN:
        return None
    checklist, status = compliance_state(request, case)
    registrations = sorted(
        case.registrations.all(), key=lambda r: (r.issued_on, r.pk), reverse=True
    )
    return "dangerous_dogs/compliance/_registration.html", {
        "case": case,
        "status": status,
        "registrations": registrations,
        "cap": checklist.rules.get(FEE_CAP),
        "may_issue": _may_act(request) and case.may("register"),
        "may_renew": _may_act(request)
        and case.status == CaseStatus.REGISTERED
        and status.registration is not None,
    }


# --- Pages ------------------------------------------------------------------------------


@role_required(*ACTING)
@require_http_methods(["GET", "POST"])
def proof_create(request, pk, requirement):
    if requirement not in PROVABLE:
        raise Http404
    case = _case(request.user, pk)
    form = ProofForm(request.POST or None, request.FILES or None, requirement=requirement)
    if request.method == "POST" and form.is_valid():
        try:
            proof_record(case, requirement, actor=request.user, **form.service_values())
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Proof recorded."))
            return redirect(case)
    checklist = compliance_checklist(case, on=timezone.localdate())
    return render(
        request,
        "dangerous_dogs/compliance/proof.html",
        {
            "case": case,
            "form": form,
            "requirement": Requirement(requirement),
            "checklist": checklist,
            "coverage_layers": coverage_layers(checklist),
            "microchip": checklist.rules.get(MICROCHIP_STATUTE) if checklist.rules else None,
        },
    )


@role_required(*ACTING)
@require_http_methods(["GET", "POST"])
def destroyed(request, pk):
    case = _case(request.user, pk)
    form = DestroyedForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            case_destroyed(case, actor=request.user, **form.cleaned_data)
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Recorded: the case is closed."))
            return redirect(case)
    return render(request, "dangerous_dogs/compliance/destroyed.html", {"case": case, "form": form})


def _fee_state(case, today):
    """(fee check, refusal): the fee and cap, or why the certificate cannot be issued."""
    try:
        with refusing():
            return registration_fee(case.jurisdiction, on=today), None
    except Refused as exc:
        return None, exc


@role_required(*STAFF_ROLES)
@require_http_methods(["GET", "POST"])
def registration_page(request, pk, renew=False):
    case = _case(request.user, pk)
    if request.method == "POST" and not _may_act(request):
        raise PermissionDenied
    today = timezone.localdate()
    form = FeePaymentForm(request.POST or None)
    status = registration_status(case, on=today)
    if request.method == "POST" and form.is_valid():
        values = {
            "actor": request.user,
            "method": form.cleaned_data["method"],
            "reference": form.cleaned_data["reference"],
            "tendered": form.cleaned_data.get("amount_tendered"),
        }
        try:
            if renew:
                if status.registration is None:
                    raise Http404
                registration = registration_renew(status.registration, **values)
            else:
                registration = registration_issue(case, **values)
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            success_with_receipt(
                request, _("Certificate of registration issued."), registration.receipt
            )
            return redirect(case)
    fees, refusal = _fee_state(case, today)
    checklist = compliance_checklist(case, on=today, registration_in_force=False)
    return render(
        request,
        "dangerous_dogs/compliance/registration.html",
        {
            "case": case,
            "form": form,
            "renew": renew,
            "status": status,
            "fees": fees,
            "refusal": refusal,
            "checklist": checklist,
            "cap_layers": checklist.rules.get(FEE_CAP) if checklist.rules else None,
            "may_act": _may_act(request),
        },
    )


@role_required(*STAFF_ROLES)
@require_http_methods(["GET", "POST"])
def registration_renew_page(request, pk):
    return registration_page(request, pk, renew=True)


urlpatterns = [
    path(
        "cases/<int:pk>/compliance/<slug:requirement>/",
        proof_create,
        name="compliance_proof",
    ),
    path("cases/<int:pk>/destroyed/", destroyed, name="compliance_destroyed"),
    path("cases/<int:pk>/registration/", registration_page, name="registration_issue"),
    path(
        "cases/<int:pk>/registration/renew/",
        registration_renew_page,
        name="registration_renew",
    ),
]
SECTIONS = [
    ("compliance", compliance_section, 50),
    ("registration", registration_section, 55),
]
