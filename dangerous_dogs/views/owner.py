"""Part D on the case page: the owner's reports and the sterilization order (DD-16..DD-19,
DD-17, MN-07; C32-C34, C37).

Thin views: the role first (403), the record within the user's cities (404), a form, one
service call; a ``Refused`` goes next to its field and nothing typed is lost. Officers
and administrators act; clerks see the sections. The sections of part D (orders 70-89)
read all their records with one query (``part_d``: JSON arrays on PostgreSQL) and the
rules they show with one more, whatever the number of records.
"""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _

from base.access import get_in_jurisdiction, in_user_cities, role_required
from base.forms import apply_service_errors
from base.roles import ADMINISTRATOR, CLERK, OFFICER
from dangerous_dogs import forms_owner as f
from dangerous_dogs.models import (
    Charge,
    Designation,
    DesignationCase,
    OwnerReport,
    ReportKind,
    ReviewRequest,
    SterilizationOrder,
    SummaryDestruction,
)
from dangerous_dogs.selectors import Table, case_decisions, read_tables
from dangerous_dogs.services import owner_reports, sterilization
from dangerous_dogs.services.charges import COURT_ORDER_KIND
from licensing.models import Owner
from licensing.selectors import registry_search
from notices.models import Decision
from ordinance.refusals import Refused
from ordinance.rules import RuleUnavailable, rule_citation, rule_layers

ACTORS = (OFFICER, ADMINISTRATOR)
VIEWERS = (CLERK, *ACTORS)
FORM_TEMPLATE = "dangerous_dogs/owner/form.html"
RULE_KEYS = (
    sterilization.REQUIRED_KEY,
    sterilization.DAYS_KEY,
    "dd_review_first_after_months",
    "dd_review_frequency",
)


# --- What part D's sections share -------------------------------------------------------

PART_D_TABLES = {
    "reports": Table(
        OwnerReport, lambda ref: OwnerReport.objects.filter(case=ref("pk")), ("event_on", "pk")
    ),
    "orders": Table(
        SterilizationOrder,
        lambda ref: SterilizationOrder.objects.filter(case=ref("pk")),
        ("ordered_on", "pk"),
    ),
    "reviews": Table(
        ReviewRequest,
        lambda ref: ReviewRequest.objects.filter(case=ref("pk")),
        ("requested_on", "pk"),
        {"decision": Decision},
    ),
    "charges": Table(
        Charge, lambda ref: Charge.objects.filter(case=ref("pk")), ("charged_on", "pk")
    ),
    "destructions": Table(
        SummaryDestruction,
        lambda ref: SummaryDestruction.objects.filter(case=ref("pk")),
        ("hearing_on", "pk"),
        {"decision": Decision},
    ),
    "court_orders": Table(Decision, case_decisions(COURT_ORDER_KIND), ("decided_on", "pk")),
}


def part_d(case: DesignationCase) -> dict:
    """Part D's records of the case and the rules its sections show: read once per page
    (two queries), cached on the case object."""
    cached = getattr(case, "_part_d", None)
    if cached is not None:
        return cached
    records = read_tables(case, PART_D_TABLES)
    layers = {}
    if case.declared_designation == Designation.DANGEROUS:
        try:
            layers = rule_layers(case.jurisdiction, RULE_KEYS, on=timezone.localdate())
        except RuleUnavailable:
            layers = {}
    case._part_d = {**records, "layers": layers}
    return case._part_d


def may_act(request, case) -> bool:
    """Officers and administrators act (a case exists only where the city has the
    procedure; the services refuse elsewhere, DD-29)."""
    return request.user.has_role(*ACTORS)


def scoped(queryset, user, pk, field="case__jurisdiction"):
    """A record of part D reached through its case: 404 outside the user's cities."""
    obj = in_user_cities(queryset, user, field).filter(pk=pk).first()
    if obj is None:
        raise Http404
    return obj


def case_for(request, pk, *related):
    return get_in_jurisdiction(
        DesignationCase.objects.select_related("jurisdiction", "animal", "owner", *related),
        request.user,
        pk=pk,
    )


def form_page(request, *, case, form, title, run, intro="", extra=None, done_url=None):
    """Validate ``form`` on POST, call ``run(data)``; a refusal goes next to its field."""
    if request.method == "POST" and form.is_valid():
        try:
            run(form.cleaned_data)
        except Refused as refused:
            apply_service_errors(form, refused)
        except RuleUnavailable as exc:
            apply_service_errors(form, Refused.from_rule(exc))
        else:
            messages.success(request, _("Recorded."))
            return redirect(done_url or case.get_absolute_url())
    context = {"case": case, "form": form, "title": title, "intro": intro}
    context.update(extra or {})
    return render(request, FORM_TEMPLATE, context, status=200)


def _bound(request, form_class, **kwargs):
    if request.method == "POST":
        return form_class(request.POST, request.FILES, **kwargs)
    return form_class(initial={"on": timezone.localdate()}, **kwargs)


# --- Owner's reports (C32-C34) ----------------------------------------------------------


