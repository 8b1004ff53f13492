"""The exposure sweep (``rabies.exposure_periods``) and the upcoming deadlines
(``rabies.exposures``): each period marked over once, twice-run and after downtime."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from ordinance import deadlines
from ordinance.models import Event
from rabies.models import ExposurePath, ExposureStatus
from rabies.sweeps_exposures import sweep_exposure_periods, upcoming_exposures
from tests.rabies.helpers import make_exposure

CHICAGO = ZoneInfo("America/Chicago")


def moment(day: date, hour=2) -> datetime:
    return datetime(day.year, day.month, day.day, hour, tzinfo=CHICAGO)


def running(city, officer, status, ends_on, **fields):
    return make_exposure(
        city,
        officer,
        status=status,
        exposed_on=date(2026, 8, 31),
        period_starts_on=date(2026, 8, 31),
        period_ends_on=ends_on,
        period_citation="Glencoe 701 Subd. 22(B)",
        earliest_release_on=ends_on,
        **fields,
    )


@pytest.fixture
def cases(glencoe, officer):
    return {
        "observation": running(glencoe, officer, ExposureStatus.OBSERVATION, date(2026, 10, 15)),
        "enclosure": running(
            glencoe,
            officer,
            ExposureStatus.ENCLOSURE,
            date(2026, 11, 29),
            path=ExposurePath.VACCINATED_OTHER,
        ),
        "quarantine": running(
            glencoe,
            officer,
            ExposureStatus.QUARANTINE,
            date(2027, 2, 28),
            path=ExposurePath.UNVACCINATED_DOG_CAT,
        ),
        "reported": make_exposure(glencoe, officer, exposed_on=date(2026, 8, 31)),
    }


def statuses(cases):
    for c in cases.values():
        c.refresh_from_db()
    return {name: c.status for name, c in cases.items()}


def test_the_last_day_of_the_period_is_not_yet_over(cases):
    result = sweep_exposure_periods(now=moment(date(2026, 10, 15), 23))
    assert (result.due, result.applied) == (0, 0)
    assert statuses(cases)["observation"] == ExposureStatus.OBSERVATION


def test_a_period_over_is_marked_once_when_run_twice(cases):
    now = moment(date(2026, 10, 16))
    first = sweep_exposure_periods(now=now)
    assert (first.due, first.applied) == (1, 1)
    again = sweep_exposure_periods(now=now)
    assert (again.due, again.applied) == (0, 0)
    assert statuses(cases) == {
        "observation": ExposureStatus.ENDED,
        "enclosure": ExposureStatus.ENCLOSURE,
        "quarantine": ExposureStatus.QUARANTINE,
        "reported": ExposureStatus.REPORTED,
    }
    assert cases["observation"].ended_marked_on == date(2026, 10, 16)
    events = Event.objects.filter(action="rabies.exposure.ended")
    assert events.count() == 1
    assert "Glencoe 701 Subd. 22(B)" in events.get().summary


def test_after_downtime_one_run_catches_up_on_each_period_once(cases):
    result = sweep_exposure_periods(now=moment(date(2027, 3, 2)))  # down since October
    assert (result.due, result.applied) == (3, 3)
    assert statuses(cases) == {
        "observation": ExposureStatus.ENDED,
        "enclosure": ExposureStatus.ENDED,
        "quarantine": ExposureStatus.ENDED,
        "reported": ExposureStatus.REPORTED,
    }
    assert sweep_exposure_periods(now=moment(date(2027, 3, 3))).applied == 0
    assert Event.objects.filter(action="rabies.exposure.ended").count() == 3


def test_the_sweep_is_registered():
    assert "rabies.exposure_periods" in deadlines.registered_sweeps()


def test_upcoming_lists_periods_ending_board_reports_unsent_and_the_prerelease_vaccination(
    glencoe, officer, cases
):
    found = list(
        upcoming_exposures(
            jurisdiction_ids=[glencoe.pk], start=date(2027, 1, 1), end=date(2027, 3, 1)
        )
    )
    whats = {(d.subject, str(d.what), d.due) for d in found}
    quarantine = cases["quarantine"]
    assert (
        quarantine.number,
        "In quarantine under veterinary supervision: period ends",
        date(2027, 2, 28),
    ) in whats
    assert (quarantine.number, "Vaccination before release due", date(2027, 1, 28)) in whats
    unsent = [d for d in found if str(d.what).startswith("Report to the Board")]
    assert len(unsent) == 4 and all(d.citation == "Glencoe 701 Subd. 22(D)" for d in unsent)
    assert all(d.due == date(2027, 1, 1) for d in unsent)
    # The observation ended in October: not a deadline of this window.
    assert cases["observation"].number not in {d.subject for d in found if "period" in str(d.what)}


def test_a_sent_board_report_leaves_the_list(glencoe, officer):
    exposure = make_exposure(glencoe, officer, board_report_sent_on=date(2026, 9, 1))
    found = list(
        upcoming_exposures(
            jurisdiction_ids=[glencoe.pk], start=date(2026, 9, 1), end=date(2027, 9, 1)
        )
    )
    assert exposure.number not in {d.subject for d in found}
