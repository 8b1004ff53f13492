"""Business days (rules.md DEF-20, IMP-04): weekends, Minnesota holidays, city closed days."""

from datetime import date, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ordinance.calendar import (
    add_business_days,
    add_calendar_days,
    add_months,
    due_date,
    is_business_day,
    state_holidays,
)
from ordinance.models import ClosedDay
from ordinance.rules import RuleNotSet

days = st.dates(min_value=date(2020, 1, 1), max_value=date(2030, 12, 31))
counts = st.integers(min_value=0, max_value=25)
property_settings = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def count_business_days(jurisdiction, after, through):
    day, n = after, 0
    while day < through:
        day += timedelta(days=1)
        n += is_business_day(jurisdiction, day)
    return n


@property_settings
@given(start=days, n=st.integers(min_value=1, max_value=25))
def test_the_result_is_a_business_day_exactly_n_business_days_after_start(north_branch, start, n):
    end = add_business_days(north_branch, start, n)
    assert end > start
    assert is_business_day(north_branch, end)
    assert count_business_days(north_branch, start, end) == n


@property_settings
@given(start=days, later=st.integers(min_value=0, max_value=40), n=counts, more=counts)
def test_the_deadline_never_moves_earlier_for_a_later_start_or_a_longer_count(
    north_branch, start, later, n, more
):
    end = add_business_days(north_branch, start, n)
    assert add_business_days(north_branch, start + timedelta(days=later), n) >= end
    assert add_business_days(north_branch, start, n + more) >= end


def test_thanksgiving_is_a_holiday_but_the_day_after_is_not_in_minnesota(north_branch):
    # The holidays package lists Thanksgiving for MN but not the Friday after it, so a
    # city that closes that Friday enters it as a closed day.
    assert not is_business_day(north_branch, date(2025, 11, 27))
    assert is_business_day(north_branch, date(2025, 11, 28))
    # Impound on Wednesday before Thanksgiving: Fri, Mon, Tue, Wed, Thu.
    assert add_business_days(north_branch, date(2025, 11, 26), 5) == date(2025, 12, 4)


def test_a_city_closed_day_counts_only_for_that_city(north_branch, glencoe):
    ClosedDay.objects.create(
        jurisdiction=north_branch, date=date(2025, 11, 28), reason="Day after Thanksgiving"
    )
    assert not is_business_day(north_branch, date(2025, 11, 28))
    assert is_business_day(glencoe, date(2025, 11, 28))
    assert add_business_days(north_branch, date(2025, 11, 26), 5) == date(2025, 12, 5)
    assert add_business_days(glencoe, date(2025, 11, 26), 5) == date(2025, 12, 4)


def test_christmas_on_a_friday_pushes_the_count_to_monday(north_branch):
    assert date(2026, 12, 25).weekday() == 4
    assert not is_business_day(north_branch, date(2026, 12, 25))
    assert add_business_days(north_branch, date(2026, 12, 23), 2) == date(2026, 12, 28)


def test_new_years_day_on_a_saturday_is_observed_on_friday_december_31(north_branch):
    assert date(2022, 1, 1).weekday() == 5
    assert date(2021, 12, 31) in state_holidays("MN", 2021)
    assert not is_business_day(north_branch, date(2021, 12, 31))
    assert add_business_days(north_branch, date(2021, 12, 30), 1) == date(2022, 1, 3)


def test_counting_starts_the_day_after_the_event(north_branch):
    monday = date(2026, 3, 2)
    assert add_business_days(north_branch, monday, 0) == monday
    assert add_business_days(north_branch, monday, 1) == date(2026, 3, 3)
    assert add_business_days(north_branch, date(2026, 3, 6), 1) == date(2026, 3, 9)  # Fri
    with pytest.raises(ValueError):
        add_business_days(north_branch, monday, -1)


def test_a_long_count_reads_closed_days_a_window_at_a_time(
    north_branch, django_assert_max_num_queries
):
    """60 business days from New Year's Day 2026 (DEF-20): weekends, Martin Luther King Day
    (Jan 19) and Presidents' Day (Feb 16) skipped, so Monday, March 30; a city closed day
    on Friday, March 13 pushes it to Tuesday, March 31. Still a bounded number of queries."""
    with django_assert_max_num_queries(3):
        assert add_business_days(north_branch, date(2026, 1, 1), 60) == date(2026, 3, 30)
    ClosedDay.objects.create(
        jurisdiction=north_branch, date=date(2026, 3, 13), reason="Staff training"
    )
    with django_assert_max_num_queries(3):
        assert add_business_days(north_branch, date(2026, 1, 1), 60) == date(2026, 3, 31)


def test_calendar_days_and_months():
    assert add_calendar_days(date(2026, 2, 20), 14) == date(2026, 3, 6)
    assert add_months(date(2024, 2, 29), 24) == date(2026, 2, 28)
    assert add_months(date(2026, 1, 31), 1) == date(2026, 2, 28)


def test_due_date_uses_the_unit_of_the_rule(north_branch, glencoe):
    hold, rule = due_date(north_branch, "impound_hold_business_days", date(2025, 11, 26))
    assert hold == date(2025, 12, 4) and rule.citation == "North Branch Sec. 6-68"
    contest, rule = due_date(glencoe, "dd_contest_days", date(2026, 3, 2))
    assert contest == date(2026, 3, 16) and rule.citation == "Glencoe 701 Subd. 15(B), (J)"
    review, _ = due_date(glencoe, "dd_review_first_after_months", date(2025, 8, 31))
    assert review == date(2026, 2, 28)
    expiry, _ = due_date(north_branch, "license_expiry", date(2026, 3, 1))
    assert expiry == date(2026, 12, 31)


def test_due_date_refuses_a_blank_rule(glencoe):
    with pytest.raises(RuleNotSet, match="Glencoe 701 Subd. 4"):
        due_date(glencoe, "kennel_license_expiry", date(2026, 3, 1))
