"""The notice stage on the case page (Appendix B3 top half; C24, C25, C29).

Four sections (orders 10-29): the investigation, the notice of intent with its service
and receipt, the contest or default, the declaration. Officers and administrators see a
form for the next step; each posts to its own URL and, refused, re-renders the notice
stage page with the bound form and the error next to its field (status 400).
"""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import path
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from base.access import get_in_jurisdiction, role_required
from base.forms import apply_service_errors
from base.roles import ADMINISTRATOR, CLERK, OFFICER
from dangerous_dogs.forms_notice import (
    ContestForm,
    DeclarationReceivedForm,
    LateContestForm,
    ServedForm,
)
from dangerous_dogs.models import CaseStatus, DeclaredBy, DesignationCase
from dangerous_dogs.services import cases as svc
from dangerous_dogs.services import contest
from dangerous_dogs.services.declaration import declaration_received
from dangerous_dogs.services.documents import exemption_rows
from notices.models import ServiceMethod
from ordinance.refusals import Refused
from ordinance.rules import RuleUnavailable, rule_citation, rules_in_force

VIEWERS = (CLERK, OFFICER, ADMINISTRATOR)
ACTORS = (OFFICER, ADMINISTRATOR)


def _now_local():
    return timezone.localtime().replace(second=0, microsecond=0)


def _may_act(request) -> bool:
    return request.user.has_role(*ACTORS)


def _bound(bound, name):
    return bound[1] if bound and bound[0] == name else None


# --- Section providers ------------------------------------------------------------------


def investigation_section(request, *, case, bound=None):
    if not request.user.has_role(*VIEWERS):
        return None
    return "dangerous_dogs/cases/_investigation.html", {
        "case": case,
        "exemptions": exemption_rows(case),
        "definition_section": rule_citation(case.jurisdiction, "DD-02"),
        "exemption_section": rule_citation(case.jurisdiction, "DD-26"),
    }


def notice_section(request, *, case, bound=None):
    if not request.user.has_role(*VIEWERS):
        return None
    if case.status == CaseStatus.EXEMPT:
        return "dangerous_dogs/notices/_exempt.html", {
            "case": case,
            "exemption_section": rule_citation(case.jurisdiction, "DD-26"),
        }
    today = timezone.localdate()
    records = list(svc.service_records(case)) if case.notice_id else []
    rules = rules_in_force(case.jurisdiction, ["dd_contest_days", "dd_service_methods"], on=today)
    can_act = _may_act(request)
    served_form = None
    if can_act and case.notice_out:
        served_form = _bound(bound, "served") or ServedForm(
            methods=rules["dd_service_methods"].value,
            initial={"method": ServiceMethod.PERSONAL, "served_at": _now_local()},
        )
    days_left = (case.contest_deadline - today).days if case.contest_deadline else None
    return "dangerous_dogs/notices/_notice.html", {
        "case": case,
        "records": records,
        "contest_rule": rules["dd_contest_days"],
        "notice_section": rule_citation(case.jurisdiction, "DD-03"),
        "can_issue": can_act and case.may("issue_notice"),
        "served_form": served_form,
        "days_left": days_left,
        "errors": _bound(bound, "issue") or (),
    }


def contest_section(request, *, case, bound=None):
    if not request.user.has_role(*VIEWERS) or case.notice_received_on is None:
        return None
    can_act = _may_act(request)
    pending = contest.late_contest_pending(case)
    contest_form = late_form = None
    if can_act and case.may("contest"):
        if case.contest_received_on is None:
            contest_form = _bound(bound, "contest") or ContestForm(
                initial={"received_on": timezone.localdate(), "in_writing": True}
            )
        elif pending:
            late_form = _bound(bound, "late") or LateContestForm(
                initial={"decided_on": timezone.localdate()}
            )
    return "dangerous_dogs/notices/_contest.html", {
        "case": case,
        "late_pending": pending,
        "contest_form": contest_form,
        "late_form": late_form,
        "default_section": rule_citation(case.jurisdiction, "DD-09"),
    }


def declaration_section(request, *, case, bound=None):
    if not request.user.has_role(*VIEWERS):
        return None
    by_default = case.may("declare") or case.declared_by == DeclaredBy.DEFAULT
    if not by_default:
        return None
    can_act = _may_act(request)
    received_form = None
    if can_act and case.status == CaseStatus.DECLARED and case.declaration_received_on is None:
        received_form = _bound(bound, "received") or DeclarationReceivedForm(
            initial={"received_on": timezone.localdate()}
        )
    return "dangerous_dogs/notices/_declaration.html", {
        "case": case,
        "can_issue": can_act and case.may("declare"),
        "received_form": received_form,
        "default_section": rule_citation(case.jurisdiction, "DD-09"),
        "errors": _bound(bound, "declare") or (),
    }


