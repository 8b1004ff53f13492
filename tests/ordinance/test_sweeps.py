"""The sweep helper: once when run twice, and catching up after downtime."""

from datetime import date, timedelta

import pytest
import time_machine
from django.contrib.contenttypes.models import ContentType
from django.db import connection, models
from django.utils import timezone

from ordinance import deadlines
from ordinance.models import Event
from ordinance.sweeps import run_sweep


class Notice(models.Model):
    """A throwaway table: a notice that lapses on its stored deadline."""

    status = models.CharField(max_length=10, default="open")
    lapses_on = models.DateField()

    class Meta:
        app_label = "ordinance"
        managed = False

    def __str__(self):
        return f"notice {self.pk} ({self.status})"


@pytest.fixture
def notice_table(transactional_db):
    # The content type's id is cached per process; a transactional test before this one
    # may have flushed the row the cache names (the events' subject_type).
    ContentType.objects.clear_cache()
    with connection.schema_editor() as editor:
        editor.create_model(Notice)
    yield Notice
    with connection.schema_editor() as editor:
        editor.delete_model(Notice)
    ContentType.objects.clear_cache()


def lapse(*, now, dry_run=False):
    today = timezone.localdate(now)
    return run_sweep(
        name="test notices lapse",
        action="test.notice.lapsed",
        due=Notice.objects.filter(status="open", lapses_on__lte=today),
        still_applies=lambda n: n.status == "open",
        transition=lambda n, now: _close(n),
        now=now,
        dry_run=dry_run,
    )


def _close(notice):
    notice.status = "lapsed"
    notice.save(update_fields=["status"])
    return {"lapses_on": notice.lapses_on.isoformat()}


def test_a_sweep_run_twice_applies_each_transition_once(notice_table):
    today = date(2026, 3, 10)
    due = Notice.objects.create(lapses_on=today)
    Notice.objects.create(lapses_on=today + timedelta(days=1))
    with time_machine.travel(timezone.make_aware(timezone.datetime(2026, 3, 10, 12)), tick=False):
        first = lapse(now=timezone.now())
        second = lapse(now=timezone.now())
    assert (first.due, first.applied) == (1, 1)
    assert (second.due, second.applied) == (0, 0)
    due.refresh_from_db()
    assert due.status == "lapsed"
    assert Event.objects.filter(action="test.notice.lapsed").count() == 1


def test_a_sweep_catches_up_on_rows_that_fell_due_days_ago(notice_table):
    for days_ago in (9, 5, 1, 0):
        Notice.objects.create(lapses_on=date(2026, 3, 10) - timedelta(days=days_ago))
    future = Notice.objects.create(lapses_on=date(2026, 3, 11))
    with time_machine.travel(timezone.make_aware(timezone.datetime(2026, 3, 10, 8)), tick=False):
        result = lapse(now=timezone.now())
    assert result.applied == 4
    assert Notice.objects.filter(status="lapsed").count() == 4
    future.refresh_from_db()
    assert future.status == "open"


def test_a_row_moved_by_someone_else_is_left_alone(notice_table):
    notice = Notice.objects.create(lapses_on=date(2026, 3, 1))
    result = run_sweep(
        name="t",
        action="test.notice.lapsed",
        due=Notice.objects.filter(status="open", lapses_on__lte=date(2026, 3, 10)),
        still_applies=lambda n: False,  # e.g. redeemed between the select and the lock
        transition=lambda n, now: _close(n),
        now=timezone.now(),
    )
    notice.refresh_from_db()
    assert result.applied == 0 and notice.status == "open"


def test_dry_run_counts_and_changes_nothing(notice_table):
    Notice.objects.create(lapses_on=date(2020, 1, 1))
    result = lapse(now=timezone.now(), dry_run=True)
    assert result.applied == 1 and result.dry_run
    assert Notice.objects.get().status == "open"
    assert "would apply 1" in str(result)


def test_sweep_all_runs_registered_sweeps_once_each(notice_table, monkeypatch):
    monkeypatch.setattr(deadlines, "_sweeps", {"test": lapse})
    Notice.objects.create(lapses_on=date(2020, 1, 1))
    from ordinance.tasks import sweep_all

    # Celery's "a join would block" mark is one flag for the whole process, raised while
    # any thread runs an eager task (a live server thread of a browser test laying out a
    # document); this thread waits on no worker, so it may always read the result.
    assert sweep_all.delay().get(disable_sync_subtasks=False) == [
        "test notices lapse: 1 due, applied 1"
    ]
    assert sweep_all.delay().get(disable_sync_subtasks=False) == [
        "test notices lapse: 0 due, applied 0"
    ]


def test_upcoming_lists_across_apps_soonest_first(monkeypatch):
    today = date(2026, 3, 10)

    def one(*, jurisdiction_ids, start, end):
        yield deadlines.Deadline(today + timedelta(days=3), "Hold ends", "Case 2", "x", "NB 6-68")

    def two(*, jurisdiction_ids, start, end):
        yield deadlines.Deadline(today, "Quarantine ends", "Case 1", "y", "NB 6-98")

    monkeypatch.setattr(deadlines, "_upcoming", {"a": one, "b": two})
    found = deadlines.upcoming(jurisdiction_ids=[1], today=today)
    assert [d.subject for d in found] == ["Case 1", "Case 2"]


def test_events_are_append_only(db):
    event = Event.record("test.thing.happened", summary="x")
    with pytest.raises(RuntimeError):
        event.save()
    with pytest.raises(RuntimeError):
        event.delete()
