"""Exposure sweeps and deadlines (Glencoe 701 Subd. 22; rules.md RAB-26..30, Appendix B5).

- ``rabies.exposure_periods``: an observation, enclosure or quarantine whose stored end
  (``period_ends_on``) is before today becomes "Period over: release due", once; a run
  after days down catches up once per case.

Upcoming deadlines (``rabies.exposures``): periods ending, Board reports not yet sent
(RAB-30 gives no deadline: shown from the exposure on), and the vaccination before release
of an unvaccinated dog or cat in quarantine (the period's end less the pre-release months,
RAB-26).
"""

import functools
from collections.abc import Iterable
from datetime import date, datetime

from django.db.models import BooleanField, ExpressionWrapper, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from base.together import Part
from ordinance.deadlines import Deadline, UpcomingQuery, register_sweep, register_upcoming
from ordinance.rules import rule_citation
from ordinance.sweeps import run_sweep
from rabies.models import EXPOSURE_OPEN, EXPOSURE_RUNNING, Exposure, ExposurePath, ExposureStatus
from rabies.services.exposures import mark_ended, vaccinate_by


@register_sweep("rabies.exposure_periods")
def sweep_exposure_periods(*, now: datetime, dry_run: bool = False):
    today = timezone.localdate(now)
    return run_sweep(
        name="exposure periods end",
        action="rabies.exposure.ended",
        due=Exposure.objects.filter(
            status__in=EXPOSURE_RUNNING, period_ends_on__lt=today
        ).select_related("jurisdiction"),
        still_applies=lambda e: e.may("end") and e.period_ends_on < today,
        transition=lambda e, at: mark_ended(e, on=today, at=at),
        now=now,
        dry_run=dry_run,
        transition_records=True,
    )


@register_upcoming("rabies.exposures")
def upcoming_exposures(*, jurisdiction_ids, start: date, end: date) -> Iterable[Deadline]:
    """Periods ending, Board reports not yet sent and vaccinations due before release,
    read with one query of the exposures."""
    conditions = {
        "running": Q(status__in=EXPOSURE_RUNNING, period_ends_on__range=(start, end)),
        "unsent": Q(board_report_sent_on__isnull=True, exposed_on__lte=end),
        "quarantined": Q(
            path=ExposurePath.UNVACCINATED_DOG_CAT,
            status__in=(ExposureStatus.QUARANTINE, ExposureStatus.ENDED),
            prerelease_vaccinated_on__isnull=True,
        ),
    }
    flags = {
        f"is_{kind}": ExpressionWrapper(q, output_field=BooleanField())
        for kind, q in conditions.items()
    }
    exposures = (
        Exposure.objects.filter(
            conditions["running"] | conditions["unsent"] | conditions["quarantined"],
            jurisdiction_id__in=jurisdiction_ids,
        )
        .annotate(**flags)
        .order_by("pk")
    )
    part = Part(exposures, related=("jurisdiction",), extra=tuple(flags))
    yield UpcomingQuery(
        {"rows": part}, functools.partial(_exposure_deadlines, start=start, end=end)
    )


def _exposure_deadlines(found, *, start: date, end: date) -> Iterable[Deadline]:
    exposures = found["rows"]
    for exposure in (e for e in exposures if e.is_running):
        yield Deadline(
            due=exposure.period_ends_on,
            what=_("%(status)s: period ends") % {"status": exposure.get_status_display()},
            subject=exposure.number,
            consequence=_("release due, on the conditions of the section"),
            citation=exposure.period_citation,
            url=exposure.get_absolute_url(),
            jurisdiction=exposure.jurisdiction.short_name,
        )
    for exposure in (e for e in exposures if e.is_unsent):
        yield Deadline(
            due=max(exposure.exposed_on, start),
            what=_("Report to the Board of Animal Health not yet sent"),
            subject=exposure.number,
            consequence=_("send the report and record its sending"),
            citation=rule_citation(exposure.jurisdiction, "RAB-30"),
            url=exposure.get_absolute_url(),
            jurisdiction=exposure.jurisdiction.short_name,
        )
    for exposure in (e for e in exposures if e.is_quarantined):
        due = vaccinate_by(exposure)
        if due is None or due > end:
            continue
        yield Deadline(
            due=max(due, start),
            what=_("Vaccination before release due"),
            subject=exposure.number,
            consequence=_("the animal is not released until the months after it have passed"),
            citation=exposure.path_citation,
            url=exposure.get_absolute_url(),
            jurisdiction=exposure.jurisdiction.short_name,
        )


__all__ = ["EXPOSURE_OPEN", "sweep_exposure_periods", "upcoming_exposures"]
