"""What every dangerous-dog service shares: who may act, whether the city has the Subd. 15
procedure at all, the case numbers' series, and the deadlines (counted in ``ordinance.calendar``).

The procedure runs where the city's profile has ``dd_contest_days`` (DD-29: North Branch
has none); ``procedure_or_refuse`` is the one answer to "may this city run it".
"""

from datetime import date

from django.utils.translation import gettext as _

from dangerous_dogs.models import DesignationCase
from ordinance.calendar import due_date
from ordinance.models import Jurisdiction
from ordinance.refusals import Refused
from ordinance.rules import Rule, get_optional, rule_citation

PROCEDURE_KEY = "dd_contest_days"
SERIES = "dangerous-dog"  # the case numbers' series (kernel.numbers)


def has_procedure(jurisdiction: Jurisdiction, *, on: date) -> bool:
    """Whether the city's ordinance has the Subd. 15 proceeding (DD-29)."""
    return get_optional(jurisdiction, PROCEDURE_KEY, on=on) is not None


def procedure_or_refuse(jurisdiction: Jurisdiction, *, on: date) -> Rule:
    rule = get_optional(jurisdiction, PROCEDURE_KEY, on=on)
    if rule is None:
        raise Refused.because(
            _("Dangerous dogs"),
            _(
                "%(city)s's ordinance has no procedure to declare a dog dangerous; an officer "
                "may record a classification instead."
            )
            % {"city": jurisdiction},
            rule_citation(jurisdiction, "DD-29"),
        )
    return rule


def locked(case: DesignationCase) -> DesignationCase:
    """The case read again under a row lock (call inside a transaction): two officers
    recording the same step at once see each other's write."""
    return (
        DesignationCase.objects.select_for_update(of=("self",))
        .select_related("jurisdiction")
        .get(pk=case.pk)
    )


def check_serves(actor, jurisdiction: Jurisdiction) -> None:
    if not actor.serves(jurisdiction.pk):
        raise Refused.because(_("City"), _("You do not serve %(city)s.") % {"city": jurisdiction})


def not_future(value: date, today: date, label, field: str) -> None:
    if value > today:
        raise Refused.because(label, _("The date cannot be in the future."), field=field)


def deadline(jurisdiction: Jurisdiction, key: str, start: date) -> tuple[date, str]:
    """(due date, section) of the rule ``key`` counted from ``start``."""
    due, rule = due_date(jurisdiction, key, start)
    return due, rule.citation
