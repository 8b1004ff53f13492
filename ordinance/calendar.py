"""Business days and deadline arithmetic: the only place the project counts days.

A business day is not a Saturday or Sunday, not a legal holiday of the jurisdiction's
state (the ``holidays`` package, observed dates included: New Year's Day on a Saturday
is observed on Friday December 31) and not a day the city entered as closed. Counting
starts the day after the event (rules.md DEF-20, Appendix D N20). Months are calendar
months (``relativedelta``), never 30-day blocks (rules.md Section 0).

A *regular business day* of a pound (Minn. Stat. 346.47 subd. 1(2); rules.md MN-01) is
counted on the pound's own hours instead: see ``add_regular_business_days``; the hold of
an impounded animal ends on the later of the ordinance's count and the pound's
(``impound_hold_end``; MN-02).
"""

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import lru_cache

import holidays
from dateutil.relativedelta import relativedelta
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from .models import ClosedDay, Jurisdiction
from .rules import Rule, rule_in_force, rules_in_force

SATURDAY = 5
# The state layer's keys (profiles/states/mn.toml) this module counts with.
POUND_HOLD = "pound_hold_regular_business_days"
MIN_HOURS = "regular_business_day_min_hours"
WINDOW_OPENS = "regular_business_day_window_opens"
WINDOW_CLOSES = "regular_business_day_window_closes"
ORDINANCE_HOLD = "impound_hold_business_days"

WeeklyHours = Mapping[int, Sequence[tuple[time, time]]]


class DateOutOfRange(ValueError):
    """A date the calendar cannot count from: the deadline would fall past the last date
    Python holds (9999-12-31) or before the first. ``str(e)`` says so in plain words;
    ``ordinance.refusals.refusing`` turns it into a refusal a form shows."""

    def __init__(self, start):
        self.start = start
        super().__init__(
            _("No deadline can be counted from %(date)s: it is too far from today.")
            % {"date": start.isoformat()}
        )


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
    try:
        return _count_business_days(jurisdiction, start, n)
    except OverflowError as exc:  # counting ran past 9999-12-31
        raise DateOutOfRange(start) from exc


def _count_business_days(jurisdiction: Jurisdiction, start: date, n: int) -> date:
    day, counted = start, 0
    # Closed days are read a window at a time (one query per window, not per day).
    window_end, closed = start, set()
    while counted < n:
        day += timedelta(days=1)
        if day > window_end:
            ahead = min(2 * (n - counted) + 31, (date.max - day).days)  # not past date.max
            window_end = day + timedelta(days=ahead)
            closed = _closed_days(jurisdiction, day - timedelta(days=1), window_end)
        if _open(jurisdiction, day, closed):
            counted += 1
    return day


def add_calendar_days(start: date, n: int) -> date:
    try:
        return start + timedelta(days=n)
    except OverflowError as exc:
        raise DateOutOfRange(start) from exc


def add_months(start: date, n: int) -> date:
    """Calendar months; the 31st plus one month is the last day of a shorter month."""
    try:
        return start + relativedelta(months=n)
    except ValueError as exc:  # relativedelta says "year 10000 is out of range"
        raise DateOutOfRange(start) from exc


def due_date(
    jurisdiction: Jurisdiction, key: str, start: date, *, on: date | None = None
) -> tuple[date, Rule]:
    """The deadline ``key`` sets from ``start``, using the rule in force on ``on``.

    The unit decides the arithmetic: business days, calendar days, months; a month-day
    rule (a December 31 expiry) gives its next occurrence on or after ``start``.
    """
    rule = rule_in_force(jurisdiction, key, on=on or start)
    return _due(jurisdiction, rule, start), rule


def due_datetime(
    jurisdiction: Jurisdiction, key: str, start: datetime, *, on: date | None = None
) -> tuple[datetime, Rule]:
    """The moment a deadline counted in hours runs out (NB Sec. 6-96(2): an owner reports
    a bite within 24 hours of it), using the rule in force on ``on`` (default the start's
    date). A rule counted in days gives the end of its due date's last minute instead, so
    a caller may compare any deadline with a moment."""
    when = timezone.localtime(start) if timezone.is_aware(start) else start
    rule = rule_in_force(jurisdiction, key, on=on or when.date())
    if rule.kind == "int" and rule.unit == "hours":
        try:
            return start + timedelta(hours=rule.value), rule
        except OverflowError as exc:
            raise DateOutOfRange(when.date()) from exc
    day = _due(jurisdiction, rule, when.date())
    end = datetime.combine(day, time(23, 59, 59))
    return (timezone.make_aware(end) if timezone.is_aware(start) else end), rule


