"""The City Attorney's initial review of a contested case (Glencoe 701 Subd. 15(C); DD-05;
C26): the designation is withdrawn (none of the requirements apply) or referred to the
Review Panel. The City Attorney is not an account (Appendix G 6): staff record the
decision as a ``notices.Decision`` with who decided, when, the reasons and the evidence.
"""

from datetime import date, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from dangerous_dogs.models import DesignationCase
from kernel.checks import refuse_if_future, refuse_unless_serves
from notices.models import Decision, DecisionOutcome
from ordinance.refusals import Refused, refusing
from ordinance.rules import rule_citation

from .common import blanks, locked

ATTORNEY_REVIEW = "dd_attorney_review"
WITHDRAW, REFER = "withdraw", "refer"
ATTORNEY_OUTCOMES = {WITHDRAW: DecisionOutcome.WITHDRAWN, REFER: DecisionOutcome.REFERRED}


def attorney_citation(jurisdiction) -> str:
    return rule_citation(jurisdiction, "DD-05")


@refusing()
@transaction.atomic
def attorney_review(
    *,
    case: DesignationCase,
    outcome: str,
    decided_by_name: str,
    decided_on: date,
    reasons: str,
    evidence: str,
    actor,
    now: datetime | None = None,
) -> Decision:
    """Record the City Attorney's initial review: withdraw the designation (none of the
    requirements apply) or refer it to the Review Panel (Subd. 15(C))."""
    now = now or timezone.now()
    case = locked(case)
    citation = attorney_citation(case.jurisdiction)
    refuse_unless_serves(actor, case.jurisdiction)
    case.ensure("withdraw" if outcome == WITHDRAW else "refer")
    if outcome not in ATTORNEY_OUTCOMES:
        raise Refused.because(
            _("Outcome"),
            _("The City Attorney withdraws the designation or refers it to the Review Panel."),
            citation,
            field="outcome",
        )
    missing = blanks(
        {
            "decided_by_name": (decided_by_name, _("Name the City Attorney who reviewed it.")),
            "reasons": (reasons, _("Give the City Attorney's reasons.")),
            "evidence": (evidence, _("Say which evidence the City Attorney reviewed.")),
        },
        _("City Attorney review"),
        citation,
    )
    if missing:
        raise Refused(missing)
    _check_review_date(case, decided_on, timezone.localdate(now), citation)
    decision = Decision.objects.create(
        jurisdiction=case.jurisdiction,
        subject=case,
        kind=ATTORNEY_REVIEW,
        outcome=ATTORNEY_OUTCOMES[outcome],
        decided_by_name=decided_by_name.strip(),
        decided_by_capacity=_("City Attorney"),
        decided_on=decided_on,
        reasons=reasons.strip(),
        evidence=evidence.strip(),
        citation=citation,
        recorded_by=actor,
    )
    _apply_review(case, decision, outcome, actor=actor, now=now)
    return decision


def _check_review_date(case, decided_on: date, today: date, citation: str) -> None:
    refuse_if_future(decided_on, _("Decided on"), field="decided_on", today=today)
    if case.contest_received_on and decided_on < case.contest_received_on:
        raise Refused.because(
            _("Decided on"),
            _("The hearing request was received later (%(date)s).")
            % {"date": date_format(case.contest_received_on)},
            citation,
            field="decided_on",
        )


def _apply_review(case, decision: Decision, outcome: str, *, actor, now) -> None:
    """Withdrawn, the case closes; referred, it goes to the Review Panel."""
    words = {
        "who": decision.decided_by_name,
        "date": date_format(decision.decided_on),
        "c": decision.citation,
    }
    data = {"decision": decision.pk, "outcome": outcome, "decided_on": str(decision.decided_on)}
    if outcome == REFER:
        summary = _(
            "The City Attorney (%(who)s) referred the case to the Review Panel on %(date)s (%(c)s)"
        )
        case.apply(
            "refer", actor=actor, at=now, summary=summary % words, citation=words["c"], data=data
        )
        return
    case.closed_on = decision.decided_on
    case.closing_note = _(
        "Withdrawn by the City Attorney: none of the requirements for a dangerous or "
        "potentially dangerous dog apply."
    )
    case.apply(
        "withdraw",
        actor=actor,
        at=now,
        summary=_("The City Attorney (%(who)s) withdrew the designation on %(date)s (%(c)s)")
        % words,
        citation=words["c"],
        data=data,
        fields=["closed_on", "closing_note"],
    )
