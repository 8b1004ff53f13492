"""The officer's decision on a bite other than confinement (NB Sec. 6-96(6); GL 701 Subd.
21), and the Hearing Examiner's decision on a Subd. 21(C) bite.

- ``decisions_offered``: the decisions the city's ordinance offers for this bite, each
  with its section, or the reason it is not offered.
- ``bite_decide``: destroy for testing (a ``notices.Decision`` and a ``LabSubmission``),
  not a rabies suspect (Glencoe DEF-09), no action possible, or Glencoe's Subd. 21(C)
  seizure and Hearing Examiner (``rabies.services.hearings``). Confinement is
  ``rabies.services.quarantine``; an exposure case is ``rabies.services.exposures``.
- ``bite_hearing_decide``: the Examiner's decision on a 21(C) bite and what follows.
"""

from dataclasses import dataclass
from datetime import date, datetime

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from kernel.checks import refuse_unless_serves
from notices.models import Decision, DecisionOutcome
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import rule_citation
from rabies.models import BiteDecision, BiteReport, HearingOutcome

from .. import hearings
from ..common import city_rule, locked
from ..testing import Specimen, lab_submit
from .reports import biter_species

DESTROY_KIND = "rabies_destroy_for_testing"
# The decisions recorded here (confinement and an exposure case have services of their own).
DECIDED_HERE = (
    BiteDecision.DESTROY_FOR_TESTING,
    BiteDecision.NOT_SUSPECT,
    BiteDecision.NO_ACTION,
    BiteDecision.HEARING,
)
HEARING_OUTCOMES = (HearingOutcome.EUTHANIZE_AND_TEST, HearingOutcome.RELEASE)


class Offer:
    """One decision for this bite: offered (with its section) or not (with the reason)."""

    def __init__(self, decision, *, offered, citation="", reason=""):
        self.decision = BiteDecision(decision)
        self.offered = offered
        self.citation = citation
        self.reason = reason

    @property
    def label(self) -> str:
        return str(self.decision.label)

    def __repr__(self):
        return f"Offer({self.decision.value}, offered={self.offered})"


def _quarantined_species(bite, on):
    return city_rule(bite.jurisdiction, "rabies_suspect_quarantine_species", on=on)


def _destroy_offer(bite, on) -> Offer:
    rule = city_rule(bite.jurisdiction, "destroy_for_testing", on=on)
    if rule is not None and rule.value:
        return Offer(BiteDecision.DESTROY_FOR_TESTING, offered=True, citation=rule.citation)
    species = _quarantined_species(bite, on)
    if species is not None and biter_species(bite) in species.value:
        return Offer(
            BiteDecision.DESTROY_FOR_TESTING,
            offered=False,
            citation=species.citation,
            reason=_(
                "%(city)s's ordinance quarantines a dog, cat or ferret that is a rabies "
                "suspect; it does not provide for destroying it for testing."
            )
            % {"city": bite.jurisdiction},
        )
    return Offer(
        BiteDecision.DESTROY_FOR_TESTING,
        offered=False,
        citation=rule_citation(bite.jurisdiction, "RAB-12"),
        reason=_("%(city)s's ordinance has no rule for destroying a biting animal for testing.")
        % {"city": bite.jurisdiction},
    )


def _hearing_offer(bite, on) -> Offer:
    rule = city_rule(bite.jurisdiction, "rabies_suspect_other_species_hearing", on=on)
    if rule is None or not rule.value:
        return Offer(
            BiteDecision.HEARING,
            offered=False,
            reason=_(
                "%(city)s's ordinance has no Hearing Examiner's procedure for a biting animal."
            )
            % {"city": bite.jurisdiction},
        )
    species = _quarantined_species(bite, on)
    if species is not None and biter_species(bite) in species.value:
        return Offer(
            BiteDecision.HEARING,
            offered=False,
            citation=species.citation,
            reason=_("A dog, cat or ferret that is a rabies suspect is quarantined instead."),
        )
    return Offer(BiteDecision.HEARING, offered=True, citation=rule.citation)


