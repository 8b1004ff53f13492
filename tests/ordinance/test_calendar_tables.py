"""Hand-checked tables for the business-day calendar (rules.md DEF-20, IMP-04).

The property tests in test_calendar.py compare ``add_business_days`` with helpers from the
same module, so a wrong holiday table would pass them. The tables below were worked out by
hand from a printed calendar (``python -m calendar 2027``), not from the code or the
``holidays`` package: a wrong holiday, a missing observed day or an off-by-one count fails.

Minnesota's legal holidays are those of Minn. Stat. 645.44 subd. 5: New Year's Day
(January 1), Martin Luther King's Birthday (third Monday in January), Washington's and
Lincoln's Birthday (third Monday in February), Memorial Day (last Monday in May),
Juneteenth (June 19), Independence Day (July 4), Labor Day (first Monday in September),
Christopher Columbus Day (second Monday in October), Veterans Day (November 11),
Thanksgiving Day (fourth Thursday in November) and Christmas Day (December 25). When
New Year's Day, Juneteenth, Independence Day, Veterans Day or Christmas Day falls on a
Sunday, the following day is a holiday; on a Saturday, the preceding day.

The same subdivision leaves two days to each political subdivision: "Other branches of
state government and political subdivisions shall have the option of determining whether
Christopher Columbus Day and the Friday after Thanksgiving shall be holidays" (the state's
executive branch takes the Friday and not Columbus Day). The code follows the ``holidays``
package, which lists neither for MN; a city that closes on either enters it as a closed
day (DEF-20: "A city calendar of holidays and closures, maintained by an administrator").
So the code's state holidays are the statute's list without Columbus Day, and both city-
option days are business days until a city enters them.
"""

from datetime import date

import pytest

from ordinance.calendar import add_business_days, is_business_day, state_holidays
from ordinance.models import ClosedDay

# Minn. Stat. 645.44 subd. 5, each year's days in order, observed days included; the
# weekday of each date is read off the printed calendar.
MINNESOTA_HOLIDAYS = {
    2026: {
        date(2026, 1, 1): "New Year's Day (Thursday)",
        date(2026, 1, 19): "Martin Luther King Jr. Day (Mondays 5, 12, 19)",
        date(2026, 2, 16): "Washington's and Lincoln's Birthday (Mondays 2, 9, 16)",
        date(2026, 5, 25): "Memorial Day (May 31 is a Sunday: last Monday the 25th)",
        date(2026, 6, 19): "Juneteenth (Friday)",
        date(2026, 7, 3): "Independence Day observed (July 4 is a Saturday)",
        date(2026, 7, 4): "Independence Day (Saturday)",
        date(2026, 9, 7): "Labor Day (first Monday)",
        date(2026, 10, 12): "Christopher Columbus Day (Mondays 5, 12)",
        date(2026, 11, 11): "Veterans Day (Wednesday)",
        date(2026, 11, 26): "Thanksgiving Day (Thursdays 5, 12, 19, 26)",
        date(2026, 12, 25): "Christmas Day (Friday)",
        # January 1, 2027 is a Friday: no observed day in 2026.
    },
    2027: {
        date(2027, 1, 1): "New Year's Day (Friday)",
        date(2027, 1, 18): "Martin Luther King Jr. Day (Mondays 4, 11, 18)",
        date(2027, 2, 15): "Washington's and Lincoln's Birthday (Mondays 1, 8, 15)",
        date(2027, 5, 31): "Memorial Day (last Monday)",
        date(2027, 6, 18): "Juneteenth observed (June 19 is a Saturday)",
        date(2027, 6, 19): "Juneteenth (Saturday)",
        date(2027, 7, 4): "Independence Day (Sunday)",
        date(2027, 7, 5): "Independence Day observed (the Monday after)",
        date(2027, 9, 6): "Labor Day (first Monday)",
        date(2027, 10, 11): "Christopher Columbus Day (Mondays 4, 11)",
        date(2027, 11, 11): "Veterans Day (Thursday)",
        date(2027, 11, 25): "Thanksgiving Day (Thursdays 4, 11, 18, 25)",
        date(2027, 12, 24): "Christmas Day observed (December 25 is a Saturday)",
        date(2027, 12, 25): "Christmas Day (Saturday)",
        date(2027, 12, 31): "New Year's Day 2028 observed (January 1, 2028 is a Saturday)",
    },
    2028: {
        date(2028, 1, 1): "New Year's Day (Saturday; observed Friday December 31, 2027)",
        date(2028, 1, 17): "Martin Luther King Jr. Day (Mondays 3, 10, 17)",
        date(2028, 2, 21): "Washington's and Lincoln's Birthday (Mondays 7, 14, 21)",
        date(2028, 5, 29): "Memorial Day (last Monday)",
        date(2028, 6, 19): "Juneteenth (Monday)",
        date(2028, 7, 4): "Independence Day (Tuesday)",
        date(2028, 9, 4): "Labor Day (first Monday)",
        date(2028, 10, 9): "Christopher Columbus Day (Mondays 2, 9)",
        date(2028, 11, 10): "Veterans Day observed (November 11 is a Saturday)",
        date(2028, 11, 11): "Veterans Day (Saturday)",
        date(2028, 11, 23): "Thanksgiving Day (Thursdays 2, 9, 16, 23)",
        date(2028, 12, 25): "Christmas Day (Monday)",
        # January 1, 2029 is a Monday: no observed day in 2028.
    },
}

