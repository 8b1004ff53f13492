"""What every kennel use case shares: the refusal, the history entry, the state check and
the record of a person's decision (KennelDecision)."""

from datetime import datetime

from django.utils.translation import gettext_lazy as _l

from licensing.models import KennelDecision, KennelStatus
from ordinance.models import Event
from ordinance.refusals import Refused
from ordinance.rules import RuleUnavailable, get_optional, rule_citation

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
    kennel._require(*statuses, rule=rule)


def optional_rule(jurisdiction, key, on):
    try:
        return get_optional(jurisdiction, key, on=on)
    except RuleUnavailable:
        return None


def fresh_decisions(kennel) -> list[KennelDecision]:
    """Read from the database: a page's prefetched ``decisions`` may predate this change."""
    return list(KennelDecision.objects.filter(kennel_license=kennel).order_by("decided_on", "pk"))


def decision_create(kennel, step, outcome, name, capacity, on, reasons, citation, actor):
    return KennelDecision.objects.create(
        kennel_license=kennel,
        step=step,
        outcome=outcome,
        decided_by_name=name,
        decided_by_capacity=capacity,
        decided_on=on,
        reasons=reasons,
        citation=citation,
        recorded_by=actor,
    )
