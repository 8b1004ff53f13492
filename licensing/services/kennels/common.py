"""What every kennel use case shares: the refusal, the history entry, the state check of a
step that is not a transition and the record of a person's decision (KennelDecision)."""

from dataclasses import dataclass
from datetime import date, datetime

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l

from licensing.models import KennelDecision, KennelStatus
from ordinance.models import Event
from ordinance.refusals import Refused
from ordinance.rules import RuleUnavailable, rule_citation, rule_in_force

Outcome = KennelDecision.Outcome
SATISFIED = (Outcome.APPROVED, Outcome.CONDITIONS)

KENNEL = _l("Kennel license")
ISSUED = (KennelStatus.ACTIVE, KennelStatus.EXPIRED)


def refused(message, where, rule: str = "KEN-04") -> Refused:
    """A kennel action the rules or the current state do not allow, citing the section of
    ``where``'s city (a kennel or its owner) for ``rule`` (a rules.md ID)."""
    return Refused.because(KENNEL, message, rule_citation(where.jurisdiction, rule))


def record_event(action, kennel, actor, summary, *, at: datetime | None, **data):
    """The Event stamped with when the thing happened (``at``; None: now), so history
    entered after the fact (demo data, paper records) reads in its real order."""
    Event.record(action, kennel, actor=actor, summary=summary, data=data, at=at)


def require_status(kennel, *statuses, rule: str = "KEN-04"):
    """Refuse a step that changes no status but belongs to some (the fee while in review,
    the document of an active license); a transition's own states are its table's
    (``kennel.ensure``)."""
    if kennel.status not in statuses:
        raise refused(
            _("This kennel license is %(status)s; that action is not possible now.")
            % {"status": kennel.get_status_display().lower()},
            kennel,
            rule,
        )


def optional_rule(jurisdiction, key, on):
    try:
        return rule_in_force(jurisdiction, key, on=on, optional=True)
    except RuleUnavailable:
        return None


def fresh_decisions(kennel) -> list[KennelDecision]:
    """Read from the database: a page's prefetched ``decisions`` may predate this change."""
    return list(KennelDecision.objects.filter(kennel_license=kennel).order_by("decided_on", "pk"))


@dataclass(frozen=True)
class DecidedBy:
    """Who decided (a person's name and capacity), on which day and why."""

    name: str
    capacity: str
    on: date
    reasons: str = ""


def decision_create(kennel, step, outcome, by: DecidedBy, citation, actor) -> KennelDecision:
    return KennelDecision.objects.create(
        kennel_license=kennel,
        step=step,
        outcome=outcome,
        decided_by_name=by.name,
        decided_by_capacity=by.capacity,
        decided_on=by.on,
        reasons=by.reasons,
        citation=citation,
        recorded_by=actor,
    )
