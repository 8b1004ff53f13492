"""The sweep that marks quarantines over, and the upcoming deadlines."""

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from ordinance import deadlines
from ordinance.models import Event
from rabies.models import Quarantine, QuarantinePlace, QuarantineStatus
from rabies.sweeps_quarantine import sweep_quarantine_ended, upcoming_quarantines
from tests.rabies.helpers import make_quarantine

CHICAGO = ZoneInfo("America/Chicago")
pytestmark = [pytest.mark.django_db]


def night(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 2, 0, tzinfo=CHICAGO)


def period(ends_on):
    return {"starts_on": ends_on - timedelta(days=10), "ends_on": ends_on}


@pytest.fixture
def quarantines(north_branch, glencoe, officer):
    """Ending December 28 (a Monday after Christmas) at home and at the facility, and one
    ending January 5."""
    return {
        "home": make_quarantine(north_branch, officer, **period(date(2026, 12, 28))),
        "facility": make_quarantine(
            glencoe, officer, place=QuarantinePlace.FACILITY, **period(date(2026, 12, 28))
        ),
        "later": make_quarantine(north_branch, officer, **period(date(2027, 1, 5))),
    }


def statuses(rows):
    for q in rows.values():
        q.refresh_from_db()
    return {name: q.status for name, q in rows.items()}


@pytest.mark.clock("2026-12-29T02:00")
def test_not_on_the_last_day_then_once_the_day_after(quarantines):
    result = sweep_quarantine_ended(now=night(date(2026, 12, 28)))
    assert (result.due, result.applied) == (0, 0)
    result = sweep_quarantine_ended(now=night(date(2026, 12, 29)))
    assert (result.due, result.applied) == (2, 2)
    assert statuses(quarantines) == {
        "home": QuarantineStatus.ENDED,
        "facility": QuarantineStatus.ENDED,
        "later": QuarantineStatus.HOME,
    }
    assert quarantines["home"].ended_marked_on == date(2026, 12, 29)
    again = sweep_quarantine_ended(now=night(date(2026, 12, 29)))
    assert (again.due, again.applied) == (0, 0)
    events = Event.objects.filter(action="rabies.quarantine.ended")
    assert events.count() == 2
    assert "examination and release due" in events.first().summary


@pytest.mark.clock("2027-01-07T02:00")
def test_a_run_after_downtime_catches_up_once(quarantines):
    sweep_quarantine_ended(now=night(date(2027, 1, 7)))
    sweep_quarantine_ended(now=night(date(2027, 1, 7)))
    assert set(statuses(quarantines).values()) == {QuarantineStatus.ENDED}
    assert Event.objects.filter(action="rabies.quarantine.ended").count() == 3


def test_the_sweep_is_registered():
    assert "rabies.quarantine_ended" in deadlines.registered_sweeps()


@pytest.mark.clock("2026-12-22T10:00")
def test_upcoming_lists_ends_and_exams_due(quarantines, north_branch, glencoe):
    Quarantine.objects.filter(pk=quarantines["facility"].pk).update(status=QuarantineStatus.ENDED)
    start = date(2026, 12, 22)
    found = list(
        upcoming_quarantines(
            jurisdiction_ids=[north_branch.pk, glencoe.pk],
            start=start,
            end=start + timedelta(days=14),
        )
    )
    by_subject = {d.subject: d for d in found}
    home = by_subject[quarantines["home"].number]
    assert (home.what, home.due, home.citation) == (
        "Quarantine ends",
        date(2026, 12, 28),
        "North Branch Sec. 6-98",
    )
    ended = by_subject[quarantines["facility"].number]
    assert ended.what == "Examination and release due"
    assert ended.citation == "Glencoe 701 Subd. 21(A), (B)"
    assert quarantines["later"].number in by_subject
    only_nb = list(upcoming_quarantines(jurisdiction_ids=[north_branch.pk], start=start, end=start))
    assert only_nb == []