# The days 645.44 subd. 5 leaves to each city: Columbus Day and the Friday after
# Thanksgiving. Neither city has entered them, so both are business days by default.
CITY_OPTION_DAYS = {
    2026: (date(2026, 10, 12), date(2026, 11, 27)),
    2027: (date(2027, 10, 11), date(2027, 11, 26)),
    2028: (date(2028, 10, 9), date(2028, 11, 24)),
}
YEARS = sorted(MINNESOTA_HOLIDAYS)


@pytest.mark.parametrize("year", YEARS)
def test_the_codes_minnesota_holidays_are_the_statutes_less_the_city_option_days(year):
    columbus_day, _friday = CITY_OPTION_DAYS[year]
    expected = set(MINNESOTA_HOLIDAYS[year]) - {columbus_day}
    assert set(state_holidays("MN", year)) == expected


@pytest.mark.parametrize("year", YEARS)
def test_every_statutory_holiday_but_columbus_day_is_closed_in_both_cities(
    north_branch, glencoe, year
):
    columbus_day, _friday = CITY_OPTION_DAYS[year]
    for city in (north_branch, glencoe):
        assert city.state == "MN"
        for day, name in MINNESOTA_HOLIDAYS[year].items():
            if day != columbus_day:
                assert not is_business_day(city, day), (city.slug, day, name)


@pytest.mark.parametrize("year", YEARS)
def test_columbus_day_and_the_friday_after_thanksgiving_are_open_until_a_city_closes_them(
    north_branch, glencoe, year
):
    days = CITY_OPTION_DAYS[year]
    assert [d.weekday() for d in days] == [0, 4]  # a Monday and a Friday
    for day in days:
        assert is_business_day(north_branch, day) and is_business_day(glencoe, day)
        ClosedDay.objects.create(jurisdiction=north_branch, date=day, reason="City option")
        assert not is_business_day(north_branch, day)
        assert is_business_day(glencoe, day)  # DEF-20: one city's calendar only