def _due(jurisdiction: Jurisdiction, rule: Rule, start: date) -> date:
    if rule.kind == "month_day":
        try:
            return rule.value.next_on_or_after(start)
        except ValueError as exc:  # December 31 of year 9999 has no next one
            raise DateOutOfRange(start) from exc
    if rule.kind != "int":
        raise ValueError(f"{rule.key} is not a duration.")
    if rule.unit == "business_days":
        return add_business_days(jurisdiction, start, rule.value)
    if rule.unit == "days":
        return add_calendar_days(start, rule.value)
    if rule.unit == "months":
        return add_months(start, rule.value)
    if rule.unit == "regular_business_days":
        raise ValueError(
            f"{rule.key} counts a pound's open days: use add_regular_business_days with the "
            "pound's hours."
        )
    raise ValueError(f"{rule.key} is counted in {rule.unit or 'no unit'}, not as a date deadline.")


# --- A pound's regular business days (Minn. Stat. 346.47 subds. 1-2) -------------------


class NoRegularBusinessDay(ValueError):
    """The pound's hours give no regular business day to count; ``str(e)`` says why."""


@dataclass(frozen=True)
class RegularBusinessDay:
    """What makes a day a regular business day, as the state layer sets it on a date."""

    min_hours: int
    opens: time
    closes: time
    citation: str

    @classmethod
    def on(cls, jurisdiction: Jurisdiction, day: date) -> "RegularBusinessDay":
        rules = rules_in_force(jurisdiction, [MIN_HOURS, WINDOW_OPENS, WINDOW_CLOSES], on=day)
        return cls(
            rules[MIN_HOURS].value,
            rules[WINDOW_OPENS].value,
            rules[WINDOW_CLOSES].value,
            rules[MIN_HOURS].citation,
        )

    def counts(self, intervals: Sequence[tuple[time, time]]) -> bool:
        """Open at least ``min_hours`` consecutive hours inside the window that day."""
        start, end = _seconds(self.opens), _seconds(self.closes)
        longest = max(
            (min(b, end) - max(a, start) for a, b in _merged(intervals)),
            default=0,
        )
        return longest >= self.min_hours * 3600

    def weekdays(self, weekly_hours: WeeklyHours) -> frozenset[int]:
        """The weekdays (0 = Monday) the pound's weekly hours make regular business days."""
        for weekday in weekly_hours:
            if weekday not in range(7):
                raise ValueError(f"{weekday!r} is not a weekday (0 = Monday ... 6 = Sunday).")
        return frozenset(day for day, hours in weekly_hours.items() if self.counts(hours))


def _seconds(moment: time) -> int:
    return moment.hour * 3600 + moment.minute * 60 + moment.second


def _merged(intervals: Sequence[tuple[time, time]]) -> list[tuple[int, int]]:
    """Opening hours as seconds, overlapping or touching intervals joined: 8-12 and 12-13
    are five consecutive hours; 8-10 and 13-17 are two stretches."""
    merged: list[tuple[int, int]] = []
    for opens, closes in sorted(intervals):
        a, b = _seconds(opens), _seconds(closes)
        if b <= a:
            raise ValueError(f"Hours {opens:%H:%M}-{closes:%H:%M} close before they open.")
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return merged


def _pound_open(jurisdiction, day: date, weekdays, closed, holidays_closed: bool) -> bool:
    return (
        day.weekday() in weekdays
        and day not in closed
        and not (holidays_closed and day in state_holidays(jurisdiction.state, day.year))
    )


def is_regular_business_day(
    jurisdiction: Jurisdiction,
    day: date,
    *,
    weekly_hours: WeeklyHours,
    closed: Collection[date] = (),
    holidays_closed: bool = True,
    on: date | None = None,
) -> bool:
    """Whether the pound's ``day`` is a regular business day (see
    ``add_regular_business_days`` for the arguments); the definition in force on ``on``
    (default: ``day``) applies."""
    weekdays = RegularBusinessDay.on(jurisdiction, on or day).weekdays(weekly_hours)
    return _pound_open(jurisdiction, day, weekdays, set(closed), holidays_closed)


