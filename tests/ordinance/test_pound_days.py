"""A pound's regular business days and the hold end (Minn. Stat. 346.47 subds. 1-2;
rules.md Appendix H MN-01, MN-02).

A regular business day is a day the pound is open to the public at least four
consecutive hours between 8:00 a.m. and 7:00 p.m.; the hold ends on the later of the
ordinance's count and the pound's five regular business days.
"""

from datetime import date, time, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ordinance.amendments import state_rule_amend
from ordinance.calendar import (
    HoldEnd,
    NoRegularBusinessDay,
    add_regular_business_days,
    due_date,
    impound_hold_end,
    is_regular_business_day,
    later_of,
    state_holidays,
)
from ordinance.models import ClosedDay

MONDAY = date(2026, 3, 2)  # no holiday that week or the next
SATURDAY = date(2026, 3, 7)
WEEKDAYS_9_TO_5 = {day: [(time(9), time(17))] for day in range(5)}
STATUTE = "Minn. Stat. 346.47 subd. 2"


def hours(*intervals, days=range(5)):
    return {day: list(intervals) for day in days}


def add(city, start, n, weekly_hours, **kwargs):
    return add_regular_business_days(city, start, n, weekly_hours=weekly_hours, **kwargs)


def counts(city, day, weekly_hours, **kwargs):
    return is_regular_business_day(city, day, weekly_hours=weekly_hours, **kwargs)


# --- which days count ------------------------------------------------------------------


def test_a_pound_open_weekdays_nine_to_five_counts_every_weekday(glencoe):
    assert all(counts(glencoe, MONDAY + timedelta(days=i), WEEKDAYS_9_TO_5) for i in range(5))
    assert not counts(glencoe, SATURDAY, WEEKDAYS_9_TO_5)  # not in its weekly hours
    assert add(glencoe, MONDAY, 5, WEEKDAYS_9_TO_5) == date(2026, 3, 9)


def test_three_hours_on_saturday_is_not_a_regular_business_day(glencoe):
    weekly = {**WEEKDAYS_9_TO_5, 5: [(time(10), time(13))]}
    assert not counts(glencoe, SATURDAY, weekly)
    assert add(glencoe, date(2026, 3, 6), 1, weekly) == date(2026, 3, 9)  # Friday -> Monday


@pytest.mark.parametrize(
    ("intervals", "is_regular"),
    [
        ([(time(6), time(10))], False),  # only 8-10 is inside the window: two hours
        ([(time(8), time(10)), (time(13), time(17))], True),  # 13-17: four consecutive
        ([(time(8), time(10)), (time(11), time(13))], False),  # 2 + 2 is not consecutive
        ([(time(8), time(10)), (time(10), time(12))], True),  # touching: 8-12
        ([(time(10), time(12)), (time(8), time(11))], True),  # overlapping, any order
        ([(time(15), time(19))], True),  # exactly four, ending at 7 p.m.
        ([(time(15, 30), time(20))], False),  # 3.5 hours before 7 p.m.
        ([(time(7), time(11, 59))], False),  # 3 h 59 min after 8 a.m.
        ([(time(7), time(12))], True),
        ([], False),
    ],
)
def test_only_four_consecutive_hours_between_8_am_and_7_pm_count(glencoe, intervals, is_regular):
    assert counts(glencoe, MONDAY, {0: intervals}) is is_regular


def test_a_pound_with_no_regular_business_day_refuses_instead_of_searching_forever(glencoe):
    with pytest.raises(NoRegularBusinessDay) as err:
        add(glencoe, MONDAY, 5, hours((time(6), time(10)), days=range(7)))
    assert "Minn. Stat. 346.47 subd. 1(2)" in str(err.value)
    assert "at least 4 consecutive hours between 08:00 and 19:00" in str(err.value)
    with pytest.raises(NoRegularBusinessDay):
        add(glencoe, MONDAY, 1, {})
    assert add(glencoe, MONDAY, 0, {}) == MONDAY  # nothing to count


def test_the_start_never_counts(glencoe):
    assert add(glencoe, MONDAY, 1, WEEKDAYS_9_TO_5) == MONDAY + timedelta(days=1)
    assert add(glencoe, SATURDAY, 1, WEEKDAYS_9_TO_5) == date(2026, 3, 9)


