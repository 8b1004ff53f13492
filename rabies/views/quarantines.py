"""Quarantine pages (RAB-13 to RAB-24; Appendix B4; C41-C45).

Thin views: the role first (a wrong role gets 403), the record within the user's cities
(404 otherwise), form → service → on a refusal the form again with each reason next to
its field (status 400), else a message and the record's page. The sections fill the bite
page ("Confinement") and the quarantine page (the order, the inspections, the
examination and the city's release gate).
"""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from base.access import role_required
from base.forms import apply_service_errors
from ordinance.refusals import Refused
from ordinance.rules import rule_citation
from rabies.forms.quarantines import (
    ExamForm,
    FacilityForm,
    InspectionForm,
    OrderForm,
    PermissionForm,
    ReportForm,
)
from rabies.models import BiteDecision, BiteStatus
from rabies.services.common import city_rule
from rabies.services.quarantine import (
    VETERINARIAN_REPORT,
    WRITTEN_PERMISSION,
    confinement_options,
    exam_citation,
    examiner_capacities,
    facility_citation,
    inspection_citation,
    inspection_log,
    last_breach,
    missing,
    permission_record,
    quarantine_exam,
    quarantine_order,
    quarantine_release,
    quarantine_resolve,
    quarantine_to_facility,
    release_checklist,
    release_gate,
    report_record,
)

from .pages import ACTING_ROLES, bite_for_detail, quarantine_for_detail


def _may_act(request) -> bool:
    return request.user.has_role(*ACTING_ROLES)


# --- Sections -------------------------------------------------------------------------


def bite_confinement_section(request, *, record):
    bite = record
    confined = bite.decision == BiteDecision.CONFINE
    quarantines = list(bite.quarantines.all()) if confined else []
    # A confinement is ordered on a report awaiting its decision, or again for a confined
    # bite whose quarantines are all over.
    may_order = (
        _may_act(request)
        and (bite.may("confine") or bite.status == BiteStatus.QUARANTINE)
        and not any(q.is_open for q in quarantines)
    )
    if not quarantines and not bite.may("confine"):
        return None
    return "rabies/quarantines/_bite_section.html", {
        "bite": bite,
        "quarantines": quarantines,
        "may_order": may_order,
    }


def quarantine_summary_section(request, *, record):
    q = record
    today = timezone.localdate()
    return "rabies/quarantines/_summary.html", {
        "q": q,
        "today": today,
        "may_resolve": bool(q.attention) and _may_act(request),
        "days_left": q.days_left(today),
        "running": q.may("end"),
    }


def quarantine_inspections_section(request, *, record):
    q = record
    inspections = list(q.inspections.all())
    at_home = q.may("to_facility")
    if not inspections and not at_home and not q.moved_to_facility_on:
        return None
    may_act = _may_act(request)
    breach = any(not i.compliant and i.kind == "inspection" for i in inspections)
    return "rabies/quarantines/_inspections.html", {
        "q": q,
        "inspections": inspections,
        "citation": inspection_citation(q) if q.conditions else q.end_citation,
        "inspection_rule": rule_citation(q.jurisdiction, "RAB-17"),
        "may_inspect": may_act and at_home,
        "may_move": may_act and at_home and breach,
        "facility_citation": facility_citation(q) if breach else "",
    }


def quarantine_release_section(request, *, record):
    q = record
    today = timezone.localdate()
    items = release_checklist(q, on=today)
    gate = release_gate(q.jurisdiction, on=q.starts_on)
    may_act = _may_act(request)
    is_open = q.may("release")
    return "rabies/quarantines/_release.html", {
        "q": q,
        "items": items,
        "lacking": missing(items),
        "gate": gate,
        "exam_citation": exam_citation(q),
        "may_exam": may_act and is_open and q.examined_on is None,
        "may_permission": may_act
        and is_open
        and gate.kind == WRITTEN_PERMISSION
        and not q.permission_on,
        "may_report": may_act
        and is_open
        and gate.kind == VETERINARIAN_REPORT
        and not q.release_report_complete,
        "may_release": may_act and is_open,
    }


# --- Acting views -----------------------------------------------------------------------


def _page(request, template, context, form):
    status = 400 if form.is_bound and form.errors else 200
    return render(request, template, {**context, "form": form}, status=status)


@role_required(*ACTING_ROLES)
@require_http_methods(["GET", "POST"])
def order(request, pk):
    bite = bite_for_detail(request.user, pk)
    today = timezone.localdate()
    options = confinement_options(bite, on=today)
    suspects = city_rule(bite.jurisdiction, "rabies_suspect_quarantine_species", on=today)
    form = OrderForm(
        request.POST or None,
        jurisdiction=bite.jurisdiction,
        home_allowed=options.home,
        show_enclosure=suspects is not None,
        initial={
            "consent_by_name": request.user.get_full_name(),
            "consent_on": today,
            "home_address": bite.animal.owner.address if bite.animal else "",
        },
    )
    if request.method == "POST" and form.is_valid():
        try:
            quarantine = quarantine_order(bite, actor=request.user, **form.cleaned_data)
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(
                request,
                _("Confinement ordered until %(d)s; the quarantine order is issued.")
                % {"d": date_format(quarantine.ends_on)},
            )
            return redirect(quarantine)
    gate = release_gate(bite.jurisdiction, on=today)
    return _page(
        request,
        "rabies/quarantines/order.html",
        {"bite": bite, "options": options, "gate": gate},
        form,
    )


