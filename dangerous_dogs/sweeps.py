"""Dangerous-dog sweeps of the notice stage (DD-04, DD-09).

- ``dangerous_dogs.contest_default``: a case whose owner received the notice of intent
  and whose stored ``contest_deadline`` is before today, still NOTICE_SERVED (no request
  in time moved it), defaults (Subd. 15(J)): recorded once, with the deadline in the
  Event. The period is counted in calendar days, so a deadline on a Saturday defaults on
  the Sunday. A run after days down catches up once per case.

Upcoming deadlines: "Contest period ends" (NOTICE_SERVED) and "Declaration due"
(DEFAULTED: the officer issues the declaration), each with its section.
"""

from collections.abc import Iterable
from datetime import date, datetime

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from dangerous_dogs.models import CaseStatus, DesignationCase
from dangerous_dogs.services.cases import citation, mark_defaulted
from ordinance.deadlines import Deadline, register_sweep, register_upcoming
from ordinance.sweeps import run_sweep


@register_sweep("dangerous_dogs.contest_default")
def sweep_contest_default(*, now: datetime, dry_run: bool = False):
    today = timezone.localdate(now)
    return run_sweep(
        name="dangerous-dog contest periods end",
        action="dangerous_dogs.case.defaulted",
        due=DesignationCase.objects.filter(
            status=CaseStatus.NOTICE_SERVED, contest_deadline__lt=today
        ).select_related("jurisdiction"),
        still_applies=lambda c: c.status == CaseStatus.NOTICE_SERVED and c.contest_deadline < today,
        transition=lambda c, at: mark_defaulted(c, on=today, at=at),
        now=now,
        dry_run=dry_run,
        transition_records=True,
    )


@register_upcoming("dangerous_dogs.notice_stage")
def upcoming_notice_stage(*, jurisdiction_ids, start: date, end: date) -> Iterable[Deadline]:
    contested = DesignationCase.objects.filter(
        jurisdiction_id__in=jurisdiction_ids,
        status=CaseStatus.NOTICE_SERVED,
        contest_deadline__range=(start, end),
    ).select_related("jurisdiction")
    for case in contested:
        yield Deadline(
            due=case.contest_deadline,
            what=_("Contest period ends"),
            subject=case.number,
            consequence=_("default the next day unless a written request came in"),
            citation=case.contest_citation,
            url=case.get_absolute_url(),
            jurisdiction=case.jurisdiction.short_name,
        )
    defaulted = DesignationCase.objects.filter(
        jurisdiction_id__in=jurisdiction_ids,
        status=CaseStatus.DEFAULTED,
        defaulted_on__lte=end,
    ).select_related("jurisdiction")
    for case in defaulted:
        yield Deadline(
            # Due since the default: an outstanding declaration shows from today.
            due=max(case.defaulted_on, start),
            what=_("Declaration due"),
            subject=case.number,
            consequence=_("the officer issues the declaration"),
            citation=citation(case.jurisdiction, "DD-09"),
            url=reverse("dangerous_dogs:case_detail", args=[case.pk]),
            jurisdiction=case.jurisdiction.short_name,
        )
