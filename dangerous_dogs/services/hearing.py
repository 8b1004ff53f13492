"""The Review Panel's hearing of a contested case and its finding (Glencoe 701 Subd. 15(D),
(I); rules DD-06..DD-08, MN-08; Appendix B3; documents C27, C28).

The Mayor and the panel's members are not accounts (Appendix G 6): staff record the
panel's decision as a ``notices.Decision``, with its date, reasons and section. Before
the hearing: the City Attorney's review (``attorney``); who may sit and how the finding
is tallied from the members' votes (``panel``); the documents' contexts (``documents``);
after it, the findings' distribution (``findings``).
"""

from dataclasses import dataclass
from datetime import date, datetime

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from dangerous_dogs.models import (
    CaseStatus,
    DeclaredBy,
    DesignationCase,
    HearingFinding,
    PanelHearing,
    PanelSeat,
    Vote,
)
from kernel.checks import refuse_if_future, refuse_unless_serves
from notices.models import Decision, DecisionOutcome, ServiceMethod, ServiceRecord
from ordinance.models import Event
from ordinance.refusals import Check, Refused, refusing
from ordinance.rules import rule_citation, rule_in_force

from . import declaration
from .attorney import ATTORNEY_REVIEW
from .common import blanks, gathered, service_record
from .documents import findings_context, hearing_notice_context
from .panel import (
    PanelRules,
    Tally,
    panel_rules,
    seat_errors,
    tally,
)

PANEL_FINDING = "dd_panel_finding"
HEARING_NOTICE = "dd_hearing_notice"
FINDINGS = "dd_findings"
HEARING_NOTICE_TEMPLATE = "dangerous_dogs/hearing_notice.html"
FINDINGS_TEMPLATE = "dangerous_dogs/findings.html"


def panel_citation(jurisdiction) -> str:
    return rule_citation(jurisdiction, "DD-07")


def findings_citation(jurisdiction) -> str:
    return rule_citation(jurisdiction, "DD-08")


def _subject_filter(case) -> dict:
    return {
        "subject_type": ContentType.objects.get_for_model(DesignationCase),
        "subject_id": case.pk,
    }


# --- The panel and its hearing (C27, DD-06, DD-07, MN-08) -------------------------------


@refusing()
@transaction.atomic
def hearing_schedule(
    *,
    case: DesignationCase,
    scheduled_for: datetime,
    place: str,
    seats: list[dict],
    actor,
    now: datetime | None = None,
) -> PanelHearing:
    """Schedule the Review Panel's hearing with its seats and issue the owner's hearing
    notice (C27). Each seat: seat, name, appointed_by, substitute_for,
    substitution_reason, impartial."""
    now = now or timezone.now()
    case = (
        DesignationCase.objects.select_for_update(of=("self",))
        .select_related("jurisdiction", "animal", "owner__user")
        .get(pk=case.pk)
    )
    refuse_unless_serves(actor, case.jurisdiction)
    if not case.may("hold_hearing"):
        raise case.not_now(_("scheduling the hearing"))
    _check_none_pending(case)
    rules = panel_rules(case.jurisdiction, on=timezone.localdate(now))
    errors = seat_errors(seats, rules, case)
    errors[:0] = _schedule_errors(scheduled_for, place, now)
    if errors:
        raise Refused(errors)
    hearing = PanelHearing.objects.create(
        case=case, scheduled_for=scheduled_for, place=place.strip(), recorded_by=actor
    )
    made = PanelSeat.objects.bulk_create([_seat(hearing, s) for s in seats])
    hearing.notice = _issue_hearing_notice(hearing, made, rules, actor=actor, now=now)
    hearing.save(update_fields=["notice"])
    Event.record(
        "dangerous_dogs.hearing.scheduled",
        case,
        actor=actor,
        at=now,
        summary=_("Review Panel hearing scheduled for %(when)s at %(place)s (%(c)s)")
        % {
            "when": date_format(timezone.localtime(scheduled_for), "DATETIME_FORMAT"),
            "place": hearing.place,
            "c": panel_citation(case.jurisdiction),
        },
        data={"hearing": hearing.pk, "document": hearing.notice.pk, "seats": len(made)},
    )
    return hearing


