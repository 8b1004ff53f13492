"""A contested case on the page: the City Attorney's review, the Review Panel's hearing,
its findings and their distribution (DD-05..DD-08, MN-08; C26, C27, C28).

Officers and administrators record what the City Attorney and the panel decided (they are
not accounts, Appendix G 6); every staff member sees it on the case page. Thin views: the
role, the case within the user's cities, a form, one service call; a refusal goes next
to its field with its section, nothing typed is lost.
"""

from django.contrib import messages
from django.contrib.contenttypes.models import ContentType
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.translation import gettext as _

from base.access import get_in_jurisdiction, role_required
from base.forms import apply_service_errors
from base.roles import ADMINISTRATOR, OFFICER
from dangerous_dogs import forms_hearing as f
from dangerous_dogs.models import (
    Appeal,
    CaseStatus,
    DeclaredBy,
    DesignationCase,
    PanelHearing,
    PanelSeat,
)
from dangerous_dogs.selectors import Table, case_decisions, read_tables
from dangerous_dogs.services import attorney, findings, panel
from dangerous_dogs.services import hearing as svc
from notices.models import Decision, IssuedDocument, ServiceRecord
from notices.snapshots import thaw
from ordinance.refusals import Refused
from ordinance.rules import RuleUnavailable, rule_in_force

ACTORS = (OFFICER, ADMINISTRATOR)


# --- What the case page shows (sections 30 and 35) --------------------------------------


def _reached_hearing(case) -> bool:
    """Referred to the panel: a case dismissed came from the panel or the Council (a
    withdrawal is WITHDRAWN), a panel declaration says so."""
    return case.status in (CaseStatus.HEARING, CaseStatus.DISMISSED) or (
        case.declared_by == DeclaredBy.PANEL
    )


PART_B_TABLES = {
    "seats": Table(
        PanelSeat,
        lambda ref: PanelSeat.objects.filter(hearing__case=ref("pk")),
        ("hearing__scheduled_for", "hearing_id", "pk"),
        {
            "hearing": PanelHearing,
            "hearing__notice": IssuedDocument,
            "hearing__findings": IssuedDocument,
        },
    ),
    "service": Table(
        ServiceRecord,
        lambda ref: ServiceRecord.objects.filter(
            subject_type=ContentType.objects.get_for_model(DesignationCase), subject_id=ref("pk")
        ),
    ),
    "attorney": Table(Decision, case_decisions(attorney.ATTORNEY_REVIEW), ("decided_on", "pk")),
    "appeals": Table(
        Appeal,
        lambda ref: Appeal.objects.filter(case=ref("pk")),
        ("filed_on", "pk"),
        {"decision": Decision},
    ),
}


def part_b(case) -> dict:
    """The hearings (with their seats and documents), the service records, the City
    Attorney's decisions and the appeals of the case: one query, cached on the case."""
    cached = getattr(case, "_part_b", None)
    if cached is None:
        cached = case._part_b = read_tables(case, PART_B_TABLES)
    return cached


def case_hearings(case) -> list[PanelHearing]:
    """The case's hearings with their seats and documents (a hearing is never scheduled
    without its seats)."""
    tables = part_b(case)
    if "hearings" not in tables:
        hearings: dict[int, PanelHearing] = {}
        for seat in tables["seats"]:
            hearing = hearings.setdefault(seat.hearing_id, seat.hearing)
            hearing.case = case
            hearing.seat_list = [*getattr(hearing, "seat_list", []), seat]
        tables["hearings"] = list(hearings.values())
    return tables["hearings"]


def cached_hearings(request, case) -> list[PanelHearing]:
    return case_hearings(case)