def _not_suspect_offer(bite, on) -> Offer:
    rule = city_rule(bite.jurisdiction, "rabies_suspect_definition", on=on)
    if rule is None:
        return Offer(
            BiteDecision.NOT_SUSPECT,
            offered=False,
            reason=_("%(city)s's ordinance does not define a rabies suspect.")
            % {"city": bite.jurisdiction},
        )
    return Offer(BiteDecision.NOT_SUSPECT, offered=True, citation=rule.citation)


def decisions_offered(bite: BiteReport, *, on: date | None = None) -> list[Offer]:
    """The decisions recorded here that the city's ordinance offers for ``bite`` (in force on the
    bite's date), each with its section or the reason it is not offered."""
    on = on or timezone.localtime(bite.bitten_at).date()
    return [
        _destroy_offer(bite, on),
        _hearing_offer(bite, on),
        _not_suspect_offer(bite, on),
        Offer(BiteDecision.NO_ACTION, offered=True),
    ]


def _officer_name(actor) -> str:
    return actor.get_full_name() or actor.get_username()


def _close(bite, transition, *, actor, at, note, summary, citation="", fields=()):
    bite.closed_on = timezone.localdate(at)
    bite.closing_note = str(note)[:300]
    bite.apply(
        transition,
        actor=actor,
        at=at,
        summary=summary,
        citation=citation,
        fields=["closed_on", "closing_note", *fields],
    )


@dataclass(frozen=True)
class DecisionDetails:
    """What a decision needs beside itself: the specimen of a destruction for testing, the
    notice of a hearing (the decision form's other fields)."""

    laboratory: str = ""
    destroyed_on: date | None = None
    submitted_on: date | None = None
    specimen_reference: str = ""
    owner_known: bool = True
    scheduled_for: datetime | None = None
    place: str = ""

    def specimen(self) -> dict:
        return {name: getattr(self, name) for name in Specimen.__dataclass_fields__}

    def notice(self) -> hearings.Notice:
        return hearings.Notice(self.owner_known, self.scheduled_for, self.place)


DECIDED = ("decision", "decision_reasons", "decision_citation", "decided_at", "decided_by")


def _offer_or_refuse(bite: BiteReport, decision: str, reasons: str) -> Offer:
    if decision not in DECIDED_HERE:
        raise Refused.because(
            _("Decision"), _("Choose one of the decisions offered."), field="decision"
        )
    if not reasons:
        raise Refused.because(_("Reasons"), _("Give the reasons."), field="reasons")
    offer = {o.decision: o for o in decisions_offered(bite)}[BiteDecision(decision)]
    if not offer.offered:
        raise Refused.because(_("Decision"), offer.reason, offer.citation, field="decision")
    return offer


def _destroy_for_testing(bite, offer, details: DecisionDetails, *, actor, now) -> None:
    """The officer's order (a ``notices.Decision``), then the specimen sent (RAB-12)."""
    record = Decision.objects.create(
        jurisdiction=bite.jurisdiction,
        subject_type=ContentType.objects.get_for_model(BiteReport),
        subject_id=bite.pk,
        kind=DESTROY_KIND,
        outcome=DecisionOutcome.ORDERED,
        decided_by_name=_officer_name(actor),
        decided_by_capacity=str(_("Officer")),
        decided_on=timezone.localdate(now),
        reasons=bite.decision_reasons,
        citation=offer.citation,
        recorded_by=actor,
    )
    bite.save(update_fields=DECIDED)
    Event.record(
        "rabies.bite.destroy_for_testing",
        bite,
        actor=actor,
        at=now,
        summary=f"{offer.label} ({offer.citation})",
        data={"decision": record.pk},
    )
    lab_submit(
        bite, actor=actor, decision=record, transition="destroy", now=now, **details.specimen()
    )
    bite.refresh_from_db(fields=["status", "status_changed_at"])