def _check_none_pending(case) -> None:
    pending = case.hearings.filter(held_on__isnull=True).first()
    if pending is not None:
        raise Refused.because(
            _("Hearing"),
            _("A hearing is already scheduled for %(when)s.")
            % {"when": date_format(timezone.localtime(pending.scheduled_for), "DATETIME_FORMAT")},
            panel_citation(case.jurisdiction),
        )


def _schedule_errors(scheduled_for: datetime, place: str, now: datetime) -> list[Check]:
    errors = []
    if not (place or "").strip():
        errors.append(
            Check(str(_("Place")), "fail", str(_("Say where the hearing is held.")), "", "place")
        )
    if scheduled_for < now:
        message = str(_("The hearing cannot be scheduled in the past."))
        errors.append(Check(str(_("Hearing date")), "fail", message, "", "scheduled_for"))
    return errors


def _seat(hearing: PanelHearing, seat: dict) -> PanelSeat:
    return PanelSeat(
        hearing=hearing,
        seat=seat["seat"],
        name=seat["name"].strip(),
        appointed_by=(seat.get("appointed_by") or "").strip() or _("Mayor"),
        substitute_for=(seat.get("substitute_for") or "").strip(),
        substitution_reason=(seat.get("substitution_reason") or "").strip(),
        impartial=bool(seat.get("impartial")),
    )


def _issue_hearing_notice(hearing: PanelHearing, seats, rules: PanelRules, *, actor, now):
    from notices.services import document_issue

    case = hearing.case
    return document_issue(
        kind=HEARING_NOTICE,
        template=HEARING_NOTICE_TEMPLATE,
        context=hearing_notice_context(hearing, seats=seats, rules=rules, referral=_referral(case)),
        jurisdiction=case.jurisdiction,
        actor=actor,
        title=_("Notice of hearing before the Animal Control Review Panel"),
        number=case.number,
        subject=case,
        owner_user=case.owner.user,
        now=now,
    )


def _referral(case) -> dict | None:
    """The City Attorney's referral, frozen on the hearing notice (and shown from it)."""
    decision = (
        Decision.objects.filter(**_subject_filter(case), kind=ATTORNEY_REVIEW).order_by("pk").last()
    )
    if decision is None:
        return None
    return {
        "by": decision.decided_by_name,
        "on": decision.decided_on,
        "outcome": decision.get_outcome_display(),
        "evidence": decision.evidence,
        "reasons": decision.reasons,
        "citation": decision.citation,
    }


@refusing()
@transaction.atomic
def hearing_notice_served(
    *,
    hearing: PanelHearing,
    method: str,
    served_at: datetime,
    received_on: date | None,
    actor,
    served_to: str = "",
    now: datetime | None = None,
) -> ServiceRecord:
    """How the hearing notice reached the owner, and when they received it."""
    now = now or timezone.now()
    hearing = PanelHearing.objects.select_related(
        "case__jurisdiction", "case__owner", "notice"
    ).get(pk=hearing.pk)
    case = hearing.case
    refuse_unless_serves(actor, case.jurisdiction)
    _check_hearing_method(case, method, timezone.localdate(now))
    _check_notice_service(hearing, served_at, received_on, now)
    if method == ServiceMethod.POSTED and not served_to.strip():
        raise Refused.because(
            _("Served on or posted at"), _("Say where it was posted."), field="served_to"
        )
    owner = case.owner
    record = service_record(
        case,
        document=hearing.notice,
        method=method,
        served_at=served_at,
        served_to=served_to.strip() or f"{owner.name}, {owner.address}",
        received_on=received_on,
        actor=actor,
        posted_where=served_to.strip() if method == ServiceMethod.POSTED else "",
        result=_("Hearing notice served"),
    )
    received = _("; received %(d)s") % {"d": date_format(received_on)} if received_on else ""
    Event.record(
        "dangerous_dogs.hearing.notice_served",
        case,
        actor=actor,
        at=now,
        summary=_("Hearing notice served (%(how)s)%(received)s")
        % {"how": record.get_method_display().lower(), "received": received},
        data={"service_record": record.pk},
    )
    return record


def _check_hearing_method(case, method: str, today: date) -> None:
    methods = rule_in_force(case.jurisdiction, "dd_service_methods", on=today)
    if method not in methods.value:
        raise Refused.because(
            _("Method"),
            _("Serve it by one of: %(m)s.")
            % {"m": ", ".join(str(ServiceMethod(m).label).lower() for m in methods.value)},
            methods.citation,
            field="method",
        )


