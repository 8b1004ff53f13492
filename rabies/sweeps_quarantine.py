"""Quarantine sweeps and upcoming deadlines (RAB-13, RAB-20, RAB-21; Appendix B4).

- ``rabies.quarantine_ended``: a quarantine at home or at the facility whose stored
  ``ends_on`` is before today becomes ENDED ("Period over: examination and release due"),
  once: a second run finds nothing, and a run after days of downtime catches up once per
  quarantine. The period is counted in calendar days, so weekends and holidays count.

Upcoming: quarantines ending in the window ("Quarantine ends") and those over, awaiting
the examination and release ("Examination and release due"), each with its section.
"""

import functools
from collections.abc import Iterable
from datetime import date, datetime

from django.db.models import BooleanField, ExpressionWrapper, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from base.together import Part
from ordinance.deadlines import Deadline, UpcomingQuery, register_sweep, register_upcoming
from ordinance.sweeps import run_sweep
from rabies.models import QUARANTINE_ACTIVE, Quarantine, QuarantineStatus
from rabies.services.quarantine import mark_ended


@register_sweep("rabies.quarantine_ended")
def sweep_quarantine_ended(*, now: datetime, dry_run: bool = False):
    today = timezone.localdate(now)
    return run_sweep(
        name="rabies quarantines end",
        action="rabies.quarantine.ended",
        due=Quarantine.objects.filter(
            status__in=QUARANTINE_ACTIVE, ends_on__lt=today
        ).select_related("jurisdiction"),
        still_applies=lambda q: q.may("end") and q.ends_on < today,
        transition=lambda q, at: mark_ended(q, on=today, at=at),
        now=now,
        dry_run=dry_run,
        transition_records=True,
    )


@register_upcoming("rabies.quarantines")
def upcoming_quarantines(*, jurisdiction_ids, start: date, end: date) -> Iterable[Deadline]:
    """Quarantines ending, and ended ones awaiting examination and release, read with one
    query, whatever the number of cities."""
    running = Q(status__in=QUARANTINE_ACTIVE, ends_on__range=(start, end))
    ended = Q(status=QuarantineStatus.ENDED, ends_on__lte=end)
    quarantines = (
        Quarantine.objects.filter(running | ended, jurisdiction_id__in=jurisdiction_ids)
        .annotate(is_running=ExpressionWrapper(running, output_field=BooleanField()))
        .order_by("pk")
    )
    part = Part(quarantines, related=("jurisdiction",), extra=("is_running",))
    yield UpcomingQuery({"rows": part}, functools.partial(_quarantine_deadlines, start=start))


def _quarantine_deadlines(found, *, start: date) -> Iterable[Deadline]:
    quarantines = found["rows"]
    for q in (q for q in quarantines if q.is_running):
        yield Deadline(
            due=q.ends_on,
            what=_("Quarantine ends"),
            subject=q.number,
            consequence=_("examine the animal; release only through the city's gate"),
            citation=q.end_citation,
            url=q.get_absolute_url(),
            jurisdiction=q.jurisdiction.short_name,
        )
    for q in (q for q in quarantines if not q.is_running):
        yield Deadline(
            due=max(q.ends_on, start),
            what=_("Examination and release due"),
            subject=q.number,
            consequence=_("record the examination and the release gate's items"),
            citation=q.end_citation,
            url=q.get_absolute_url(),
            jurisdiction=q.jurisdiction.short_name,
        )