# (start, business days, expected, why), counted by hand; the start never counts (DEF-20,
# IMP-04: "excludes the intake day").
BUSINESS_DAYS = [
    (
        date(2026, 11, 25),
        5,
        date(2026, 12, 3),
        "Wed before Thanksgiving: Thu 26 holiday; Fri 27, Mon 30, Tue 1, Wed 2, Thu 3",
    ),
    (
        date(2026, 12, 18),
        5,
        date(2026, 12, 28),
        "Fri: Mon 21, Tue 22, Wed 23, Thu 24; Fri 25 Christmas; Mon 28",
    ),
    (
        date(2026, 12, 18),
        10,
        date(2027, 1, 5),
        "as above to Mon 28 (5), Tue 29, Wed 30, Thu 31; Fri Jan 1 holiday; Mon 4, Tue 5",
    ),
    (
        date(2027, 12, 30),
        5,
        date(2028, 1, 7),
        "Thu: Fri 31 observed New Year's Day; Sat 1, Sun 2; Mon 3 .. Fri 7",
    ),
    (
        date(2027, 12, 23),
        5,
        date(2028, 1, 3),
        "Thu: Fri 24 observed Christmas; Mon 27 .. Thu 30; Fri 31 observed New Year's; Mon 3",
    ),
    (
        date(2026, 3, 7),
        5,
        date(2026, 3, 13),
        "a Saturday: Sun 8 no; Mon 9, Tue 10, Wed 11, Thu 12, Fri 13",
    ),
    (date(2027, 9, 5), 1, date(2027, 9, 7), "a Sunday before Labor Day: Mon 6 holiday; Tue 7"),
    (
        date(2028, 2, 28),
        5,
        date(2028, 3, 6),
        "Mon: Tue Feb 29 (leap day), Wed Mar 1, Thu 2, Fri 3, Mon 6",
    ),
    (date(2028, 2, 25), 3, date(2028, 3, 1), "Fri: Mon 28, Tue 29 (leap day), Wed Mar 1"),
    (
        date(2028, 2, 18),
        5,
        date(2028, 2, 28),
        "Fri: Mon 21 Presidents' Day; Tue 22, Wed 23, Thu 24, Fri 25, Mon 28",
    ),
    (
        date(2026, 7, 2),
        1,
        date(2026, 7, 6),
        "Thu: Fri 3 observed Independence Day (4th a Saturday); Mon 6",
    ),
    (
        date(2027, 6, 30),
        5,
        date(2027, 7, 8),
        "Wed: Thu 1, Fri 2; Mon 5 observed Independence Day (4th a Sunday); Tue 6, Wed 7, Thu 8",
    ),
    (
        date(2027, 6, 17),
        1,
        date(2027, 6, 21),
        "Thu: Fri 18 observed Juneteenth (19th a Saturday); Mon 21",
    ),
    (date(2028, 6, 16), 1, date(2028, 6, 20), "Fri: Mon 19 Juneteenth; Tue 20"),
    (
        date(2028, 11, 9),
        5,
        date(2028, 11, 17),
        "Thu: Fri 10 observed Veterans Day (11th a Saturday); Mon 13 .. Fri 17",
    ),
    (date(2026, 11, 10), 1, date(2026, 11, 12), "Tue: Wed 11 Veterans Day; Thu 12"),
    (
        date(2028, 11, 22),
        5,
        date(2028, 11, 30),
        "Wed before Thanksgiving: Thu 23 holiday; Fri 24, Mon 27, Tue 28, Wed 29, Thu 30",
    ),
    (date(2027, 1, 15), 1, date(2027, 1, 19), "Fri: Mon 18 Martin Luther King Jr. Day; Tue 19"),
    (
        date(2027, 5, 28),
        5,
        date(2027, 6, 7),
        "Fri: Mon 31 Memorial Day; Tue 1, Wed 2, Thu 3, Fri 4, Mon 7",
    ),
    (
        date(2026, 10, 9),
        1,
        date(2026, 10, 12),
        "Fri: Mon 12 Columbus Day is open until the city enters it (645.44 subd. 5 option)",
    ),
    (
        date(2026, 1, 1),
        20,
        date(2026, 1, 30),
        "New Year's Day: Fri 2 (1), Jan 5-9 (6), 12-16 (11); Mon 19 MLK; 20-23 (15), 26-30 (20)",
    ),
    (date(2026, 12, 25), 0, date(2026, 12, 25), "zero days: the start itself, even on a holiday"),
]


@pytest.mark.parametrize(
    ("start", "n", "expected", "why"),
    BUSINESS_DAYS,
    ids=[f"{s}+{n}" for s, n, _e, _w in BUSINESS_DAYS],
)
def test_add_business_days_matches_the_hand_counted_table(north_branch, start, n, expected, why):
    assert add_business_days(north_branch, start, n) == expected, why


def test_a_city_that_closes_the_friday_after_thanksgiving_counts_one_day_later(
    north_branch, glencoe
):
    """DEF-20: North Branch closes Fri Nov 27, 2026 and Columbus Day; Glencoe does not."""
    ClosedDay.objects.create(
        jurisdiction=north_branch, date=date(2026, 11, 27), reason="Day after Thanksgiving"
    )
    ClosedDay.objects.create(
        jurisdiction=north_branch, date=date(2026, 10, 12), reason="Columbus Day"
    )
    # Wed Nov 25: Thu 26 holiday, Fri 27 closed; Mon 30, Tue 1, Wed 2, Thu 3, Fri 4.
    assert add_business_days(north_branch, date(2026, 11, 25), 5) == date(2026, 12, 4)
    assert add_business_days(glencoe, date(2026, 11, 25), 5) == date(2026, 12, 3)
    # Fri Oct 9: Mon 12 closed in North Branch; Tue 13.
    assert add_business_days(north_branch, date(2026, 10, 9), 1) == date(2026, 10, 13)
    assert add_business_days(glencoe, date(2026, 10, 9), 1) == date(2026, 10, 12)
