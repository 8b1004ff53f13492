"""The Hearing Examiner's proceeding (Glencoe 701 Subd. 21(C), 22(A), 22(C)(2); C47).

One proceeding for the three places the ordinance calls for it: a rabies suspect other
than a dog, cat or ferret (21(C)), and an exposed animal whose owner does not comply with
its quarantine (22(A), 22(C)(2)). The steps: notice to the owner if known (a PDF), then a
hearing or the owner's signed waiver, then the decision with the factors the Examiner may
weigh. Euthanasia is never recorded before a decision (RAB-22): ``hearing_decide`` is the
only way to an outcome, and it refuses until a hearing was held or waived.

Callers (the bite report's 21(C) path, the exposure's non-compliance) open the proceeding
with their record as ``bite_report=`` or ``exposure=`` and act on the outcome themselves.
"""

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
from rabies.models import ExaminerHearing, HearingOutcome

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


@refusing()
@transaction.atomic
def hearing_open(
    *,
    actor,
    citation: str,
    grounds: str,
    bite_report=None,
    exposure=None,
    owner_known: bool = True,
    scheduled_for: datetime | None = None,
    place: str = "",
    now: datetime | None = None,
) -> ExaminerHearing:
    """Open the proceeding; with a known owner, issue the notice (C47) naming the hearing's
    date and place, the grounds, the factors and the right to waive."""
    subject = bite_report or exposure
    if subject is None or (bite_report is not None and exposure is not None):
        raise TypeError("hearing_open needs exactly one of bite_report, exposure")
    now = now or timezone.now()
    refuse_unless_serves(actor, subject.jurisdiction)
    if owner_known and scheduled_for is None:
        raise Refused.because(
            _("Hearing"),
            _("Give the hearing's date and time for the notice to the owner."),
            citation,
            field="scheduled_for",
        )
    if scheduled_for is not None and scheduled_for < now:
        raise Refused.because(
            _("Hearing"), _("The hearing cannot be in the past."), citation, field="scheduled_for"
        )
    hearing = ExaminerHearing.objects.create(
        jurisdiction=subject.jurisdiction,
        bite_report=bite_report,
        exposure=exposure,
        owner_known=owner_known,
        scheduled_for=scheduled_for,
        place=place.strip(),
        citation=citation,
        recorded_by=actor,
    )
    if owner_known:
        animal = _animal_lines(subject)
        hearing.notice = document_issue(
            kind="rabies_hearing_notice",
            template="rabies/hearing_notice.html",
            context={
                "record": {"number": subject.number, "kind": str(subject.KIND)},
                "animal": animal,
                "owner": animal["owner"],
                "grounds": grounds,
                "scheduled_for": scheduled_for,
                "place": hearing.place,
                "section": citation,
                "issued_on": timezone.localdate(now),
            },
            jurisdiction=subject.jurisdiction,
            actor=actor,
            title=str(_("Notice of hearing before the Hearing Examiner")),
            number=subject.number,
            subject=hearing,
            now=now,
        )
        hearing.save(update_fields=["notice"])
    Event.record(
        "rabies.hearing.opened",
        subject,
        actor=actor,
        at=now,
        summary=_("Hearing Examiner proceeding opened (%(c)s)") % {"c": citation},
        data={"hearing": hearing.pk, "scheduled_for": str(scheduled_for or "")},
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


@refusing()
@transaction.atomic
def hearing_decide(
    *,
    hearing: ExaminerHearing,
    actor,
    outcome: str,
    examiner_name: str,
    decided_on: date,
    reasons: str,
    held_on: date | None = None,
    factor_species: str = "",
    factor_circumstances: str = "",
    factor_epidemiology: str = "",
    factor_shedding: str = "",
    allowed=tuple(HearingOutcome),
    now: datetime | None = None,
) -> ExaminerHearing:
    """Record the Hearing Examiner's decision: after a hearing held on ``held_on`` or the
    owner's waiver, never before; the caller acts on the outcome."""
    now = now or timezone.now()
    today = timezone.localdate(now)
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
    if held_on is None and hearing.waived_on is None and hearing.owner_known:
        raise Refused.because(
            _("Hearing"),
            _("Record the hearing's date, or the owner's signed waiver, before the decision."),
            hearing.citation,
            field="held_on",
        )
    refuse_if_future(held_on, _("Held on"), field="held_on", today=today)
    refuse_if_future(decided_on, _("Decided on"), field="decided_on", today=today)
    if held_on and decided_on < held_on:
        raise Refused.because(
            _("Decided on"), _("The decision cannot come before the hearing."), field="decided_on"
        )
    if not examiner_name.strip() or not reasons.strip():
        raise Refused.because(
            _("Decision"),
            _("Name the Hearing Examiner and give the reasons."),
            hearing.citation,
            field="reasons" if examiner_name.strip() else "examiner_name",
        )
    subject = _subject(hearing)
    decision = Decision.objects.create(
        jurisdiction=hearing.jurisdiction,
        subject_type=ContentType.objects.get_for_model(type(subject)),
        subject_id=subject.pk,
        kind="rabies_hearing",
        outcome=OUTCOMES[HearingOutcome(outcome)],
        decided_by_name=examiner_name.strip(),
        decided_by_capacity=str(_("Hearing Examiner")),
        decided_on=decided_on,
        reasons=reasons.strip(),
        evidence="\n".join(
            f
            for f in (factor_species, factor_circumstances, factor_epidemiology, factor_shedding)
            if f
        ),
        citation=hearing.citation,
        recorded_by=actor,
    )
    hearing.held_on = held_on
    hearing.examiner_name = examiner_name.strip()
    hearing.factor_species = factor_species
    hearing.factor_circumstances = factor_circumstances
    hearing.factor_epidemiology = factor_epidemiology
    hearing.factor_shedding = factor_shedding
    hearing.outcome = outcome
    hearing.decision = decision
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