SECTIONS = [
    ("investigation", investigation_section, 10),
    ("notice_of_intent", notice_section, 20),
    ("contest_default", contest_section, 24),
    ("declaration", declaration_section, 28),
]


# --- The notice-stage page and its actions ----------------------------------------------


def _case(request, pk) -> DesignationCase:
    return get_in_jurisdiction(
        DesignationCase.objects.select_related(
            "jurisdiction", "animal", "owner", "notice", "declaration"
        ),
        request.user,
        pk=pk,
    )


def _page(request, case, *, bound=None, status=200):
    found = (provider(request, case=case, bound=bound) for _name, provider, _order in SECTIONS)
    parts = [
        render_to_string(template, values, request=request)
        for template, values in (s for s in found if s is not None)
    ]
    return render(
        request,
        "dangerous_dogs/notices/stage.html",
        {"case": case, "sections": mark_safe("".join(parts))},  # each part autoescaped
        status=status,
    )


@role_required(*VIEWERS)
def notice_stage(request, pk):
    return _page(request, _case(request, pk))


def _done(request, case, message):
    messages.success(request, message)
    return redirect("dangerous_dogs:case_detail", case.pk)


@role_required(*ACTORS)
@require_POST
def notice_issue(request, pk):
    case = _case(request, pk)
    try:
        document = svc.notice_issue(case=case, actor=request.user)
    except Refused as exc:
        return _page(request, case, bound=("issue", [str(c) for c in exc.checks]), status=400)
    return _done(
        request,
        case,
        _("Notice of intent %(n)s issued; print it from Documents and record its service.")
        % {"n": document.number},
    )


@role_required(*ACTORS)
@require_POST
def notice_served(request, pk):
    case = _case(request, pk)
    methods = _methods(case)
    form = ServedForm(request.POST, methods=methods)
    if form.is_valid():
        try:
            svc.notice_served(
                case=case, actor=request.user, service=svc.NoticeService(**form.cleaned_data)
            )
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            return _done(request, case, _("Service recorded."))
    return _page(request, case, bound=("served", form), status=400)


def _methods(case):
    try:
        rules = rules_in_force(case.jurisdiction, ["dd_service_methods"], on=timezone.localdate())
    except RuleUnavailable:
        return ()
    return rules["dd_service_methods"].value


@role_required(*ACTORS)
@require_POST
def contest_received(request, pk):
    case = _case(request, pk)
    form = ContestForm(request.POST)
    if form.is_valid():
        try:
            contest.contest_received(case=case, actor=request.user, **form.cleaned_data)
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            if case.status == CaseStatus.CONTESTED:
                return _done(request, case, _("Request for a hearing recorded, in time."))
            return _done(request, case, _("The request is late: a person decides."))
    return _page(request, case, bound=("contest", form), status=400)


@role_required(*ACTORS)
@require_POST
def late_contest_decide(request, pk):
    case = _case(request, pk)
    form = LateContestForm(request.POST)
    if form.is_valid():
        try:
            contest.late_contest_decide(case=case, actor=request.user, **form.cleaned_data)
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            return _done(request, case, _("Decision recorded."))
    return _page(request, case, bound=("late", form), status=400)


@role_required(*ACTORS)
@require_POST
def declaration_issue(request, pk):
    case = _case(request, pk)
    try:
        svc.declaration_issue(case=case, actor=request.user)
    except Refused as exc:
        return _page(request, case, bound=("declare", [str(c) for c in exc.checks]), status=400)
    return _done(request, case, _("Declaration issued; print it from Documents and serve it."))


@role_required(*ACTORS)
@require_POST
def declaration_receipt(request, pk):
    case = _case(request, pk)
    form = DeclarationReceivedForm(request.POST)
    if form.is_valid():
        try:
            declaration_received(
                case=case,
                received_on=form.cleaned_data["received_on"],
                actor=request.user,
                at=timezone.now(),
                today=timezone.localdate(),
            )
        except Refused as exc:
            apply_service_errors(form, exc)
        else:
            return _done(request, case, _("The owner's receipt of the declaration is recorded."))
    return _page(request, case, bound=("received", form), status=400)


urlpatterns = [
    path("cases/<int:pk>/notice/", notice_stage, name="notice_stage"),
    path("cases/<int:pk>/notice/issue/", notice_issue, name="notice_issue"),
    path("cases/<int:pk>/notice/served/", notice_served, name="notice_served"),
    path("cases/<int:pk>/contest/", contest_received, name="contest_received"),
    path("cases/<int:pk>/contest/late/", late_contest_decide, name="contest_late_decide"),
    path("cases/<int:pk>/declaration/issue/", declaration_issue, name="declaration_issue"),
    path(
        "cases/<int:pk>/declaration/received/",
        declaration_receipt,
        name="declaration_received",
    ),
]
