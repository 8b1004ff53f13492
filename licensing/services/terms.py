"""One answer to "which term can this license be issued or renewed for, on this day?".

Rules (rules.md): LIC-07 (annual licenses expiring on the profile's day, NB Sec. 6-62:
December 31) and LIC-13 (applications may be made N days before the term starts, NB
Sec. 6-65(c): 30 days, so from December 2). A city may also open next-term sales earlier
as its own policy (``Jurisdiction.next_term_sales_days_before``); that opening
is shown as city policy, never as the ordinance's section.

The counter (``assessment.license_assess``), the online renewal (``applications``, via
the same assessment), the standing on the license and animal pages and the resident's
next step all read this module: none computes a term or a window on its own.
"""

from dataclasses import dataclass
from datetime import date

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ordinance.calendar import add_calendar_days

CITY_POLICY = gettext_lazy("City policy")


def annual_term(*, expiry_md, days_before: int, on: date) -> tuple[date, date, bool]:
    """(term_start, expires_on, renewal_window) of an annual license applied for on ``on``.

    Licenses expire on the profile's month and day (NB December 31: dog licenses LIC-07,
    kennel licenses KEN-05); the term starts the day after the previous expiry. From
    ``days_before`` days before the next term starts (Dec 2 in NB, LIC-13) an application
    is for the next term.
    """
    expires_on = expiry_md.on_year(on.year)
    if on > expires_on:  # an expiry date other than Dec 31: the term rolled over already
        expires_on = expiry_md.on_year(on.year + 1)
    term_start = add_calendar_days(expiry_md.on_year(expires_on.year - 1), 1)
    next_start = add_calendar_days(expires_on, 1)
    if on >= add_calendar_days(next_start, -days_before):
        return next_start, expiry_md.on_year(expires_on.year + 1), True
    return term_start, expires_on, False


def _d(value: date) -> str:
    return date_format(value)


@dataclass(frozen=True)
class Term:
    """One annual license term: its first and last day; its tags carry ``year``."""

    start: date
    expires_on: date

    @property
    def year(self) -> int:
        return self.expires_on.year

    def __str__(self):
        return _("%(start)s to %(end)s") % {"start": _d(self.start), "end": _d(self.expires_on)}


@dataclass(frozen=True)
class Opening:
    """When next-term licenses go on sale: the ordinance's day, or the city's earlier one."""

    on: date
    ordinance_on: date
    citation: str

    @property
    def by_policy(self) -> bool:
        return self.on < self.ordinance_on

    @property
    def source(self) -> str:
        """What the clerk reads as the authority: the section, or "City policy"."""
        return str(CITY_POLICY) if self.by_policy else self.citation

    def describe(self, today: date) -> str:
        """The opening in a sentence, naming the ordinance's day when policy is earlier."""
        when = {"d": _d(self.on)}
        if today < self.on:
            text = _("Licenses for the next term are sold from %(d)s.") % when
        else:
            text = _("Licenses for the next term are sold since %(d)s.") % when
        return f"{text} {self.policy_note()}".strip()

    def policy_note(self) -> str:
        """ "" when the ordinance's window applies, else what the policy changed."""
        if not self.by_policy:
            return ""
        return _(
            "The city opened sales early as its own policy; the ordinance's window opens "
            "%(o)s (%(c)s)."
        ) % {"o": _d(self.ordinance_on), "c": self.citation}


def next_term_opening(*, jurisdiction, next_start: date, window) -> Opening:
    """The first day of sales for the term starting ``next_start``: ``window`` (the
    profile's ``renewal_window_days_before_term`` Rule) days before it (LIC-13), or the
    city's earlier policy day when it has one."""
    ordinance_on = add_calendar_days(next_start, -window.value)
    opens = ordinance_on
    policy_days = getattr(jurisdiction, "next_term_sales_days_before", None)
    if policy_days and policy_days > window.value:
        opens = add_calendar_days(next_start, -policy_days)
    return Opening(on=opens, ordinance_on=ordinance_on, citation=window.citation)


@dataclass(frozen=True)
class TermChoice:
    """The terms a license may be issued or renewed for on ``on``, and the default."""

    on: date
    current: Term
    next: Term
    opening: Opening

    @property
    def next_open(self) -> bool:
        return self.on >= self.opening.on

    @property
    def offered(self) -> tuple[Term, ...]:
        """The next term first once its sales are open (the usual renewal), else only
        the current term."""
        return (self.next, self.current) if self.next_open else (self.current,)

    @property
    def default(self) -> Term:
        return self.offered[0]

    @property
    def current_days_left(self) -> int:
        """Days from ``on`` to the current term's expiry (on Nov 30: 31 to Dec 31)."""
        return (self.current.expires_on - self.on).days

    @property
    def opening_text(self) -> str:
        return self.opening.describe(self.on)

    def pick(self, year: int | None) -> Term | None:
        """The offered term whose tags carry ``year`` (None: the default); None if that
        year is not offered on this day."""
        if year is None:
            return self.default
        return next((t for t in self.offered if t.year == year), None)

    def is_next(self, term: Term) -> bool:
        return term == self.next

    def explain(self, term: Term) -> str:
        """What the clerk should know about choosing ``term`` today."""
        if self.is_next(term):
            return _("Next term, %(term)s: tags of %(y)s.") % {"term": term, "y": term.year}
        text = _("Current term, %(term)s: expires in %(n)s days.") % {
            "term": term,
            "n": self.current_days_left,
        }
        if self.next_open:
            text += " " + _("A license for the next term, %(next)s, can be issued instead.") % {
                "next": self.next
            }
        else:
            text += " " + self.opening.describe(self.on)
        return text


def license_terms(*, jurisdiction, on: date, rules) -> TermChoice:
    """The term choice for a dog license applied for on ``on`` (LIC-07, LIC-13).

    ``rules`` holds the profile's ``license_expiry`` and ``renewal_window_days_before_term``
    (``KeyError`` or the rule layer's ``RuleUnavailable`` if the city has none: Glencoe
    issues no dog licenses, and the callers check that first)."""
    expiry_md = rules["license_expiry"].value
    window = rules["renewal_window_days_before_term"]
    start, expires_on, _next = annual_term(expiry_md=expiry_md, days_before=0, on=on)
    current = Term(start, expires_on)
    following = Term(add_calendar_days(expires_on, 1), expiry_md.on_year(expires_on.year + 1))
    opening = next_term_opening(
        jurisdiction=jurisdiction, next_start=following.start, window=window
    )
    return TermChoice(on=on, current=current, next=following, opening=opening)
