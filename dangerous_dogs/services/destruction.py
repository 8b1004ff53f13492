"""Summary destruction (Glencoe 701 Subd. 17; DD-28, C38; Appendix D G26, G27).

Notwithstanding the Subd. 15 procedure, an officer with reasonable cause to believe a dog
or cat is a clear and immediate danger, because it is afflicted with rabies ("inflicted",
G26) or has a clearly demonstrated vicious nature (substantial or great bodily harm on a
human without provocation), may summarily destroy it, **only after** the owner had the
opportunity for a hearing before an impartial decision maker. The record therefore holds
the ground, the facts, the hearing opportunity (notice date, hearing date, the decision
maker) and the decision (a ``notices.Decision``); ``destroyed_on`` is set only after a
decision to destroy. Linked to the dog's case when there is one (the case then closes as
destroyed). North Branch's ordinance has no such power (DD-29): refused.
"""

from dataclasses import dataclass
from datetime import date, datetime

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from dangerous_dogs.models import (
    DesignationCase,
    DestructionGround,
    SummaryDestruction,
)
from kernel.checks import refuse_if_future, refuse_unless_serves
from licensing.models import Animal
from licensing.models.registry import Species
from notices.models import Decision, DecisionOutcome
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import rule_citation

from .common import procedure_or_refuse

DECISION_KIND = "dd_summary_destruction"
DESTROY, SPARE = "destroy", "spare"
OUTCOMES = {DESTROY: DecisionOutcome.ORDERED, SPARE: DecisionOutcome.DENIED}


def destruction_citation(jurisdiction) -> str:
    return rule_citation(jurisdiction, "DD-28")


@dataclass(frozen=True)
class DestructionHearing:
    """The reasonable cause, the owner's hearing opportunity and the impartial decision
    (the form's cleaned data): blank dates and names are refused, each at its field."""

    ground: str
    facts: str
    hearing_notice_on: date | None
    hearing_on: date | None
    decision_maker: str
    outcome: str
    decided_on: date | None
    reasons: str
    officer_name: str = ""