@role_required(*ACTING_ROLES)
@require_http_methods(["GET", "POST"])
def inspect(request, pk):
    q = quarantine_for_detail(request.user, pk)
    form = InspectionForm(request.POST or None, conditions=q.conditions)
    if request.method == "POST" and form.is_valid():
        try:
            inspection_log(q, actor=request.user, **form.values())
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Recorded."))
            return redirect(q)
    return _page(
        request,
        "rabies/quarantines/inspect.html",
        {"q": q, "citation": inspection_citation(q)},
        form,
    )


@role_required(*ACTING_ROLES)
@require_http_methods(["GET", "POST"])
def to_facility(request, pk):
    q = quarantine_for_detail(request.user, pk)
    form = FacilityForm(request.POST or None, jurisdiction=q.jurisdiction)
    if request.method == "POST" and form.is_valid():
        try:
            quarantine_to_facility(q, actor=request.user, **form.cleaned_data)
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Moved to the facility: the impound case is open."))
            return redirect(q)
    return _page(
        request,
        "rabies/quarantines/facility.html",
        {
            "q": q,
            "citation": facility_citation(q),
            "breach": last_breach(q),
            "days_left": q.days_left(timezone.localdate()),
        },
        form,
    )


@role_required(*ACTING_ROLES)
@require_http_methods(["GET", "POST"])
def exam(request, pk):
    q = quarantine_for_detail(request.user, pk)
    form = ExamForm(
        request.POST or None, capacities=examiner_capacities(q.jurisdiction, on=q.starts_on)
    )
    if request.method == "POST" and form.is_valid():
        try:
            quarantine_exam(q, actor=request.user, **form.values())
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Examination recorded."))
            return redirect(q)
    return _page(
        request, "rabies/quarantines/exam.html", {"q": q, "citation": exam_citation(q)}, form
    )


@role_required(*ACTING_ROLES)
@require_http_methods(["GET", "POST"])
def permission(request, pk):
    q = quarantine_for_detail(request.user, pk)
    gate = release_gate(q.jurisdiction, on=q.starts_on)
    form = PermissionForm(request.POST or None, signers=gate.signers)
    if request.method == "POST" and form.is_valid():
        try:
            permission_record(q, actor=request.user, **form.cleaned_data)
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Written permission recorded and issued."))
            return redirect(q)
    return _page(
        request,
        "rabies/quarantines/permission.html",
        {"q": q, "gate": gate, "applies": gate.kind == WRITTEN_PERMISSION},
        form,
    )


@role_required(*ACTING_ROLES)
@require_http_methods(["GET", "POST"])
def report(request, pk):
    q = quarantine_for_detail(request.user, pk)
    gate = release_gate(q.jurisdiction, on=q.starts_on)
    done = [
        name
        for name, value in (
            ("received_by_officer_on", q.report_received_by_officer_on),
            ("received_by_board_on", q.report_received_by_board_on),
        )
        if value
    ]
    form = ReportForm(
        request.POST or None,
        request.FILES or None,
        has_report=bool(q.report_veterinarian),
        recipients=gate.recipients,
        done=done,
    )
    if request.method == "POST" and form.is_valid():
        try:
            report_record(q, actor=request.user, **form.cleaned_data)
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("The veterinarian's report is recorded."))
            return redirect(q)
    return _page(
        request,
        "rabies/quarantines/report.html",
        {"q": q, "gate": gate, "applies": gate.kind == VETERINARIAN_REPORT},
        form,
    )


@role_required(*ACTING_ROLES)
@require_http_methods(["POST"])
def resolve(request, pk):
    q = quarantine_for_detail(request.user, pk)
    try:
        quarantine_resolve(q, actor=request.user, note=request.POST.get("note", ""))
    except Refused as exc:
        for check in exc.checks:
            messages.error(request, str(check))
    else:
        messages.success(request, _("Recorded: the question is answered."))
    return redirect(q)


@role_required(*ACTING_ROLES)
@require_http_methods(["GET", "POST"])
def release(request, pk):
    q = quarantine_for_detail(request.user, pk)
    refusal = None
    if request.method == "POST":
        try:
            quarantine_release(q, actor=request.user)
        except Refused as exc:
            refusal = exc
        else:
            messages.success(request, _("Released from quarantine."))
            return redirect(q)
    items = release_checklist(q, on=timezone.localdate())
    return render(
        request,
        "rabies/quarantines/release.html",
        {"q": q, "items": items, "lacking": missing(items), "refusal": refusal},
        status=400 if refusal else 200,
    )


urlpatterns = [
    path("bites/<int:pk>/confine/", order, name="quarantine_order"),
    path("quarantines/<int:pk>/inspect/", inspect, name="quarantine_inspect"),
    path("quarantines/<int:pk>/facility/", to_facility, name="quarantine_facility"),
    path("quarantines/<int:pk>/exam/", exam, name="quarantine_exam"),
    path("quarantines/<int:pk>/permission/", permission, name="quarantine_permission"),
    path("quarantines/<int:pk>/report/", report, name="quarantine_report"),
    path("quarantines/<int:pk>/release/", release, name="quarantine_release"),
    path("quarantines/<int:pk>/resolve/", resolve, name="quarantine_resolve"),
]
SECTIONS = [
    ("rabies.bite_detail", "confinement", bite_confinement_section, 40),
    ("rabies.quarantine_detail", "summary", quarantine_summary_section, 40),
    ("rabies.quarantine_detail", "inspections", quarantine_inspections_section, 50),
    ("rabies.quarantine_detail", "release", quarantine_release_section, 60),
]
