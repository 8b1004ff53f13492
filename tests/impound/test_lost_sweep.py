"""Lost-pet reports expire by the beat sweep ``impound.lost_reports_expire``: the stored
``expires_on`` (the profile's program setting ``lost_report_open_days``) passes, the
report is expired the next day, never during its last day; a second run changes nothing;
a run after days down catches up once per report; a renewed report stays open
(ordinance.sweeps.run_sweep)."""

from datetime import date

import pytest
import time_machine

from impound.models import LostReport, LostStatus
from impound.services.lost import lost_report_renew
from impound.sweeps import sweep_lost_reports_expire
from ordinance.models import Event
from tests.impound.helpers import at
from tests.impound.lost_helpers import report

pytestmark = pytest.mark.django_db


@pytest.fixture
def reports(north_branch, glencoe, resident, other_resident):
    """Filed Friday, November 27, 2026 (the day after Thanksgiving): open through
    Sunday, December 27; one filed Monday the 30th, open through December 30."""
    return {
        "due": report(north_branch, resident, when=at(2026, 11, 27, 9), lost_on=date(2026, 11, 26)),
        "later": report(glencoe, other_resident, when=at(2026, 11, 30, 9)),
    }


def _statuses(reports):
    return {name: LostReport.objects.get(pk=r.pk).status for name, r in reports.items()}


def test_a_report_expires_the_day_after_its_last_day_even_on_a_weekend(reports):
    assert reports["due"].expires_on == date(2026, 12, 27)  # a Sunday
    result = sweep_lost_reports_expire(now=at(2026, 12, 27, 23, 0))
    assert (result.due, result.applied) == (0, 0)
    result = sweep_lost_reports_expire(now=at(2026, 12, 28, 0, 5))  # Monday
    assert (result.due, result.applied) == (1, 1)
    assert _statuses(reports) == {"due": LostStatus.EXPIRED, "later": LostStatus.OPEN}
    assert Event.objects.filter(action="impound.lost.expired").count() == 1


def test_running_twice_changes_nothing_the_second_time(reports):
    sweep_lost_reports_expire(now=at(2026, 12, 28, 6))
    again = sweep_lost_reports_expire(now=at(2026, 12, 28, 6, 5))
    assert (again.due, again.applied) == (0, 0)
    assert Event.objects.filter(action="impound.lost.expired").count() == 1
    assert LostReport.objects.get(pk=reports["due"].pk).history.count() == 2


def test_a_run_after_downtime_catches_up_once_per_report(reports):
    with time_machine.travel(at(2027, 1, 4, 9), tick=False):
        result = sweep_lost_reports_expire(now=at(2027, 1, 4, 9))
    assert (result.due, result.applied) == (2, 2)
    assert set(_statuses(reports).values()) == {LostStatus.EXPIRED}


def test_a_renewed_report_stays_open(reports, resident):
    with time_machine.travel(at(2026, 12, 20, 9), tick=False):
        lost_report_renew(report=reports["due"], actor=resident)
    assert sweep_lost_reports_expire(now=at(2026, 12, 28, 6)).applied == 0
    assert LostReport.objects.get(pk=reports["due"].pk).expires_on == date(2027, 1, 19)


def test_a_dry_run_counts_and_changes_nothing(reports):
    result = sweep_lost_reports_expire(now=at(2027, 1, 4, 9), dry_run=True)
    assert (result.due, result.applied, result.dry_run) == (2, 2, True)
    assert set(_statuses(reports).values()) == {LostStatus.OPEN}
