"""The sweep pattern of architecture.md, written once.

A deadline is a date stored on a row. A sweep selects the rows that are due *and still in
the state the deadline applies to*, locks them, re-checks the state under the lock,
applies the transition and records an event. Running it twice, or from two beats at
once, changes nothing the second time; a sweep that was down for a week catches up on
its next run, because "due" is ``deadline <= today``, not ``deadline == today``.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.db import connection, models, transaction

from .models import Event

# Rows are locked and transitioned in chunks so one slow row never holds thousands of
# locks and a crash mid-run loses at most one chunk's work (which the next run redoes).
CHUNK_SIZE = 200


@dataclass
class SweepResult:
    name: str
    due: int = 0
    applied: int = 0
    dry_run: bool = False

    def __str__(self):
        verb = "would apply" if self.dry_run else "applied"
        return f"{self.name}: {self.due} due, {verb} {self.applied}"


def lock(queryset: models.QuerySet) -> models.QuerySet:
    """``select_for_update(skip_locked=True)`` where the database supports it.

    SQLite serialises writers itself and has no row locks; there the plain queryset is
    the right thing, and the re-check of the state inside the transaction still holds.
    """
    features = connection.features
    if not features.has_select_for_update:
        return queryset
    if features.has_select_for_update_skip_locked:
        return queryset.select_for_update(skip_locked=True, of=("self",))
    return queryset.select_for_update()


def run_sweep(
    *,
    name: str,
    action: str,
    due: models.QuerySet,
    still_applies: Callable[[models.Model], bool],
    transition: Callable[[models.Model, datetime], dict | None],
    now: datetime,
    dry_run: bool = False,
    transition_records: bool = False,
) -> SweepResult:
    """Apply ``transition`` to every row of ``due`` whose state ``still_applies``.

    ``due`` filters on the stored deadline and the expected state; it is evaluated again
    under the lock, so a row another worker already moved drops out. ``transition``
    changes and saves the row and returns data for the event (or None); a transition that
    is a model's named transition records its own Event (``transition_records=True``).
    """
    result = SweepResult(name=name, dry_run=dry_run)
    pks = list(due.order_by("pk").values_list("pk", flat=True))
    result.due = len(pks)
    if dry_run:
        result.applied = len(pks)
        return result
    for start in range(0, len(pks), CHUNK_SIZE):
        chunk = pks[start : start + CHUNK_SIZE]
        with transaction.atomic():
            for row in lock(due.filter(pk__in=chunk)):
                if not still_applies(row):
                    continue
                data = transition(row, now)
                if not transition_records:
                    Event.record(action, row, data=data, at=now, summary=f"{name} (automatic)")
                result.applied += 1
    return result
