"""What every rabies service shares: the step a record's state allows, the city's rules.

A rule a city's ordinance lacks (an optional rule in force is None) hides its feature there:
``city_rule`` is the one answer to "does this city have it".
"""

from datetime import date

from ordinance.calendar import due_date
from ordinance.models import Jurisdiction
from ordinance.rules import Rule, RuleNotSet, rule_in_force

# The key whose presence means the city has Glencoe's Subd. 22 exposure rules (RAB-33:
# North Branch has none; state law governs there).
EXPOSURE_KEY = "deemed_rabid_species"


def city_rule(jurisdiction: Jurisdiction, key: str, *, on: date) -> Rule | None:
    """The rule, or None where the city's ordinance has no such rule or left it blank."""
    try:
        return rule_in_force(jurisdiction, key, on=on, optional=True)
    except RuleNotSet:
        return None


def has_exposure_rules(jurisdiction: Jurisdiction, *, on: date) -> bool:
    """Whether the city's ordinance disposes of animals exposed to a rabid animal (RAB-33)."""
    return city_rule(jurisdiction, EXPOSURE_KEY, on=on) is not None


def locked(model, pk):
    """The record read again under a row lock (call inside a transaction)."""
    return model.objects.select_for_update(of=("self",)).select_related("jurisdiction").get(pk=pk)


def deadline(jurisdiction: Jurisdiction, key: str, start: date) -> tuple[date, Rule]:
    """(due date, rule) of ``key`` counted from ``start`` (``ordinance.calendar``)."""
    return due_date(jurisdiction, key, start)
