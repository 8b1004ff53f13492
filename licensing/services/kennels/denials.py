"""Denial at a review step, the notification, the appeal to the Council and the denial
that becomes final when no appeal is filed (KEN-04, KEN-07)."""

from datetime import date, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from licensing.models import KennelLicense, KennelStatus
from licensing.services.kennels.applications import review_steps
from licensing.services.kennels.common import (
    KENNEL,
    SATISFIED,
    DecidedBy,
    Outcome,
    decision_create,
    fresh_decisions,
    optional_rule,
    record_event,
    refused,
)
from ordinance.calendar import due_date
from ordinance.refusals import Refused, refusing
from ordinance.rules import rule_citation, rule_in_force
from ordinance.sweeps import SweepResult, run_sweep

APPEAL_DECISION = "Council decision on appeal"


def appeal_granted(kennel) -> bool:
    """The Council granted the appeal: issuance no longer waits on the denied step."""
    return any(
        d.step == APPEAL_DECISION and d.outcome in SATISFIED for d in fresh_decisions(kennel)
    )


@refusing()
def kennel_deny(
    *,
    kennel,
    step: str,
    decided: DecidedBy,
    actor,
    notified_on: date | None = None,
    now: datetime | None = None,
):
    """Record a denial at a review step (KEN-04, KEN-07); the notification starts the clock."""
    kennel.ensure("deny")
    decided_on = decided.on
    rule = review_steps(kennel, on=decided_on)
    if step not in rule.value:
        raise refused(_("“%(step)s” is not a review step of this city.") % {"step": step}, kennel)
    with transaction.atomic():
        decision_create(
            kennel,
            step,
            Outcome.DENIED,
            decided,
            rule.citation,
            actor,
        )
        kennel.deny(actor=actor, step=step, on=decided_on, at=now)
        if notified_on:
            kennel_denial_notified(kennel=kennel, notified_on=notified_on, actor=actor, now=now)
    return kennel


@refusing()
def kennel_denial_notified(*, kennel, notified_on: date, actor, now: datetime | None = None):
    """The applicant was notified: appeal deadline = notification + the appeal days (KEN-07).
    Only a denial that may still be appealed."""
    kennel.ensure("appeal")
    if kennel.denied_on and notified_on < kennel.denied_on:
        raise refused(_("The notification cannot come before the denial."), kennel, "KEN-07")
    deadline = None
    if rule_in_force(
        kennel.jurisdiction, "kennel_denial_appeal_days", on=notified_on, optional=True
    ):
        deadline, _rule = due_date(kennel.jurisdiction, "kennel_denial_appeal_days", notified_on)
    kennel.denial_notified_on = notified_on
    kennel.appeal_deadline = deadline
    kennel.save(update_fields=["denial_notified_on", "appeal_deadline"])
    record_event(
        "licensing.kennel.denial_notified",
        kennel,
        actor,
        "Denial notified",
        at=now,
        notified_on=notified_on.isoformat(),
        appeal_deadline=deadline.isoformat() if deadline else None,
    )
    return kennel


def appeal_rule(kennel, *, on: date):
    return optional_rule(kennel.jurisdiction, "kennel_denial_appeal_days", on)


@refusing()
def kennel_appeal_file(*, kennel, filed_on: date, actor, now: datetime | None = None):
    """The applicant appealed to the Council within the deadline (KEN-07)."""
    kennel.ensure("appeal")
    if kennel.appeal_deadline is None:
        raise refused(
            _(
                "This city's ordinance provides no appeal of a kennel denial, or "
                "the notification date is not recorded yet."
            ),
            kennel,
            "KEN-07",
        )
    if filed_on > kennel.appeal_deadline:
        rule = appeal_rule(kennel, on=filed_on)
        raise Refused.because(
            KENNEL,
            _(
                "The appeal deadline was %(deadline)s (%(cite)s); an appeal filed on %(filed)s "
                "is late."
            )
            % {
                "deadline": date_format(kennel.appeal_deadline),
                "filed": date_format(filed_on),
                "cite": rule.citation if rule else "",
            },
            rule.citation if rule else rule_citation(kennel.jurisdiction, "KEN-07"),
        )
    kennel.appeal(actor=actor, filed_on=filed_on, at=now)
    return kennel


@refusing()
def kennel_appeal_decide(
    *,
    kennel,
    granted: bool,
    conditions: str,
    decided: DecidedBy,
    actor,
    now: datetime | None = None,
):
    """The Council grants (with conditions) or denies the appeal (KEN-07, Subd. 4(E))."""
    kennel.ensure(
        "decide_appeal", to=KennelStatus.APPROVED if granted else KennelStatus.DENIED_FINAL
    )
    rule = appeal_rule(kennel, on=decided.on)
    approved = Outcome.CONDITIONS if conditions else Outcome.APPROVED
    outcome = approved if granted else Outcome.DENIED
    with transaction.atomic():
        decision_create(
            kennel,
            APPEAL_DECISION,
            outcome,
            decided,
            rule.citation if rule else "",
            actor,
        )
        kennel.decide_appeal(actor=actor, granted=granted, conditions=conditions, at=now)
    return kennel


def kennel_denials_finalise(*, now: datetime, dry_run: bool = False) -> SweepResult:
    """A denial not appealed by its deadline becomes final (KEN-07): the day after it."""
    today = timezone.localdate(now)
    return run_sweep(
        name="kennel denials become final",
        action="licensing.kennel.denied_final",
        due=KennelLicense.objects.filter(
            status__in=KennelLicense.transition("finalise_denial").sources,
            appeal_deadline__lt=today,
        ),
        still_applies=lambda k: k.may("finalise_denial"),
        transition=_finalise,
        now=now,
        dry_run=dry_run,
        transition_records=True,
    )


def _finalise(kennel, now):
    kennel.finalise_denial(actor=None, at=now, summary="kennel denials become final (automatic)")
