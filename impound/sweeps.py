"""Impound's deadline sweeps and upcoming deadlines, registered with ordinance.

- ``impound.holds_end``: a held case whose stored ``hold_ends_on`` is before today
  becomes available for disposition (IMP-04). The hold runs *through* its last day:
  rules.md IMP-04 has it expire "at close of business on the 5th business day", so a hold
  ending Thursday makes the animal available Friday morning, never during Thursday.
- ``impound.sterilization_overdue``: a pending agreement whose ``due_on`` is before
  today becomes overdue (IMP-11, IMP-12): the adopter has all of the due day.
- ``impound.lost_reports_expire`` and ``impound.lost_reports_remind``: a
  resident's lost-pet report expires after its stored ``expires_on``, and is reminded
  once per open period the profile's ``lost_report_reminder_days`` before it (program
  settings, not ordinance rules).

Each selects on its stored date and the expected state, so a second run changes
nothing and a run after a week down catches up once per row (ordinance.sweeps).
"""

from collections.abc import Iterable
from datetime import date, datetime

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from base.together import Part
from impound.models import AgreementStatus, CaseStatus, ImpoundCase, SterilizationAgreement
from ordinance.deadlines import Deadline, UpcomingQuery, register_sweep, register_upcoming
from ordinance.sweeps import run_sweep


@register_sweep("impound.holds_end")
def sweep_holds_end(*, now: datetime, dry_run: bool = False):
    today = timezone.localdate(now)

    def transition(case, at):
        case.make_available(on=today, at=at, data={"hold_ends_on": str(case.hold_ends_on)})

    held = ImpoundCase.transition("make_available").sources
    return run_sweep(
        name="impound holds end",
        action="impound.case.available",
        due=ImpoundCase.objects.filter(status__in=held, hold_ends_on__lt=today),
        still_applies=lambda c: c.may("make_available") and c.hold_ends_on < today,
        transition=transition,
        now=now,
        dry_run=dry_run,
        transition_records=True,
    )


@register_sweep("impound.sterilization_overdue")
def sweep_sterilization_overdue(*, now: datetime, dry_run: bool = False):
    today = timezone.localdate(now)
    return run_sweep(
        name="sterilization agreements overdue",
        action="impound.sterilization.overdue",
        due=SterilizationAgreement.objects.filter(
            status__in=SterilizationAgreement.transition("mark_overdue").sources,
            due_on__lt=today,
        ).select_related("case"),
        still_applies=lambda a: a.may("mark_overdue") and a.due_on < today,
        transition=lambda a, at: a.mark_overdue(on=today, at=at),
        now=now,
        dry_run=dry_run,
        transition_records=True,
    )


@register_upcoming("impound.holds_ending")
def upcoming_holds_ending(*, jurisdiction_ids, start: date, end: date) -> Iterable[Deadline]:
    cases = ImpoundCase.objects.filter(
        jurisdiction_id__in=jurisdiction_ids,
        status=CaseStatus.HELD,
        hold_ends_on__range=(start, end),
    )
    yield UpcomingQuery({"rows": Part(cases, related=("jurisdiction",))}, _holds_ending)


def _holds_ending(found) -> Iterable[Deadline]:
    for case in found["rows"]:
        yield Deadline(
            due=case.hold_ends_on,
            what=_("Impound hold ends"),
            subject=case.number,
            consequence=_("available for disposition"),
            citation=case.hold_citation,
            url=reverse("impound:case_disposition", args=[case.pk]),
            jurisdiction=case.jurisdiction.short_name,
        )


@register_upcoming("impound.sterilization_due")
def upcoming_sterilization_due(*, jurisdiction_ids, start: date, end: date) -> Iterable[Deadline]:
    agreements = SterilizationAgreement.objects.filter(
        jurisdiction_id__in=jurisdiction_ids,
        status=AgreementStatus.PENDING,
        due_on__range=(start, end),
    )
    yield UpcomingQuery(
        {"rows": Part(agreements, related=("jurisdiction", "case"))}, _sterilization_due
    )


def _sterilization_due(found) -> Iterable[Deadline]:
    url = reverse("impound:sterilization_list")
    for agreement in found["rows"]:
        yield Deadline(
            due=agreement.due_on,
            what=_("Sterilization certificate due"),
            subject=agreement.case.number,
            consequence=_("overdue the next day"),
            citation=agreement.due_citation,
            url=url,
            jurisdiction=agreement.jurisdiction.short_name,
        )


# --- Lost-pet reports --------------------------------------------------------------------


@register_sweep("impound.lost_reports_expire")
def sweep_lost_reports_expire(*, now: datetime, dry_run: bool = False):
    """An open or matched lost report whose stored ``expires_on`` is before today expires
    (the profile's ``lost_report_open_days``, a program setting): the resident has all of
    the last day, and renewing moves the day forward. Idempotent; catches up."""
    from impound.models import ACTIVE_LOST_STATUSES, LostReport

    today = timezone.localdate(now)
    return run_sweep(
        name="lost-pet reports expire",
        action="impound.lost.expired",
        due=LostReport.objects.filter(status__in=ACTIVE_LOST_STATUSES, expires_on__lt=today),
        still_applies=lambda r: r.status in ACTIVE_LOST_STATUSES and r.expires_on < today,
        transition=lambda r, at: r.expire(at=at),
        now=now,
        dry_run=dry_run,
        transition_records=True,
    )


@register_sweep("impound.lost_reports_remind")
def sweep_lost_reports_remind(*, now: datetime, dry_run: bool = False):
    """E-mail the resident once per open period, the profile's ``lost_report_reminder_days``
    (a program setting) calendar days before the report's stored ``expires_on``, with the
    page to renew it. Idempotent; after days down it reminds only reports still open."""
    from impound.services.lost_mail import lost_reports_remind

    return lost_reports_remind(now=now, dry_run=dry_run)
