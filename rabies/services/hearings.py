"""The Hearing Examiner's proceeding (Glencoe 701 Subd. 21(C), 22(A), 22(C)(2); C47).

One proceeding for the three places the ordinance calls for it: a rabies suspect other
than a dog, cat or ferret (21(C)), and an exposed animal whose owner does not comply with
its quarantine (22(A), 22(C)(2)). The steps: notice to the owner if known (a PDF), then a
hearing or the owner's signed waiver, then the decision with the factors the Examiner may
weigh. Euthanasia is never recorded before a decision (RAB-22): ``hearing_decide`` is the
only way to an outcome, and it refuses until a hearing was held or waived.

Callers (the bite report's 21(C) path, the exposure's non-compliance) open the proceeding
with their record as ``subject=`` and act on the outcome themselves.
"""

from dataclasses import dataclass
from datetime import date, datetime

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from kernel.checks import refuse_if_future, refuse_unless_serves
from notices.models import Decision, DecisionOutcome
from notices.services import document_issue
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from rabies.models import BiteReport, ExaminerHearing, Exposure, HearingOutcome

OUTCOMES = {
    HearingOutcome.EUTHANIZE_AND_TEST: DecisionOutcome.ORDERED,
    HearingOutcome.EUTHANIZE: DecisionOutcome.ORDERED,
    HearingOutcome.RELEASE: DecisionOutcome.DENIED,
    HearingOutcome.CONTINUE: DecisionOutcome.DENIED,
}


def _subject(hearing: ExaminerHearing):
    return hearing.bite_report or hearing.exposure


def _animal_lines(subject) -> dict:
    animal = getattr(subject, "animal", None)
    if animal is not None:
        return {
            "name": animal.name,
            "species": animal.get_species_display(),
            "breed": animal.breed,
            "color": animal.color,
            "owner": {"name": animal.owner.name, "address": animal.owner.address},
        }
    return {
        "name": "",
        "species": getattr(subject, "biter_species", ""),
        "breed": "",
        "color": "",
        "owner": {
            "name": getattr(subject, "biter_owner_name", ""),
            "address": getattr(subject, "biter_owner_address", ""),
        },
    }


@dataclass(frozen=True)
class Notice:
    """Whom the notice goes to and the hearing it names: the form's fields."""

    owner_known: bool = True
    scheduled_for: datetime | None = None
    place: str = ""


def _check_notice(notice: Notice, citation: str, now: datetime) -> None:
    if notice.owner_known and notice.scheduled_for is None:
        raise Refused.because(
            _("Hearing"),
            _("Give the hearing's date and time for the notice to the owner."),
            citation,
            field="scheduled_for",
        )
    if notice.scheduled_for is not None and notice.scheduled_for < now:
        raise Refused.because(
            _("Hearing"), _("The hearing cannot be in the past."), citation, field="scheduled_for"
        )


def _notice_context(hearing: ExaminerHearing, subject, grounds: str, now: datetime) -> dict:
    animal = _animal_lines(subject)
    return {
        "record": {"number": subject.number, "kind": str(subject.KIND)},
        "animal": animal,
        "owner": animal["owner"],
        "grounds": grounds,
        "scheduled_for": hearing.scheduled_for,
        "place": hearing.place,
        "section": hearing.citation,
        "issued_on": timezone.localdate(now),
    }


def _issue_notice(hearing: ExaminerHearing, subject, grounds: str, *, actor, now):
    return document_issue(
        kind="rabies_hearing_notice",
        template="rabies/hearing_notice.html",
        context=_notice_context(hearing, subject, grounds, now),
        jurisdiction=subject.jurisdiction,
        actor=actor,
        title=str(_("Notice of hearing before the Hearing Examiner")),
        number=subject.number,
        subject=hearing,
        now=now,
    )


@refusing()
@transaction.atomic
def hearing_open(
    *,
    subject,
    actor,
    citation: str,
    grounds: str,
    notice: Notice = Notice(),
    now: datetime | None = None,
) -> ExaminerHearing:
    """Open the proceeding on ``subject`` (a bite report or an exposure case); with a known
    owner, issue the notice (C47) naming the hearing's date and place, the grounds, the
    factors and the right to waive."""
    now = now or timezone.now()
    refuse_unless_serves(actor, subject.jurisdiction)
    _check_notice(notice, citation, now)
    hearing = ExaminerHearing.objects.create(
        jurisdiction=subject.jurisdiction,
        bite_report=subject if isinstance(subject, BiteReport) else None,
        exposure=subject if isinstance(subject, Exposure) else None,
        owner_known=notice.owner_known,
        scheduled_for=notice.scheduled_for,
        place=notice.place.strip(),
        citation=citation,
        recorded_by=actor,
    )
    if notice.owner_known:
        hearing.notice = _issue_notice(hearing, subject, grounds, actor=actor, now=now)
        hearing.save(update_fields=["notice"])
    Event.record(
        "rabies.hearing.opened",
        subject,
        actor=actor,
        at=now,
        summary=_("Hearing Examiner proceeding opened (%(c)s)") % {"c": citation},
        data={"hearing": hearing.pk, "scheduled_for": str(notice.scheduled_for or "")},
    )
    return hearing