def _check_notice_service(hearing, served_at: datetime, received_on, now: datetime) -> None:
    if hearing.notice is None:
        raise Refused.because(_("Hearing notice"), _("No hearing notice was issued."))
    if ServiceRecord.objects.filter(document=hearing.notice).exists():
        raise Refused.because(_("Hearing notice"), _("Its service is recorded already."))
    refuse_if_future(served_at, _("Served at"), field="served_at", now=now)
    if served_at < hearing.notice.issued_at:
        raise Refused.because(
            _("Served at"), _("The notice was issued later than that."), field="served_at"
        )
    refuse_if_future(
        received_on, _("Received on"), field="received_on", today=timezone.localdate(now)
    )
    if received_on is not None and received_on < timezone.localdate(served_at):
        raise Refused.because(
            _("Received on"),
            _("The owner cannot have received it before it was served."),
            field="received_on",
        )


# --- The hearing's record and the finding (DD-07, DD-08) --------------------------------


@dataclass(frozen=True)
class HearingRecord:
    """What the hearing's record holds (the page's form): the day it was held, who and
    what was heard, each member's vote by seat id, the reasons, the ruling date (the
    hearing's, unless the panel ruled later)."""

    held_on: date
    votes: dict
    reasons: str
    witnesses: str = ""
    exhibits: str = ""
    owner_appeared: bool = False
    owner_evidence: str = ""
    ruled_on: date | None = None

    @property
    def ruling_date(self) -> date:
        return self.ruled_on or self.held_on

    def vote_of(self, seat: PanelSeat) -> str | None:
        return self.votes.get(seat.pk) or self.votes.get(str(seat.pk))


# What the record writes on the hearing's row, besides the decision and the findings.
RECORD_FIELDS = (
    "held_on",
    "witnesses",
    "exhibits",
    "owner_appeared",
    "owner_evidence",
    "finding",
    "reasons",
)


@refusing()
@transaction.atomic
def hearing_record(
    *, hearing: PanelHearing, record: HearingRecord, actor, now: datetime | None = None
) -> PanelHearing:
    """Record the hearing, each member's vote, the finding and its reasons; issue the
    written findings (C28) and put the designation in force or dismiss the case."""
    now = now or timezone.now()
    hearing = (
        PanelHearing.objects.select_for_update(of=("self",))
        .select_related("case__jurisdiction", "case__animal", "case__owner__user")
        .get(pk=hearing.pk)
    )
    case = hearing.case
    refuse_unless_serves(actor, case.jurisdiction)
    case.ensure("hold_hearing")
    if hearing.held_on is not None:
        raise Refused.because(
            _("Hearing"),
            _("This hearing was recorded already (%(date)s).")
            % {"date": date_format(hearing.held_on)},
        )
    seats = list(hearing.seats.all())
    errors = _record_errors(hearing, record, seats, timezone.localdate(now))
    if errors:
        raise Refused(errors)
    for seat in seats:
        seat.vote = record.vote_of(seat)
    PanelSeat.objects.bulk_update(seats, ["vote"])
    result = tally([s.vote for s in seats], noticed=case.designation)
    _write_record(hearing, record, result, actor)
    hearing.findings = _issue_findings(hearing, seats, result, record, actor=actor, now=now)
    hearing.save(update_fields=[*RECORD_FIELDS, "decision", "findings"])
    _record_hearing_event(hearing, seats, result, actor=actor, now=now)
    _rule(case, hearing, result, record.ruling_date, actor=actor, now=now)
    return hearing


def _finding_label(result: Tally) -> str:
    return str(HearingFinding(result.finding).label)


