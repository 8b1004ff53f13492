"""Kennel applications and their review steps (KEN-03, KEN-04): recorded, screened,
decided step by step by people; the software only records and flags."""

from dataclasses import dataclass
from datetime import date, datetime

from django.db import transaction
from django.utils.translation import gettext as _

from licensing.models import KennelDecision, KennelLicense, KennelStatus
from licensing.services.kennels.common import (
    SATISFIED,
    DecidedBy,
    Outcome,
    decision_create,
    fresh_decisions,
    optional_rule,
    record_event,
    refused,
)
from licensing.services.registry import owner_premises
from ordinance.refusals import refusing
from ordinance.rules import rule_citation, rule_in_force


@refusing()
@dataclass(frozen=True)
class KennelRequest:
    """What a kennel application says (KEN-03, KEN-04): the nature of the business, the
    animals kept, the conditional use permit, and the day it became subject to licensing
    when that was before the application (a kennel found running without one)."""

    business_nature: str
    dog_count: int
    cat_count: int
    cup_reference: str = ""
    became_subject_on: date | None = None


def kennel_apply(
    *,
    owner,
    premises,
    application: KennelRequest,
    actor,
    on: date,
    now: datetime | None = None,
) -> KennelLicense:
    """Record an application (KEN-03, KEN-04); nothing is decided here."""
    became_subject_on = application.became_subject_on
    if owner.jurisdiction_id != premises.jurisdiction_id:
        raise refused(_("The owner and the premises must be in the same city."), owner)
    if became_subject_on and became_subject_on > on:
        raise refused(
            _("The date the kennel became subject to licensing cannot be after the application."),
            owner,
        )
    with transaction.atomic():
        kennel = KennelLicense.objects.create(
            jurisdiction_id=owner.jurisdiction_id,
            owner=owner,
            premises=premises,
            business_nature=application.business_nature,
            dog_count=application.dog_count,
            cat_count=application.cat_count,
            cup_reference=application.cup_reference,
            applied_on=on,
            recorded_by=actor,
            became_subject_on=became_subject_on,
        )
        record_event(
            "licensing.kennel.applied", kennel, actor, "Kennel license application recorded", at=now
        )
    return kennel


def kennel_premises_for(owner):
    """The owner's address as a Premises of their city: the registry's one rule."""
    return owner_premises(owner)


def kennel_screening(kennel, *, on: date) -> list[str]:
    """Flags for a person to look at (KEN-03): shown, never acted on by the software."""
    flags = []
    cite = {"cite": rule_citation(kennel.jurisdiction, "KEN-03")}  # KEN-03
    min_dogs = optional_rule(kennel.jurisdiction, "kennel_min_dogs_commercial", on)
    if not kennel.business_nature.strip():
        flags.append(
            _(
                "No commercial business stated: the ordinance's kennel license is for "
                "buying, selling, breeding or boarding; a person must decide the "
                "route (%(cite)s)."
            )
            % cite
        )
    if kennel.dog_count == 0 and kennel.cat_count:
        flags.append(
            _(
                "Cats only: the kennel license as written covers dogs; a person must "
                "decide the route (%(cite)s)."
            )
            % cite
        )
    if min_dogs is not None and min_dogs.value is not None and kennel.dog_count < min_dogs.value:
        flags.append(
            _(
                "Fewer than %(n)s dogs (%(cite)s): a person must decide whether a kennel "
                "license applies."
            )
            % {"n": min_dogs.value, "cite": min_dogs.citation}
        )
    requires_cup = optional_rule(kennel.jurisdiction, "kennel_requires_cup", on)
    if requires_cup is not None and requires_cup.value is True and not kennel.cup_reference:
        flags.append(
            _("No conditional use permit reference yet (%(cite)s).")
            % {"cite": requires_cup.citation}
        )
    return flags


@refusing()
def review_steps(kennel, *, on: date):
    """The profile's review steps (KEN-04) as a Rule: ``.value`` is the list of names."""
    return rule_in_force(kennel.jurisdiction, "kennel_review_steps", on=on)


@refusing()
def step_progress(kennel, *, on: date, decisions=None) -> list[tuple[str, KennelDecision | None]]:
    """Each review step with its latest recorded decision (pages pass none: prefetched)."""
    latest = {}
    for decision in kennel.decisions.all() if decisions is None else decisions:
        latest[decision.step] = decision
    return [(step, latest.get(step)) for step in review_steps(kennel, on=on).value]


@refusing()
def steps_outstanding(kennel, *, on: date) -> list[str]:
    return [
        step
        for step, d in step_progress(kennel, on=on, decisions=fresh_decisions(kennel))
        if d is None or d.outcome not in SATISFIED
    ]


@refusing()
def kennel_decision_record(
    *,
    kennel,
    step: str,
    outcome: str,
    decided: DecidedBy,
    actor,
    conditions: str = "",
    now: datetime | None = None,
) -> KennelDecision:
    """Record one review step's outcome, decided by a person (KEN-04).

    A denial goes through ``kennel_deny`` (it starts the appeal clock).
    """
    kennel.ensure("review", to=KennelStatus.UNDER_REVIEW)
    decided_on = decided.on
    rule = review_steps(kennel, on=decided_on)
    if step not in rule.value:
        raise refused(_("“%(step)s” is not a review step of this city.") % {"step": step}, kennel)
    if outcome == Outcome.DENIED:
        raise refused(
            _(
                "Use “Deny” to record a denial; it records the notification and the appeal "
                "deadline."
            ),
            kennel,
        )
    with transaction.atomic():
        decision = decision_create(
            kennel,
            step,
            outcome,
            decided,
            rule.citation,
            actor,
        )
        remaining = steps_outstanding(kennel, on=decided_on)
        kennel.review(
            actor=actor,
            step=step,
            outcome=outcome,
            complete=not remaining,
            conditions=conditions,
            at=now,
        )
    return decision