def reports_section(request, *, case):
    reports = part_d(case)["reports"]
    if not (case.declared_on or reports):
        return None
    return "dangerous_dogs/owner/_reports.html", {
        "case": case,
        "reports": reports,
        "can_act": may_act(request, case),
        "sale_note": owner_reports.sale_deadline_note(case.jurisdiction),
        "death_transfer_citation": rule_citation(case.jurisdiction, "DD-16"),
    }


@role_required(*ACTORS)
def report_new(request, pk):
    case = case_for(request, pk)
    query = request.GET.get("q", "") or request.POST.get("q", "")
    hits = registry_search(
        user=request.user, query=query, limit=10, jurisdiction_ids=[case.jurisdiction_id]
    )
    chosen = request.POST.get("buyer") if request.method == "POST" else None
    ids = [hit.owner.pk for hit in hits]
    if chosen and chosen.isdigit():
        ids.append(int(chosen))
    buyers = Owner.objects.filter(jurisdiction=case.jurisdiction, pk__in=ids).exclude(
        pk=case.owner_id
    )
    form = (
        f.ReportForm(request.POST, buyers=buyers)
        if request.method == "POST"
        else f.ReportForm(buyers=buyers, initial={"notified_on": timezone.localdate()})
    )

    def run(data):
        report = owner_reports.ReportFacts(**data)
        owner_reports.report_record(case=case, report=report, actor=request.user)

    return form_page(
        request,
        case=case,
        form=form,
        title=_("Record an owner's report"),
        run=run,
        intro=owner_reports.sale_deadline_note(case.jurisdiction),
        extra={"search": True, "q": query, "searched": len(query.strip()) > 0},
    )


def _report(request, pk):
    return scoped(
        OwnerReport.objects.select_related("case__jurisdiction", "case__animal", "case__owner"),
        request.user,
        pk,
    )


@role_required(*ACTORS)
def affidavit_request(request, pk):
    report = _report(request, pk)
    form = _bound(request, f.AffidavitRequestForm)

    def run(data):
        owner_reports.affidavit_request(report=report, on=data["on"], actor=request.user)

    return form_page(
        request,
        case=report.case,
        form=form,
        title=_("Request the affidavit under oath"),
        run=run,
        intro=_("%(report)s: the owner executes an affidavit under oath on request (%(s)s).")
        % {"report": report, "s": report.citation},
    )


@role_required(*ACTORS)
def affidavit_upload(request, pk):
    report = _report(request, pk)
    form = _bound(request, f.AffidavitForm)

    def run(data):
        owner_reports.affidavit_receive(
            report=report, received_on=data["received_on"], file=data["file"], actor=request.user
        )

    return form_page(
        request, case=report.case, form=form, title=_("Record the affidavit received"), run=run
    )


# --- Sterilization order (C37) ----------------------------------------------------------


def sterilization_section(request, *, case):
    if case.declared_designation != Designation.DANGEROUS:
        return None
    info = part_d(case)
    layers, orders = info["layers"], info["orders"]
    return "dangerous_dogs/owner/_sterilization.html", {
        "case": case,
        "orders": orders,
        "required": layers.get(sterilization.REQUIRED_KEY),
        "days": layers.get(sterilization.DAYS_KEY),
        "ordinance_citation": rule_citation(case.jurisdiction, "DD-17"),
        "can_order": may_act(request, case) and case.in_force and not orders,
        "can_act": may_act(request, case),
        "today": timezone.localdate(),
    }


@role_required(*ACTORS)
def sterilization_new(request, pk):
    case = case_for(request, pk)
    form = (
        f.SterilizationOrderForm(request.POST)
        if request.method == "POST"
        else f.SterilizationOrderForm(initial={"ordered_on": timezone.localdate()})
    )

    def run(data):
        sterilization.sterilization_order(
            case=case, ordered_on=data["ordered_on"], actor=request.user
        )

    return form_page(
        request,
        case=case,
        form=form,
        title=_("Order the dog sterilized"),
        run=run,
        intro=_("The order is issued as a PDF; the due date counts from the declaration."),
    )


@role_required(*ACTORS)
def sterilization_done(request, pk):
    order = scoped(
        SterilizationOrder.objects.select_related("case__jurisdiction", "case__animal"),
        request.user,
        pk,
    )
    form = _bound(request, f.SterilizationDoneForm)

    def run(data):
        sterilization.sterilization_done(order=order, actor=request.user, **data)

    return form_page(
        request, case=order.case, form=form, title=_("Record the sterilization"), run=run
    )


urlpatterns = [
    path("cases/<int:pk>/reports/new/", report_new, name="owner_report_new"),
    path(
        "reports/<int:pk>/affidavit/request/",
        affidavit_request,
        name="owner_affidavit_request",
    ),
    path("reports/<int:pk>/affidavit/", affidavit_upload, name="owner_affidavit_upload"),
    path("cases/<int:pk>/sterilization/new/", sterilization_new, name="owner_sterilization_new"),
    path("sterilization/<int:pk>/done/", sterilization_done, name="owner_sterilization_done"),
]
SECTIONS = [
    ("owner_reports", reports_section, 70),
    ("sterilization", sterilization_section, 74),
]

__all__ = [
    "ACTORS",
    "VIEWERS",
    "ReportKind",
    "case_for",
    "form_page",
    "may_act",
    "part_d",
    "scoped",
]
