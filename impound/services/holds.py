"""When a hold ends: the one answer every page shows (stored on the case at intake).

Two counts, the later governs (IMP-04; rules.md Appendix H MN-01, MN-02), both computed
in ``ordinance.calendar`` (the only place that counts days):

- the ordinance's: ``impound_hold_business_days`` in the city's business days, or a
  caller's key (``dd_reclaim_days``, ``bite_confinement_days``) by its own unit;
- the state's: at least five *regular business days of the establishment* (Minn. Stat.
  346.47 subd. 2), days the pound is open to the public at least four consecutive hours
  between 8 a.m. and 7 p.m. (subd. 1(2)), from the pound's weekly hours and closures.
"""

from collections import defaultdict
from dataclasses import dataclass
from datetime import date

from django.utils.formats import date_format
from django.utils.translation import gettext as _

from impound.models import Pound
from ordinance.calendar import NoRegularBusinessDay, due_date, impound_hold_end
from ordinance.models import Jurisdiction
from ordinance.refusals import Refused


@dataclass(frozen=True)
class HoldEnd:
    ends_on: date
    citation: str
    basis: str


def pound_schedule(pound: Pound, *, start: date):
    """The pound's weekly hours and its closures after ``start`` (two queries)."""
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
    """The later of the ordinance's count and the pound's (state law), both cited.

    ``state_floor=False`` is for a hold that is not a hold for redemption (a caller's
    confinement counted by its own rule only)."""
    if not state_floor:
        ends_on, rule = due_date(jurisdiction, key, start)
        basis = _("%(n)s from %(start)s (%(cite)s).") % {
            "n": rule.display(),
            "start": date_format(start),
            "cite": rule.citation,
        }
        return HoldEnd(ends_on, rule.citation, basis)
    weekly, closed = pound_schedule(pound, start=start)
    try:
        end = impound_hold_end(jurisdiction, start, weekly_hours=weekly, closed=closed, key=key)
    except NoRegularBusinessDay as exc:
        raise Refused.because(_("Pound"), str(exc), field="pound") from exc
    return HoldEnd(end.ends_on, end.citation, end.why)