def add_regular_business_days(
    jurisdiction: Jurisdiction,
    start: date,
    n: int,
    *,
    weekly_hours: WeeklyHours,
    closed: Collection[date] = (),
    holidays_closed: bool = True,
    on: date | None = None,
) -> date:
    """The ``n``th regular business day of a pound after ``start`` (``start`` never counts).

    Minn. Stat. 346.47 subd. 1(2): a day the establishment holding the animal is open to
    the public at least ``regular_business_day_min_hours`` consecutive hours between
    ``regular_business_day_window_opens`` and ``..._closes`` (the state layer's values in
    force on ``on``, default ``start``). The pound's hours, not city hall's, decide.

    ``weekly_hours`` maps a weekday (0 = Monday) to the pound's opening intervals that
    day, e.g. ``{0: [(time(8), time(10)), (time(13), time(17))]}``; a weekday it does not
    list is closed. ``closed`` holds the dates the pound is closed beyond its weekly hours.

    Legal holidays of the jurisdiction's state are not counted by default
    (``holidays_closed=True``): public pounds close on them, and if a pound does open on
    one, skipping it only makes the hold a day longer, the safe side for an owner. A
    pound that keeps its weekly hours on holidays passes ``holidays_closed=False`` and
    enters the holidays it does close in ``closed``.

    Raises ``NoRegularBusinessDay`` when the weekly hours make no day count at all (rather
    than search forever).
    """
    if n < 0:
        raise ValueError("Regular business days are counted forward only.")
    definition = RegularBusinessDay.on(jurisdiction, on or start)
    weekdays, closed = definition.weekdays(weekly_hours), set(closed)
    if n and not weekdays:
        raise NoRegularBusinessDay(_no_regular_day(definition))
    day, counted = start, 0
    try:
        last = start + timedelta(days=10 * (n + len(closed) + 14))  # a guard, never reached
        while counted < n:
            day += timedelta(days=1)
            if day > last:
                raise NoRegularBusinessDay(_no_regular_day(definition))
            counted += _pound_open(jurisdiction, day, weekdays, closed, holidays_closed)
    except OverflowError as exc:
        raise DateOutOfRange(start) from exc
    return day


def _no_regular_day(definition: RegularBusinessDay) -> str:
    return _(
        "The pound's hours give no regular business day: it must be open to the public at "
        "least %(hours)s consecutive hours between %(opens)s and %(closes)s on some day "
        "(%(citation)s). Enter its weekly hours first."
    ) % {
        "hours": definition.min_hours,
        "opens": f"{definition.opens:%H:%M}",
        "closes": f"{definition.closes:%H:%M}",
        "citation": definition.citation,
    }


@dataclass(frozen=True)
class HoldEnd:
    """When an impound hold ends: the later of the ordinance's count and the pound's.

    ``ends_on`` and ``citation`` are what a case stores (``hold_ends_on`` and its
    citation); the rest says how it was reached, for the page and the notice.
    """

    ends_on: date
    citation: str
    ordinance_ends_on: date
    ordinance_citation: str
    pound_ends_on: date
    pound_citation: str
    why: str


def later_of(*, ordinance: tuple[date, str], pound: tuple[date, str]) -> HoldEnd:
    """The hold end from the ordinance's (date, citation) and the pound's (MN-02); on the
    same day both govern and both are cited."""
    (o_day, o_cite), (p_day, p_cite) = ordinance, pound
    words = {
        "date": date_format(max(o_day, p_day)),
        "ordinance": o_cite,
        "statute": p_cite,
        "other": date_format(min(o_day, p_day)),
    }
    if o_day == p_day:
        citation = f"{o_cite}; {p_cite}"
        why = _(
            "The hold ends on %(date)s: %(ordinance)s and the pound's regular business days "
            "(%(statute)s) both end then."
        )
    elif p_day > o_day:
        citation = p_cite
        why = _(
            "The hold ends on %(date)s, when the pound's regular business days (%(statute)s) "
            "end, later than %(ordinance)s (%(other)s)."
        )
    else:
        citation = o_cite
        why = _(
            "The hold ends on %(date)s, when %(ordinance)s ends, later than the pound's "
            "regular business days (%(statute)s, %(other)s)."
        )
    return HoldEnd(max(o_day, p_day), citation, o_day, o_cite, p_day, p_cite, why % words)


def impound_hold_end(
    jurisdiction: Jurisdiction,
    intake: date,
    *,
    weekly_hours: WeeklyHours,
    closed: Collection[date] = (),
    holidays_closed: bool = True,
    on: date | None = None,
    key: str = ORDINANCE_HOLD,
) -> HoldEnd:
    """The hold of an animal impounded on ``intake`` at a pound with these hours: the
    later of the ordinance's count (``key``: ``impound_hold_business_days`` in city
    business days, or another hold such as ``dd_reclaim_days`` by its own unit) and the
    pound's ``pound_hold_regular_business_days`` (Minn. Stat. 346.47 subd. 2), with the
    rules in force on ``on`` (default ``intake``)."""
    on = on or intake
    rules = rules_in_force(jurisdiction, [key, POUND_HOLD], on=on)
    ordinance, pound = rules[key], rules[POUND_HOLD]
    pound_ends_on = add_regular_business_days(
        jurisdiction,
        intake,
        pound.value,
        weekly_hours=weekly_hours,
        closed=closed,
        holidays_closed=holidays_closed,
        on=on,
    )
    return later_of(
        ordinance=(_due(jurisdiction, ordinance, intake), ordinance.citation),
        pound=(pound_ends_on, pound.citation),
    )
