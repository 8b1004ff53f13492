"""The suite's clock: ``@pytest.mark.clock`` stops it for a test, ``--clock`` shifts a run."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from tests.conftest import parse_clock

CHICAGO = ZoneInfo("America/Chicago")


@pytest.mark.clock("2026-12-31T23:30")
def test_the_marker_stops_the_clock_at_a_local_time():
    # Half an hour before the December 31 expiry in Central time is already January 1
    # in UTC: the local date is the legal date (LIC-07).
    assert timezone.localdate() == date(2026, 12, 31)
    assert timezone.now().date() == date(2027, 1, 1)
    assert timezone.now() == timezone.now()  # stopped, not ticking


@pytest.mark.clock("2028-02-29")
def test_a_date_alone_means_local_midnight(_fixed_clock):
    assert timezone.localtime() == datetime(2028, 2, 29, 0, 0, tzinfo=CHICAGO)


def test_a_clock_may_name_its_own_offset():
    assert parse_clock("2027-02-06T15:00+00:00") == datetime(2027, 2, 6, 9, 0, tzinfo=CHICAGO)
    assert parse_clock("2027-01-04").tzinfo == CHICAGO


def test_without_the_marker_no_clock_is_fixed(_fixed_clock):
    assert _fixed_clock is None
