"""Dangerous-dog sweeps of the notice stage (DD-04, DD-09).

- ``dangerous_dogs.contest_default``: a case whose owner received the notice of intent
  and whose stored ``contest_deadline`` is before today, still NOTICE_SERVED (no request
  in time moved it), defaults (Subd. 15(J)): recorded once, with the deadline in the
  Event. The period is counted in calendar days, so a deadline on a Saturday defaults on
  the Sunday. A run after days down catches up once per case.

Upcoming deadlines: "Contest period ends" (NOTICE_SERVED) and "Declaration due"
(DEFAULTED: the officer issues the declaration), the Review Panel's hearings to hold and
the appeal periods still open, each with its section.
"""

from collections.abc import Iterable
from datetime import date, datetime

from django.utils import timezone

from dangerous_dogs.models import DesignationCase
from dangerous_dogs.services.cases import mark_defaulted
from ordinance.deadlines import Deadline, register_sweep
from ordinance.sweeps import run_sweep


@register_sweep("dangerous_dogs.contest_default")
def sweep_contest_default(*, now: datetime, dry_run: bool = False):
    today = timezone.localdate(now)
    return run_sweep(
        name="dangerous-dog contest periods end",
        action="dangerous_dogs.case.defaulted",
        due=DesignationCase.objects.filter(
            status__in=DesignationCase.transition("default").sources, contest_deadline__lt=today
        ).select_related("jurisdiction"),
        still_applies=lambda c: c.may("default") and c.contest_deadline < today,
        transition=lambda c, at: mark_defaulted(c, on=today, at=at),
        now=now,
        dry_run=dry_run,
        transition_records=True,
    )


def upcoming_notice_stage(*, jurisdiction_ids, start: date, end: date) -> Iterable[Deadline]:
    """ "Contest period ends" and "Declaration due" (the home page reads them with the
    other case deadlines in one query: dangerous_dogs.upcoming)."""
    from dangerous_dogs.upcoming import case_deadlines

    return case_deadlines(
        jurisdiction_ids=jurisdiction_ids, start=start, end=end, kinds=("contest", "declaration")
    )


def upcoming_panel_stage(*, jurisdiction_ids, start: date, end: date) -> Iterable[Deadline]:
    """The Review Panel's hearings to be held, and the appeal periods still open (DD-07,
    DD-20): the appeal period ends ``appeal_deadline`` days after the ruling."""
    from dangerous_dogs.upcoming import case_deadlines, hearing_deadlines

    yield from hearing_deadlines(jurisdiction_ids=jurisdiction_ids, start=start, end=end)
    yield from case_deadlines(
        jurisdiction_ids=jurisdiction_ids, start=start, end=end, kinds=("appeal",)
    )