@refusing()
@transaction.atomic
def hearing_waived(
    *, hearing: ExaminerHearing, actor, waived_on: date, waiver_file=None, now=None
) -> ExaminerHearing:
    """The owner waived the hearing in writing (21(C), 22(A), 22(C)(2))."""
    now = now or timezone.now()
    refuse_unless_serves(actor, hearing.jurisdiction)
    if hearing.decided or hearing.held_on or hearing.waived_on:
        raise Refused.because(
            _("Hearing"), _("The hearing was already held, waived or decided."), hearing.citation
        )
    refuse_if_future(waived_on, _("Waived on"), field="waived_on", today=timezone.localdate(now))
    if not waiver_file:
        raise Refused.because(
            _("Waiver"),
            _("Attach the owner's signed waiver."),
            hearing.citation,
            field="waiver_file",
        )
    hearing.waived_on, hearing.waiver_file = waived_on, waiver_file
    hearing.save(update_fields=["waived_on", "waiver_file"])
    Event.record(
        "rabies.hearing.waived",
        _subject(hearing),
        actor=actor,
        at=now,
        summary=_("The owner waived the hearing on %(d)s") % {"d": date_format(waived_on)},
        data={"hearing": hearing.pk},
    )
    return hearing


@dataclass(frozen=True)
class ExaminerDecision:
    """The Hearing Examiner's decision as recorded: the form's fields (C47)."""

    examiner_name: str
    decided_on: date
    reasons: str
    held_on: date | None = None
    factor_species: str = ""
    factor_circumstances: str = ""
    factor_epidemiology: str = ""
    factor_shedding: str = ""

    @property
    def factors(self) -> tuple[str, ...]:
        return (
            self.factor_species,
            self.factor_circumstances,
            self.factor_epidemiology,
            self.factor_shedding,
        )


def _check_decision(hearing: ExaminerHearing, d: ExaminerDecision, today: date) -> None:
    """After a hearing held on ``held_on`` or the owner's waiver, never before (RAB-22)."""
    if d.held_on is None and hearing.waived_on is None and hearing.owner_known:
        raise Refused.because(
            _("Hearing"),
            _("Record the hearing's date, or the owner's signed waiver, before the decision."),
            hearing.citation,
            field="held_on",
        )
    refuse_if_future(d.held_on, _("Held on"), field="held_on", today=today)
    refuse_if_future(d.decided_on, _("Decided on"), field="decided_on", today=today)
    if d.held_on and d.decided_on < d.held_on:
        raise Refused.because(
            _("Decided on"), _("The decision cannot come before the hearing."), field="decided_on"
        )
    if not d.examiner_name.strip() or not d.reasons.strip():
        raise Refused.because(
            _("Decision"),
            _("Name the Hearing Examiner and give the reasons."),
            hearing.citation,
            field="reasons" if d.examiner_name.strip() else "examiner_name",
        )


def _decision_record(hearing, subject, outcome: str, d: ExaminerDecision, actor) -> Decision:
    return Decision.objects.create(
        jurisdiction=hearing.jurisdiction,
        subject_type=ContentType.objects.get_for_model(type(subject)),
        subject_id=subject.pk,
        kind="rabies_hearing",
        outcome=OUTCOMES[HearingOutcome(outcome)],
        decided_by_name=d.examiner_name.strip(),
        decided_by_capacity=str(_("Hearing Examiner")),
        decided_on=d.decided_on,
        reasons=d.reasons.strip(),
        evidence="\n".join(f for f in d.factors if f),
        citation=hearing.citation,
        recorded_by=actor,
    )


@refusing()
@transaction.atomic
def hearing_decide(
    *,
    hearing: ExaminerHearing,
    actor,
    outcome: str,
    allowed=tuple(HearingOutcome),
    now: datetime | None = None,
    **decision,
) -> ExaminerHearing:
    """Record the Hearing Examiner's decision (``decision``: the fields of
    ``ExaminerDecision``): after a hearing or the owner's waiver, never before; the caller
    acts on the outcome."""
    now = now or timezone.now()
    refuse_unless_serves(actor, hearing.jurisdiction)
    hearing = ExaminerHearing.objects.select_for_update().get(pk=hearing.pk)
    if hearing.decided:
        raise Refused.because(
            _("Hearing"), _("The decision is already recorded."), hearing.citation
        )
    if outcome not in allowed:
        raise Refused.because(
            _("Decision"), _("Choose one of the decisions offered."), field="outcome"
        )
    d = ExaminerDecision(**decision)
    _check_decision(hearing, d, timezone.localdate(now))
    subject = _subject(hearing)
    hearing.decision = _decision_record(hearing, subject, outcome, d, actor)
    hearing.held_on, hearing.examiner_name = d.held_on, d.examiner_name.strip()
    hearing.factor_species, hearing.factor_circumstances = d.factor_species, d.factor_circumstances
    hearing.factor_epidemiology, hearing.factor_shedding = d.factor_epidemiology, d.factor_shedding
    hearing.outcome = outcome
    hearing.save()
    Event.record(
        "rabies.hearing.decided",
        subject,
        actor=actor,
        at=now,
        summary=_("Hearing Examiner %(name)s: %(outcome)s")
        % {"name": hearing.examiner_name, "outcome": hearing.get_outcome_display()},
        data={"hearing": hearing.pk, "outcome": outcome},
    )
    return hearing