@refusing()
@transaction.atomic
def summary_destruction_record(
    *,
    animal: Animal,
    hearing: DestructionHearing,
    actor,
    case: DesignationCase | None = None,
    now: datetime | None = None,
) -> SummaryDestruction:
    """Record the reasonable cause, the hearing opportunity and the impartial decision."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    jurisdiction = animal.jurisdiction
    refuse_unless_serves(actor, jurisdiction)
    procedure_or_refuse(jurisdiction, on=today)
    citation = destruction_citation(jurisdiction)
    _check_subject(animal, case, citation)
    missing = _missing(hearing, citation)
    if missing:
        raise Refused(missing)
    _check_dates(hearing, today, citation)
    decision = Decision.objects.create(
        jurisdiction=jurisdiction,
        subject_type=ContentType.objects.get_for_model(Animal),
        subject_id=animal.pk,
        kind=DECISION_KIND,
        outcome=OUTCOMES[hearing.outcome],
        decided_by_name=hearing.decision_maker.strip(),
        decided_by_capacity=str(_("Impartial decision maker")),
        decided_on=hearing.decided_on,
        reasons=hearing.reasons.strip(),
        evidence=hearing.facts.strip(),
        citation=citation,
        recorded_by=actor,
    )
    record = SummaryDestruction.objects.create(
        jurisdiction=jurisdiction,
        animal=animal,
        case=case,
        ground=hearing.ground,
        facts=hearing.facts.strip(),
        hearing_notice_on=hearing.hearing_notice_on,
        hearing_on=hearing.hearing_on,
        decision_maker=hearing.decision_maker.strip(),
        decision=decision,
        officer_name=hearing.officer_name.strip(),
        recorded_by=actor,
    )
    _record_decided(record, citation, actor=actor, now=now)
    return record


def _check_subject(animal: Animal, case, citation: str) -> None:
    if case is not None and case.animal_id != animal.pk:
        raise Refused.because(_("Case"), _("The case is about another animal."), citation)
    if animal.species not in (Species.DOG, Species.CAT):
        raise Refused.because(
            _("Animal"), _("Summary destruction applies to a dog or a cat."), citation
        )


def _missing(hearing: DestructionHearing, citation: str) -> list:
    """Every part of the record that is blank, next to its field (no destruction without
    the hearing opportunity and the decision)."""
    needed = {
        "facts": (_("Facts"), _("State the facts that give reasonable cause.")),
        "hearing_notice_on": (
            _("Hearing notice"),
            _("Record when the owner was given notice of the hearing: no destruction without it."),
        ),
        "hearing_on": (
            _("Hearing"),
            _("Record the date of the hearing held or offered: no destruction without it."),
        ),
        "decision_maker": (_("Decision maker"), _("Name the impartial decision maker.")),
        "decided_on": (_("Decided on"), _("Record the date of the decision.")),
        "reasons": (_("Reasons"), _("Give the decision maker's reasons.")),
    }
    missing = []
    if hearing.ground not in DestructionGround.values:
        missing.append((_("Ground"), _("Choose rabies or vicious nature."), "ground"))
    for field, (label, message) in needed.items():
        value = getattr(hearing, field)
        if not (value.strip() if isinstance(value, str) else value):
            missing.append((label, message, field))
    if hearing.outcome not in OUTCOMES:
        missing.append((_("Decision"), _("Record the decision."), "outcome"))
    return [
        Refused.because(label, message, citation, field=field).checks[0]
        for label, message, field in missing
    ]


def _check_dates(hearing: DestructionHearing, today: date, citation: str) -> None:
    """Notice, then the hearing, then the decision; none in the future."""
    refuse_if_future(
        hearing.hearing_notice_on, _("Hearing notice"), field="hearing_notice_on", today=today
    )
    refuse_if_future(hearing.decided_on, _("Decided on"), field="decided_on", today=today)
    if hearing.hearing_on < hearing.hearing_notice_on:
        raise Refused.because(
            _("Hearing"),
            _("The hearing cannot come before the notice of it (%(date)s).")
            % {"date": date_format(hearing.hearing_notice_on)},
            citation,
            field="hearing_on",
        )
    if hearing.decided_on < hearing.hearing_on:
        raise Refused.because(
            _("Decided on"),
            _("The decision comes after the hearing opportunity (%(date)s).")
            % {"date": date_format(hearing.hearing_on)},
            citation,
            field="decided_on",
        )


def _record_decided(record: SummaryDestruction, citation: str, *, actor, now) -> None:
    summary = _(
        "Summary destruction: %(ground)s; hearing on %(hearing)s before %(who)s; %(outcome)s "
        "(%(section)s)"
    ) % {
        "ground": record.get_ground_display(),
        "hearing": date_format(record.hearing_on),
        "who": record.decision_maker,
        "outcome": record.decision.get_outcome_display().lower(),
        "section": citation,
    }
    Event.record(
        "dangerous_dogs.summary_destruction.decided",
        record.case or record.animal,
        actor=actor,
        at=now,
        summary=summary,
        data={"record": record.pk, "decision": record.decision.pk},
    )


@refusing()
@transaction.atomic
def summary_destruction_done(
    *, record: SummaryDestruction, destroyed_on: date, actor, now: datetime | None = None
) -> SummaryDestruction:
    """The dog or cat was destroyed: only after a decision to destroy; recorded once."""
    now = now or timezone.now()
    record = (
        SummaryDestruction.objects.select_for_update(of=("self",))
        .select_related("jurisdiction", "decision", "case", "animal")
        .get(pk=record.pk)
    )
    refuse_unless_serves(actor, record.jurisdiction)
    citation = destruction_citation(record.jurisdiction)
    if record.destroyed_on:
        raise Refused.because(
            _("Destroyed on"),
            _("Already recorded: %(date)s.") % {"date": date_format(record.destroyed_on)},
            citation,
        )
    if record.decision is None or record.decision.outcome != DecisionOutcome.ORDERED:
        raise Refused.because(
            _("Destroyed on"),
            _("No decision to destroy is recorded after a hearing opportunity."),
            citation,
        )
    refuse_if_future(
        destroyed_on, _("Destroyed on"), field="destroyed_on", today=timezone.localdate(now)
    )
    if destroyed_on < record.decision.decided_on:
        raise Refused.because(
            _("Destroyed on"),
            _("Not before the decision (%(date)s).")
            % {"date": date_format(record.decision.decided_on)},
            citation,
            field="destroyed_on",
        )
    record.destroyed_on = destroyed_on
    record.save(update_fields=["destroyed_on"])
    summary = _("Summarily destroyed on %(date)s (%(section)s)") % {
        "date": date_format(destroyed_on),
        "section": citation,
    }
    case = record.case
    if case is not None and case.may("destroy_summarily"):
        case = DesignationCase.objects.select_for_update(of=("self",)).get(pk=case.pk)
        case.closed_on = destroyed_on
        case.closing_note = str(summary)[:300]
        case.apply(
            "destroy_summarily",
            actor=actor,
            at=now,
            summary=summary,
            citation=citation,
            data={"record": record.pk},
            fields=["closed_on", "closing_note"],
        )
    else:
        Event.record(
            "dangerous_dogs.summary_destruction.done",
            case or record.animal,
            actor=actor,
            at=now,
            summary=summary,
            data={"record": record.pk},
        )
    return record
