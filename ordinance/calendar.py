"""Business days and deadline arithmetic: the only place the project counts days.

A business day is not a Saturday or Sunday, not a legal holiday of the jurisdiction's
state (the ``holidays`` package, observed dates included: New Year's Day on a Saturday
is observed on Friday December 31) and not a day the city entered as closed. Counting
starts the day after the event (rules.md DEF-20, Appendix D N20). Months are calendar
months (``relativedelta``), never 30-day blocks (rules.md Section 0).
"""

from datetime import date, timedelta
from functools import lru_cache

import holidays
from dateutil.relativedelta import relativedelta

from .models import ClosedDay, Jurisdiction
from .rules import Rule, get_rule

SATURDAY = 5


@lru_cache(maxsize=512)
def state_holidays(state: str, year: int) -> frozenset[date]:
    """Legal holidays (observed dates) falling in ``year``; cached, called in loops."""
    return frozenset(holidays.country_holidays("US", subdiv=state, years=year).keys())


def _closed_days(jurisdiction: Jurisdiction, after: date, through: date) -> set[date]:
    return set(
        ClosedDay.objects.filter(
            jurisdiction=jurisdiction, date__gt=after, date__lte=through
        ).values_list("date", flat=True)
    )


def _open(jurisdiction: Jurisdiction, day: date, closed: set[date]) -> bool:
    return (
        day.weekday() < SATURDAY
        and day not in state_holidays(jurisdiction.state, day.year)
        and day not in closed
    )


def is_business_day(jurisdiction: Jurisdiction, day: date) -> bool:
    if day.weekday() >= SATURDAY or day in state_holidays(jurisdiction.state, day.year):
        return False
    return not ClosedDay.objects.filter(jurisdiction=jurisdiction, date=day).exists()


def add_business_days(jurisdiction: Jurisdiction, start: date, n: int) -> date:
    """The ``n``th business day after ``start`` (``start`` itself never counts)."""
    if n < 0:
        raise ValueError("Business days are counted forward only.")
    day, counted = start, 0
    # Closed days are read a window at a time (one query per window, not per day).
    window_end, closed = start, set()
    while counted < n:
        day += timedelta(days=1)
        if day > window_end:
            window_end = day + timedelta(days=2 * (n - counted) + 31)
            closed = _closed_days(jurisdiction, day - timedelta(days=1), window_end)
        if _open(jurisdiction, day, closed):
            counted += 1
    return day


def add_calendar_days(start: date, n: int) -> date:
    return start + timedelta(days=n)


def add_months(start: date, n: int) -> date:
    """Calendar months; the 31st plus one month is the last day of a shorter month."""
    return start + relativedelta(months=n)


def due_date(
    jurisdiction: Jurisdiction, key: str, start: date, *, on: date | None = None
) -> tuple[date, Rule]:
    """The deadline ``key`` sets from ``start``, using the rule in force on ``on``.

    The unit decides the arithmetic: business days, calendar days, months; a month-day
    rule (a December 31 expiry) gives its next occurrence on or after ``start``.
    """
    rule = get_rule(jurisdiction, key, on=on or start)
    if rule.kind == "month_day":
        return rule.value.next_on_or_after(start), rule
    if rule.kind != "int":
        raise ValueError(f"{key} is not a duration.")
    if rule.unit == "business_days":
        return add_business_days(jurisdiction, start, rule.value), rule
    if rule.unit == "days":
        return add_calendar_days(start, rule.value), rule
    if rule.unit == "months":
        return add_months(start, rule.value), rule
    raise ValueError(f"{key} is counted in {rule.unit or 'no unit'}, not as a date deadline.")
