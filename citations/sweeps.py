"""Citation sweep and upcoming deadline, registered with ordinance.

- ``citations.outcome_overdue``: a citation still awaiting its outcome (issued or
  contested) whose stored ``appearance_on`` is before today is flagged once
  (``outcome_overdue_at``) for staff to find out what the court did. It selects on
  ``appearance_on < today``, the expected status and no flag yet, so a second run flags
  nothing and a run after a week down catches up once per citation (ordinance.sweeps).
- ``citations.appearances``: the appearance date as an upcoming deadline.
"""

from collections.abc import Iterable
from datetime import date, datetime

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from base.together import Part
from citations.models import AWAITING_OUTCOME, Citation
from ordinance.deadlines import Deadline, UpcomingQuery, register_sweep, register_upcoming
from ordinance.sweeps import run_sweep


@register_sweep("citations.outcome_overdue")
def sweep_outcome_overdue(*, now: datetime, dry_run: bool = False):
    today = timezone.localdate(now)

    def still_applies(citation):
        return (
            citation.awaiting_outcome
            and citation.appearance_on < today
            and citation.outcome_overdue_at is None
        )

    def flag(citation, at):
        citation.outcome_overdue_at = at
        citation.save(update_fields=["outcome_overdue_at"])
        return {"number": citation.number, "appearance_on": str(citation.appearance_on)}

    return run_sweep(
        name="citations past their appearance date with no outcome",
        action="citations.citation.outcome_overdue",
        due=Citation.objects.filter(
            status__in=AWAITING_OUTCOME,
            appearance_on__lt=today,
            outcome_overdue_at__isnull=True,
        ),
        still_applies=still_applies,
        transition=flag,
        now=now,
        dry_run=dry_run,
    )


@register_upcoming("citations.appearances")
def upcoming_appearances(*, jurisdiction_ids, start: date, end: date) -> Iterable[Deadline]:
    citations = Citation.objects.filter(
        jurisdiction_id__in=jurisdiction_ids,
        status__in=AWAITING_OUTCOME,
        appearance_on__range=(start, end),
    )
    yield UpcomingQuery({"rows": Part(citations, related=("jurisdiction",))}, _appearances)


def _appearances(found) -> Iterable[Deadline]:
    for citation in found["rows"]:
        yield Deadline(
            due=citation.appearance_on,
            what=_("Court appearance on a citation"),
            subject=_("Citation %(n)s") % {"n": citation.number},
            consequence=_("record the outcome"),
            citation=citation.violation_citation,
            url=reverse("citations:detail", args=[citation.pk]),
            jurisdiction=citation.jurisdiction.short_name,
        )