def _hearing_facts(case, hearings) -> list[dict]:
    docs = {d for h in hearings for d in (h.notice_id, h.findings_id) if d}
    records = {}
    for r in part_b(case)["service"]:
        if r.document_id in docs:
            records.setdefault(r.document_id, []).append(r)
    facts = []
    for h in hearings:
        if h.findings:
            frozen = thaw(h.findings.snapshot.get("tally", {}))
            majority = {"text": frozen.get("rule", ""), "citation": frozen.get("citation")}
        else:
            frozen = thaw(h.notice.snapshot.get("rights", {})) if h.notice else {}
            majority = {
                "text": frozen.get("majority", ""),
                "citation": frozen.get("majority_citation"),
            }
        facts.append(
            {
                "hearing": h,
                "seats": h.seat_list,
                "tally": panel.hearing_tally(h, h.seat_list) if h.held_on else None,
                "majority": majority,
                "notice_service": records.get(h.notice_id, []),
                "distribution": records.get(h.findings_id, []),
            }
        )
    return facts


def attorney_section(request, *, case):
    reviewed = case.status == CaseStatus.WITHDRAWN or _reached_hearing(case)
    if not case.may("refer") and not reviewed:
        return None
    hearings = cached_hearings(request, case) if _reached_hearing(case) else []
    notice = hearings[0].notice if hearings else None
    referral = thaw(notice.snapshot.get("referral")) if notice else None
    if referral:  # frozen on the hearing notice: no query of its own
        return "dangerous_dogs/hearing/_attorney_section.html", {
            "case": case,
            "referral": referral,
            "decisions": [],
            "can_act": False,
        }
    decisions = part_b(case)["attorney"]
    if not decisions and not case.may("refer"):
        return None
    return "dangerous_dogs/hearing/_attorney_section.html", {
        "case": case,
        "decisions": decisions,
        "citation": attorney.attorney_citation(case.jurisdiction),
        "can_act": case.may("refer") and request.user.has_role(*ACTORS),
    }


def hearing_section(request, *, case):
    if not _reached_hearing(case):
        return None
    hearings = cached_hearings(request, case)
    facts = _hearing_facts(case, hearings)
    can_act = request.user.has_role(*ACTORS)
    return "dangerous_dogs/hearing/_section.html", {
        "case": case,
        "hearings": facts,
        "can_act": can_act,
        "next_step": _next_step(case, hearings) if can_act else "",
    }


SECTIONS = [
    ("attorney_review", attorney_section, 30),
    ("hearing", hearing_section, 35),
]


# --- The hearing page: the next step's form ---------------------------------------------


def _next_step(case, hearings) -> str:
    """The step the case is waiting for, on this page."""
    current = hearings[-1] if hearings else None
    if case.may("refer"):  # the City Attorney withdraws or refers
        return "review"
    if case.may("hold_hearing"):
        if current is None or current.held_on:
            return "schedule"
        return "record"
    if current is not None and current.findings_id:
        return "distribute"
    return ""


def _forms(case, hearing, jurisdiction, data=None, files=None, action=""):
    """Every form of the page, the posted one bound."""
    today = timezone.localdate()

    def bound(name):
        return data if action == name else None

    forms = {
        "review": f.AttorneyReviewForm(bound("review"), prefix="review"),
        "schedule": f.ScheduleForm(bound("schedule"), prefix="schedule"),
        "seats": None,
        "served": None,
        "record": None,
        "distribute": f.DistributeForm(bound("distribute"), prefix="distribute"),
        "received": f.ReceivedForm(bound("received"), prefix="received"),
    }
    if case.may("hold_hearing") and (hearing is None or hearing.held_on):
        members = panel.panel_rules(jurisdiction, on=today).members
        forms["seats"] = f.seat_formset(members)(bound("schedule"), prefix="seats")
    if hearing is not None and not hearing.held_on:
        methods = rule_in_force(jurisdiction, "dd_service_methods", on=today).value
        forms["served"] = f.NoticeServedForm(bound("served"), prefix="served", methods=methods)
        forms["record"] = f.RecordForm(bound("record"), prefix="record", seats=hearing.seat_list)
    return forms


