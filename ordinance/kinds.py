"""The types an ordinance value can have, how each is stored as JSON and shown to people.

Stored JSON is plain (Decimals as strings, month-days as "MM-DD") so a row written today
reads back identically after an upgrade; ``to_python`` is the only way values come out.
"""

import calendar as _stdlib_calendar
from datetime import date, time
from decimal import Decimal, InvalidOperation
from typing import Any, NamedTuple

from .money import CENT

KINDS = ("int", "money", "rate", "decimal", "bool", "text", "list", "month_day", "time")
# Durations carry the unit that picks their arithmetic (rules.md Section 0 "Day counting").
# "regular_business_days" are the open days of the establishment holding an animal
# (Minn. Stat. 346.47 subd. 1(2)): counted by ``calendar.add_regular_business_days``.
DURATION_UNITS = ("days", "business_days", "regular_business_days", "months", "hours")
UNITS = ("", *DURATION_UNITS, "minutes", "feet", "acres")

_CENT = CENT
_UNIT_WORDS = {
    "days": ("day", "days"),
    "business_days": ("business day", "business days"),
    "regular_business_days": ("regular business day", "regular business days"),
    "months": ("month", "months"),
    "hours": ("hour", "hours"),
    "minutes": ("minute", "minutes"),
    "feet": ("foot", "feet"),
    "acres": ("acre", "acres"),
}
_TRUE = {"true", "yes", "y", "1", "on"}
_FALSE = {"false", "no", "n", "0", "off"}


class MonthDay(NamedTuple):
    """A day of the year such as December 31 (a license expiry), usable as a tuple."""

    month: int
    day: int

    @classmethod
    def parse(cls, text: str) -> "MonthDay":
        try:
            month, day = (int(part) for part in str(text).strip().split("-"))
            date(2000, month, day)  # a leap year, so February 29 is a valid month-day
        except (TypeError, ValueError) as exc:
            raise ValueError(f"“{text}” is not a month and day like 12-31.") from exc
        return cls(month, day)

    def on_year(self, year: int) -> date:
        """The date in that year; February 29 falls on February 28 in other years."""
        last = _stdlib_calendar.monthrange(year, self.month)[1]
        return date(year, self.month, min(self.day, last))

    def next_on_or_after(self, day: date) -> date:
        this_year = self.on_year(day.year)
        return this_year if this_year >= day else self.on_year(day.year + 1)

    def display(self) -> str:
        return f"{_stdlib_calendar.month_name[self.month]} {self.day}"

    def __str__(self) -> str:
        return f"{self.month:02d}-{self.day:02d}"


def parse_time(text: str) -> time:
    """A time of day written "HH:MM" on a 24-hour clock ("08:00", "19:00")."""
    try:
        hour, minute = (int(part) for part in str(text).strip().split(":"))
        return time(hour, minute)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"“{text}” is not a time like 08:00 or 19:00.") from exc


def _cents(value: Decimal) -> Decimal:
    # quantize() raises InvalidOperation past the context's 28 digits: say so plainly,
    # so a form shows an error instead of a 500.
    try:
        return value.quantize(_CENT)
    except InvalidOperation as exc:
        raise ValueError(f"{value} is too large an amount.") from exc


def to_python(kind: str, raw: Any) -> Any:
    """The typed value of stored JSON ``raw``: int, Decimal, bool, str, list, MonthDay or
    time."""
    if raw is None:
        return None
    if kind == "int":
        if isinstance(raw, bool) or not isinstance(raw, int | str):
            raise ValueError(f"{raw!r} is not a whole number.")
        return int(raw)
    if kind in ("money", "rate", "decimal"):
        if isinstance(raw, bool | float):
            raise ValueError(f'{raw!r} must be written as a string, e.g. "3.00".')
        try:
            value = Decimal(str(raw))
        except InvalidOperation as exc:
            raise ValueError(f"{raw!r} is not a number.") from exc
        if not value.is_finite():
            raise ValueError(f"{raw!r} is not a number.")
        return _cents(value) if kind == "money" else value
    if kind == "bool":
        if not isinstance(raw, bool):
            raise ValueError(f"{raw!r} is not true or false.")
        return raw
    if kind == "text":
        return str(raw)
    if kind == "list":
        if not isinstance(raw, list):
            raise ValueError(f"{raw!r} is not a list.")
        return [str(item) for item in raw]
    if kind == "month_day":
        return MonthDay.parse(raw)
    if kind == "time":
        return raw if isinstance(raw, time) else parse_time(raw)
    raise ValueError(f"Unknown value type {kind!r}.")


def to_json(kind: str, value: Any) -> Any:
    """The JSON to store for a typed value (the inverse of ``to_python``)."""
    if value is None:
        return None
    if kind in ("money", "rate", "decimal"):
        return str(to_python(kind, str(value)))
    if kind == "month_day":
        return str(value if isinstance(value, MonthDay) else MonthDay.parse(value))
    if kind == "time":
        return f"{to_python(kind, value):%H:%M}"
    return to_python(kind, value)


def parse_input(kind: str, text: str) -> Any:
    """Parse what an administrator typed into a value of ``kind``; ValueError says why not."""
    text = (text or "").strip()
    if not text:
        raise ValueError("Enter a value.")
    if kind == "int":
        if not text.lstrip("-").isdigit():
            raise ValueError("Enter a whole number, e.g. 5.")
        return int(text)
    if kind in ("money", "rate", "decimal"):
        value = to_python("decimal", text.lstrip("$").replace(",", ""))
        if value < 0:
            raise ValueError("Enter an amount that is not negative.")
        if kind == "money" and value != _cents(value):
            raise ValueError("Enter an amount in dollars and cents, e.g. 15.00.")
        return to_python(kind, str(value))
    if kind == "bool":
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise ValueError("Enter yes or no.")
    if kind == "list":
        return [item.strip() for item in text.replace("\n", ",").split(",") if item.strip()]
    if kind == "month_day":
        return MonthDay.parse(text)
    if kind == "time":
        return parse_time(text)
    return text


def display(kind: str, unit: str, value: Any) -> str:
    """How a value reads on a page: "5 business days", "$3.00", "50%", "December 31"
    (``ordinance.display.words``, the one place that words a value)."""
    from .display import words  # display reads MonthDay from here

    return words(kind, unit, value)