def test_a_closure_date_is_skipped(glencoe):
    closed = {date(2026, 3, 4)}  # Wednesday
    assert not counts(glencoe, date(2026, 3, 4), WEEKDAYS_9_TO_5, closed=closed)
    assert add(glencoe, MONDAY, 5, WEEKDAYS_9_TO_5, closed=closed) == date(2026, 3, 10)


def test_state_holidays_are_closed_by_default_and_can_be_counted(glencoe):
    thanksgiving = date(2026, 11, 26)
    assert thanksgiving in state_holidays("MN", 2026)
    assert not counts(glencoe, thanksgiving, WEEKDAYS_9_TO_5)
    assert counts(glencoe, thanksgiving, WEEKDAYS_9_TO_5, holidays_closed=False)
    # The Friday after is no state holiday: a pound closed that day enters a closure.
    assert counts(glencoe, date(2026, 11, 27), WEEKDAYS_9_TO_5)
    start = date(2026, 11, 25)
    assert add(glencoe, start, 5, WEEKDAYS_9_TO_5, holidays_closed=False) == date(2026, 12, 2)


def test_bad_hours_are_refused(glencoe):
    with pytest.raises(ValueError, match="not a weekday"):
        add(glencoe, MONDAY, 1, {7: [(time(9), time(17))]})
    with pytest.raises(ValueError, match="close before they open"):
        add(glencoe, MONDAY, 1, {0: [(time(17), time(9))]})
    with pytest.raises(ValueError, match="forward only"):
        add(glencoe, MONDAY, -1, WEEKDAYS_9_TO_5)


def test_the_definition_is_read_from_the_state_layer_in_force(glencoe):
    state_rule_amend(
        state="MN",
        key="regular_business_day_min_hours",
        value=3,
        effective_from=date(2027, 8, 1),
        law_ref="2027 Minn. Laws ch. 99",
    )
    saturday_mornings = {5: [(time(10), time(13))]}
    assert not counts(glencoe, date(2027, 7, 31), saturday_mornings)
    assert counts(glencoe, date(2027, 8, 7), saturday_mornings)
    # The definition in force at intake applies to the whole count.
    assert counts(glencoe, date(2027, 8, 7), saturday_mornings, on=date(2027, 7, 31)) is False


# --- the hold end: the later of the two counts -----------------------------------------


def test_worked_example_glencoe_intake_before_thanksgiving(glencoe):
    # Intake Wednesday November 25, 2026; Thanksgiving Thursday November 26; the pound is
    # open Monday to Friday 9-17: Fri 27, Mon 30, Tue 1, Wed 2, Thu 3.
    intake = date(2026, 11, 25)
    assert add(glencoe, intake, 5, WEEKDAYS_9_TO_5) == date(2026, 12, 3)
    end = impound_hold_end(glencoe, intake, weekly_hours=WEEKDAYS_9_TO_5)
    assert end == HoldEnd(
        ends_on=date(2026, 12, 3),
        citation=f"Glencoe 701 Subd. 13; {STATUTE}",
        ordinance_ends_on=date(2026, 12, 3),
        ordinance_citation="Glencoe 701 Subd. 13",
        pound_ends_on=date(2026, 12, 3),
        pound_citation=STATUTE,
        why="The hold ends on Dec 3, 2026: Glencoe 701 Subd. 13 and the pound's regular "
        f"business days ({STATUTE}) both end then.",
    )


def test_a_pound_open_fewer_days_makes_the_hold_longer(glencoe):
    mon_wed_fri = hours((time(9), time(17)), days=(0, 2, 4))
    end = impound_hold_end(glencoe, date(2026, 11, 25), weekly_hours=mon_wed_fri)
    # Fri 27, Mon 30, Wed 2, Fri 4, Mon 7.
    assert (end.ends_on, end.citation) == (date(2026, 12, 7), STATUTE)
    assert end.ordinance_ends_on == date(2026, 12, 3)
    assert end.why == (
        f"The hold ends on Dec 7, 2026, when the pound's regular business days ({STATUTE}) "
        "end, later than Glencoe 701 Subd. 13 (Dec 3, 2026)."
    )