def _route_errors(form, formset, refused: Refused) -> None:
    """A seat's check goes next to its row's field, the rest next to the form's."""
    rest = []
    for check in refused.checks:
        parts = check.field.split("-")
        if formset is not None and len(parts) == 3 and parts[0] == "seats":
            row, field = int(parts[1]), parts[2]
            if row < len(formset.forms) and field in formset.forms[row].fields:
                formset.forms[row].add_error(field, str(check))
                continue
        rest.append(check)
    apply_service_errors(form, Refused(rest)) if rest else None


def _seat_rows(formset) -> list[dict]:
    """The rows a person filled in (a blank row is no seat)."""
    rows = []
    for form in formset.forms:
        data = form.cleaned_data if hasattr(form, "cleaned_data") else {}
        if data.get("seat") or data.get("name"):
            rows.append(data)
    return rows


def _run(action, case, hearing, forms, user):
    form = forms[action]
    data = form.cleaned_data
    if action == "review":
        attorney.attorney_review(case=case, actor=user, **data)
    elif action == "schedule":
        svc.hearing_schedule(
            case=case,
            scheduled_for=data["scheduled_for"],
            place=data["place"],
            seats=_seat_rows(forms["seats"]),
            actor=user,
        )
    elif hearing is None:
        raise Refused.because(_("Hearing"), _("No hearing is scheduled."))
    elif action == "served":
        svc.hearing_notice_served(hearing=hearing, actor=user, **data)
    elif action == "record":
        facts = {k: v for k, v in data.items() if not k.startswith("vote_")}
        record = svc.HearingRecord(votes=form.votes(), **facts)
        svc.hearing_record(hearing=hearing, record=record, actor=user)
    elif action == "distribute":
        findings.findings_distribute(
            hearing=hearing,
            served=form.served(),
            owner_received_on=data["owner_received_on"],
            actor=user,
        )
    elif action == "received":
        findings.findings_received(
            hearing=hearing, received_on=data["owner_received_on"], actor=user
        )


@role_required(*ACTORS)
def hearing_page(request, pk):
    case = get_in_jurisdiction(
        DesignationCase.objects.select_related("jurisdiction", "animal", "owner"),
        request.user,
        pk=pk,
    )
    hearings = case_hearings(case)
    hearing = hearings[-1] if hearings else None
    action = request.POST.get("action", "") if request.method == "POST" else ""
    try:
        forms = _forms(case, hearing, case.jurisdiction, request.POST or None, None, action)
    except RuleUnavailable as exc:  # a blank the city has not set: say which, no 500
        messages.error(request, str(Refused.from_rule(exc)))
        return redirect(case.get_absolute_url())
    if request.method == "POST":
        form = forms.get(action)
        if form is None:
            messages.error(request, _("That step is not possible now."))
            return redirect("dangerous_dogs:hearing", pk=case.pk)
        seats = forms["seats"] if action == "schedule" else None
        valid = form.is_valid() and (seats is None or seats.is_valid())
        if valid:
            try:
                _run(action, case, hearing, forms, request.user)
            except Refused as refused:
                _route_errors(form, seats, refused)
            except RuleUnavailable as exc:
                apply_service_errors(form, Refused.from_rule(exc))
            else:
                messages.success(request, _("Recorded."))
                return redirect(case.get_absolute_url())
    return render(
        request,
        "dangerous_dogs/hearing/page.html",
        {
            "case": case,
            "hearing": hearing,
            "forms": forms,
            "step": action or _next_step(case, hearings),
            "facts": _hearing_facts(case, hearings),
            "received_open": bool(
                hearing
                and hearing.findings_id
                and case.declared_by == DeclaredBy.PANEL
                and case.declaration_received_on is None
            ),
        },
    )


urlpatterns = [
    path("cases/<int:pk>/hearing/", hearing_page, name="hearing"),
]
