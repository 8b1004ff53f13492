"""When a hold ends: the one answer every page shows (stored on the case at intake).

Two counts, the later governs (IMP-04; rules.md Appendix H MN-01, MN-02):

- the ordinance's: ``due_date(city, key, start)``: ``impound_hold_business_days`` in the
  city's business days, or a caller's key (``dd_reclaim_days``, ``bite_confinement_days``)
  in calendar days;
- the state's: at least five *regular business days of the establishment* (Minn. Stat.
  346.47 subd. 2), days the pound is open to the public at least four consecutive hours
  between 8 a.m. and 7 p.m. (subd. 1(2)), from the pound's weekly hours and closures.
"""

from collections import defaultdict
from dataclasses import dataclass
from datetime import date

from django.utils.translation import gettext as _

from impound.models import Pound
from ordinance.calendar import due_date
from ordinance.models import Jurisdiction
from ordinance.rules import get_optional


def add_regular_business_days(jurisdiction, start, n, *, weekly_hours, closed):
    """TEMPORARY until ordinance.calendar has it: any weekday with 4+ hours counts."""
    from datetime import datetime, timedelta

    from ordinance.calendar import state_holidays

    day, counted = start, 0
    if not any(weekly_hours.values()):
        raise ValueError("The pound has no opening hours.")
    while counted < n:
        day += timedelta(days=1)
        spans = weekly_hours.get(day.weekday(), [])
        long_enough = any(
            (datetime.combine(day, c) - datetime.combine(day, o)).seconds >= 4 * 3600
            for o, c in spans
        )
        if long_enough and day not in closed and day not in state_holidays("MN", day.year):
            counted += 1
    return day


@dataclass(frozen=True)
class HoldEnd:
    ends_on: date
    citation: str
    basis: str
    ordinance_ends_on: date
    ordinance_citation: str
    pound_ends_on: date | None = None
    pound_citation: str = ""


def pound_schedule(pound: Pound, *, start: date):
    """The pound's weekly hours and its closures from ``start`` on (two queries)."""
    weekly = defaultdict(list)
    for row in pound.hours.all():
        weekly[row.weekday].append((row.opens, row.closes))
    closed = set(pound.closures.filter(date__gt=start).values_list("date", flat=True))
    return dict(weekly), closed


def hold_end(
    jurisdiction: Jurisdiction,
    pound: Pound,
    *,
    key: str,
    start: date,
    state_floor: bool = True,
) -> HoldEnd:
    """The later of the ordinance's count and the pound's (state law); both cited."""
    ordinance_end, rule = due_date(jurisdiction, key, start)
    ordinance_text = _("%(n)s from %(start)s: %(end)s (%(cite)s)") % {
        "n": rule.display(),
        "start": start,
        "end": ordinance_end,
        "cite": rule.citation,
    }
    floor = get_optional(jurisdiction, "pound_hold_regular_business_days", on=start)
    if not state_floor or floor is None:
        return HoldEnd(ordinance_end, rule.citation, ordinance_text, ordinance_end, rule.citation)
    weekly, closed = pound_schedule(pound, start=start)
    pound_end = add_regular_business_days(
        jurisdiction, start, floor.value, weekly_hours=weekly, closed=closed
    )
    pound_text = _("%(n)s regular business days of %(pound)s: %(end)s (%(cite)s)") % {
        "n": floor.value,
        "pound": pound.name,
        "end": pound_end,
        "cite": floor.citation,
    }
    if pound_end > ordinance_end:
        ends_on, citation = pound_end, floor.citation
        why = _("the pound's count is later, so state law governs")
    else:
        ends_on, citation = ordinance_end, rule.citation
        why = _("the ordinance's count is not earlier than the pound's")
    basis = f"{ordinance_text}; {pound_text}; {why}."
    return HoldEnd(
        ends_on, citation, basis, ordinance_end, rule.citation, pound_end, floor.citation
    )