def _record_errors(hearing, record: HearingRecord, seats, today: date) -> list[Check]:
    """Every problem of the record at once, each next to its field."""
    jurisdiction = hearing.case.jurisdiction
    message = _("The panel's decision is in writing with its reasons: enter them.")
    errors = blanks(
        {"reasons": (record.reasons, message)}, _("Reasons"), findings_citation(jurisdiction)
    )
    with gathered(errors):
        refuse_if_future(record.held_on, _("Held on"), field="held_on", today=today)
        if record.held_on < timezone.localdate(hearing.scheduled_for):
            raise Refused.because(
                _("Held on"),
                _("The hearing was scheduled for %(date)s.")
                % {"date": timezone.localdate(hearing.scheduled_for)},
                field="held_on",
            )
    if record.ruling_date > today or record.ruling_date < record.held_on:
        message = str(_("The ruling is on or after the hearing and not in the future."))
        errors.append(Check(str(_("Ruling date")), "fail", message, "", "ruled_on"))
    for seat in seats:
        if record.vote_of(seat) not in Vote.values:
            message = _("Record %(name)s's vote (or that they did not vote).") % {"name": seat.name}
            errors.append(
                Check(seat.name, "fail", message, panel_citation(jurisdiction), f"vote_{seat.pk}")
            )
    return errors


def _write_record(hearing, record: HearingRecord, result: Tally, actor) -> None:
    """The hearing's record on its row, and the panel's decision (a ``Decision``)."""
    hearing.held_on = record.held_on
    hearing.witnesses = record.witnesses.strip()
    hearing.exhibits = record.exhibits.strip()
    hearing.owner_appeared = record.owner_appeared
    hearing.owner_evidence = record.owner_evidence.strip()
    hearing.finding = result.finding
    hearing.reasons = record.reasons.strip()
    case = hearing.case
    hearing.decision = Decision.objects.create(
        jurisdiction=case.jurisdiction,
        subject=case,
        kind=PANEL_FINDING,
        outcome=DecisionOutcome.UPHELD if result.upheld else DecisionOutcome.NOT_UPHELD,
        decided_by_name=str(_("Animal Control Review Panel")),
        decided_by_capacity=str(_("Review Panel")),
        decided_on=record.ruling_date,
        reasons=f"{_finding_label(result)}: {hearing.reasons}",
        evidence="\n".join(x for x in (hearing.witnesses, hearing.exhibits) if x),
        citation=panel_citation(case.jurisdiction),
        recorded_by=actor,
    )


def _issue_findings(hearing, seats, result: Tally, record: HearingRecord, *, actor, now):
    from notices.services import document_issue

    case = hearing.case
    rules = panel_rules(case.jurisdiction, on=record.held_on)
    return document_issue(
        kind=FINDINGS,
        template=FINDINGS_TEMPLATE,
        context=findings_context(
            hearing, seats=seats, result=result, rules=rules, ruled_on=record.ruling_date
        ),
        jurisdiction=case.jurisdiction,
        actor=actor,
        title=_("Findings of the Animal Control Review Panel"),
        number=case.number,
        subject=case,
        owner_user=case.owner.user,
        now=now,
    )


def _record_hearing_event(hearing, seats, result: Tally, *, actor, now) -> None:
    Event.record(
        "dangerous_dogs.hearing.recorded",
        hearing.case,
        actor=actor,
        at=now,
        summary=_("Review Panel hearing held %(date)s: %(finding)s (%(d)s of %(m)s members)")
        % {
            "date": date_format(hearing.held_on),
            "finding": _finding_label(result).lower(),
            "d": result.for_finding,
            "m": result.members,
        },
        data={
            "hearing": hearing.pk,
            "finding": result.finding,
            "votes": {str(s.pk): s.vote for s in seats},
            "decision": hearing.decision.pk,
            "document": hearing.findings.pk,
        },
    )


def _rule(case, hearing, result: Tally, ruled_on: date, *, actor, now) -> None:
    """The panel's finding moves the case: upheld, the designation is in force (the
    ruling starts the appeal clock); not upheld, the case is dismissed."""
    if result.upheld:
        declaration.declare(
            case,
            designation=result.finding,
            by=DeclaredBy.PANEL,
            on=ruled_on,
            document=hearing.findings,
            actor=actor,
            at=now,
            citation=findings_citation(case.jurisdiction),
        )
        return
    citation = panel_citation(case.jurisdiction)
    case.closed_on = ruled_on
    case.closing_note = _("Not upheld by the Review Panel.")
    case.apply(
        "hold_hearing",
        to=CaseStatus.DISMISSED,
        actor=actor,
        at=now,
        summary=_("Not upheld by the Review Panel on %(date)s (%(c)s)")
        % {"date": date_format(ruled_on), "c": citation},
        citation=citation,
        data={"hearing": hearing.pk},
        fields=["closed_on", "closing_note"],
    )