def test_the_ordinance_count_governs_when_it_ends_later(glencoe):
    ClosedDay.objects.create(jurisdiction=glencoe, date=date(2026, 11, 27), reason="City hall")
    six_days = hours((time(9), time(17)), days=range(6))
    end = impound_hold_end(glencoe, date(2026, 11, 25), weekly_hours=six_days)
    # City hall: Mon 30 ... Fri 4; the pound: Fri 27, Sat 28, Mon 30, Tue 1, Wed 2.
    assert (end.ends_on, end.citation) == (date(2026, 12, 4), "Glencoe 701 Subd. 13")
    assert end.pound_ends_on == date(2026, 12, 2)
    assert end.why == (
        "The hold ends on Dec 4, 2026, when Glencoe 701 Subd. 13 ends, later than the "
        f"pound's regular business days ({STATUTE}, Dec 2, 2026)."
    )


def test_a_statute_amendment_lengthens_the_pound_count_from_its_date(north_branch):
    state_rule_amend(
        state="MN",
        key="pound_hold_regular_business_days",
        value=7,
        effective_from=date(2027, 8, 1),
        law_ref="2027 Minn. Laws ch. 99",
    )
    before = impound_hold_end(north_branch, date(2027, 7, 30), weekly_hours=WEEKDAYS_9_TO_5)
    after = impound_hold_end(north_branch, date(2027, 8, 2), weekly_hours=WEEKDAYS_9_TO_5)
    assert before.pound_ends_on == date(2027, 8, 6)  # Friday: 5 days
    assert after.pound_ends_on == date(2027, 8, 11)  # Wednesday: 7 days
    assert after.citation == STATUTE and after.ordinance_citation == "North Branch Sec. 6-68"


def test_another_hold_is_counted_by_its_own_unit_against_the_pound(glencoe):
    # Glencoe's seven days to reclaim a seized dangerous dog are calendar days.
    end = impound_hold_end(
        glencoe, date(2026, 11, 25), weekly_hours=WEEKDAYS_9_TO_5, key="dd_reclaim_days"
    )
    assert (end.ordinance_ends_on, end.pound_ends_on) == (date(2026, 12, 2), date(2026, 12, 3))
    assert end.ordinance_citation.startswith("Glencoe 701 Subd. 15")
    assert (end.ends_on, end.citation) == (date(2026, 12, 3), STATUTE)


def test_later_of_is_pure_and_cites_the_later():
    assert (
        later_of(ordinance=(date(2026, 1, 9), "A"), pound=(date(2026, 1, 8), "B")).citation == "A"
    )
    assert (
        later_of(ordinance=(date(2026, 1, 8), "A"), pound=(date(2026, 1, 9), "B")).citation == "B"
    )


def test_the_pound_count_cannot_be_asked_of_due_date(glencoe):
    with pytest.raises(ValueError, match="add_regular_business_days"):
        due_date(glencoe, "pound_hold_regular_business_days", MONDAY)


def test_the_hold_end_reads_its_rules_with_few_queries(glencoe, django_assert_max_num_queries):
    # One for both layers' rules, one for the definition, one window of city closed days.
    with django_assert_max_num_queries(3):
        impound_hold_end(glencoe, date(2026, 11, 25), weekly_hours=WEEKDAYS_9_TO_5)


intervals = st.lists(
    st.tuples(st.integers(0, 22), st.integers(1, 6)).map(
        lambda t: (time(t[0]), time(min(t[0] + t[1], 23)))
    ),
    max_size=2,
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    start=st.dates(min_value=date(2024, 1, 1), max_value=date(2029, 12, 31)),
    n=st.integers(min_value=1, max_value=8),
    weekly=st.dictionaries(st.integers(0, 6), intervals, min_size=1),
)
def test_the_result_is_the_nth_regular_business_day_after_start(glencoe, start, n, weekly):
    try:
        end = add(glencoe, start, n, weekly, on=start)
    except NoRegularBusinessDay:
        assert not any(
            counts(glencoe, start + timedelta(days=i), weekly, on=start) for i in range(1, 8 * 7)
        )
        return
    assert end > start and counts(glencoe, end, weekly, on=start)
    between = [start + timedelta(days=i) for i in range(1, (end - start).days + 1)]
    assert sum(counts(glencoe, day, weekly, on=start) for day in between) == n