def _seize_for_hearing(bite, offer, details: DecisionDetails, *, actor, now) -> None:
    """Glencoe 21(C): seized, notice and a Hearing Examiner's hearing."""
    bite.suspect, bite.suspect_reasons = True, bite.decision_reasons
    hearings.hearing_open(
        subject=bite,
        actor=actor,
        citation=offer.citation,
        grounds=bite.decision_reasons,
        notice=details.notice(),
        now=now,
    )
    bite.apply(
        "hearing",
        actor=actor,
        at=now,
        summary=_("Seized; notice and a Hearing Examiner's hearing (%(c)s)")
        % {"c": offer.citation},
        citation=offer.citation,
        fields=[*DECIDED, "suspect", "suspect_reasons"],
    )


def _close_as_decided(bite, offer, *, actor, now) -> None:
    """Not a rabies suspect (DEF-09), or no action possible: the report closes."""
    fields = DECIDED
    if offer.decision == BiteDecision.NOT_SUSPECT:
        bite.suspect, bite.suspect_reasons = False, bite.decision_reasons
        fields = (*DECIDED, "suspect", "suspect_reasons")
    _close(
        bite,
        offer.decision.value,
        actor=actor,
        at=now,
        note=f"{offer.label}: {bite.decision_reasons}",
        summary=f"{offer.label} ({offer.citation})" if offer.citation else offer.label,
        citation=offer.citation,
        fields=fields,
    )


@refusing()
@transaction.atomic
def bite_decide(
    bite: BiteReport, decision: str, reasons: str, actor, *, now: datetime | None = None, **details
) -> BiteReport:
    """The officer's decision on an open bite (other than confinement and exposure);
    ``details``: the fields of ``DecisionDetails`` the decision needs."""
    now = now or timezone.now()
    details = DecisionDetails(**details)
    refuse_unless_serves(actor, bite.jurisdiction)
    bite = (
        BiteReport.objects.select_for_update(of=("self",))
        .select_related("jurisdiction", "animal__owner")
        .get(pk=bite.pk)
    )
    bite.require("no_action", _("a decision"))  # always offered: awaits one
    reasons = (reasons or "").strip()
    offer = _offer_or_refuse(bite, decision, reasons)
    bite.decision, bite.decision_reasons = decision, reasons
    bite.decision_citation, bite.decided_at, bite.decided_by = offer.citation, now, actor
    if decision == BiteDecision.DESTROY_FOR_TESTING:
        _destroy_for_testing(bite, offer, details, actor=actor, now=now)
    elif decision == BiteDecision.HEARING:
        _seize_for_hearing(bite, offer, details, actor=actor, now=now)
    else:
        _close_as_decided(bite, offer, actor=actor, now=now)
    return bite


@refusing()
@transaction.atomic
def bite_hearing_decide(
    bite: BiteReport, *, actor, outcome: str, now: datetime | None = None, **decision
) -> BiteReport:
    """The Hearing Examiner's decision on a 21(C) bite: euthanize and test (the laboratory
    submission follows, ``lab_submit``) or release (the report closes)."""
    now = now or timezone.now()
    refuse_unless_serves(actor, bite.jurisdiction)
    bite = locked(BiteReport, bite.pk)
    bite.require("release", _("the Hearing Examiner's decision"))
    hearing = bite.hearings.order_by("-pk").first()
    if hearing is None:
        raise Refused.because(_("Hearing"), _("No Hearing Examiner proceeding is open."))
    hearing = hearings.hearing_decide(
        hearing=hearing, actor=actor, outcome=outcome, allowed=HEARING_OUTCOMES, now=now, **decision
    )
    if outcome == HearingOutcome.RELEASE:
        _close(
            bite,
            "release",
            actor=actor,
            at=now,
            note=_("Hearing Examiner: release (%(c)s)") % {"c": hearing.citation},
            summary=_("Released by the Hearing Examiner's decision"),
            citation=hearing.citation,
        )
    return bite


def hearing_awaits_submission(bite: BiteReport, hearing) -> bool:
    return (
        bite.may("test_after_hearing")
        and hearing is not None
        and hearing.outcome == HearingOutcome.EUTHANIZE_AND_TEST
    )
