"""What every rabies service shares: the step a record's state allows, the city's rules.

A rule a city's ordinance lacks (``get_optional`` gives None) hides its feature there:
``city_rule`` is the one answer to "does this city have it", and ``rule_or_refuse``
refuses with the reason, naming the section that would govern.
"""

from datetime import date

from django.utils.translation import gettext as _

from ordinance.calendar import due_date
from ordinance.models import Jurisdiction
from ordinance.refusals import Refused
from ordinance.rules import Rule, RuleNotSet, get_optional, rule_citation

# The key whose presence means the city has Glencoe's Subd. 22 exposure rules (RAB-33:
# North Branch has none; state law governs there).
EXPOSURE_KEY = "deemed_rabid_species"


def city_rule(jurisdiction: Jurisdiction, key: str, *, on: date) -> Rule | None:
    """The rule, or None where the city's ordinance has no such rule or left it blank."""
    try:
        return get_optional(jurisdiction, key, on=on)
    except RuleNotSet:
        return None


def rule_or_refuse(jurisdiction: Jurisdiction, key: str, *, on: date, what, rule_id: str) -> Rule:
    """The rule, or a refusal saying the city's ordinance has no such rule (or left it
    blank), citing the section ``rule_id`` names for the city, if any."""
    try:
        rule = get_optional(jurisdiction, key, on=on)
    except RuleNotSet as exc:
        raise Refused.because(what, str(exc), exc.citation) from exc
    if rule is None:
        raise Refused.because(
            what,
            _("%(city)s's ordinance has no such rule.") % {"city": jurisdiction},
            rule_citation(jurisdiction, rule_id),
        )
    return rule


def has_exposure_rules(jurisdiction: Jurisdiction, *, on: date) -> bool:
    """Whether the city's ordinance disposes of animals exposed to a rabid animal (RAB-33)."""
    return city_rule(jurisdiction, EXPOSURE_KEY, on=on) is not None


def locked(model, pk):
    """The record read again under a row lock (call inside a transaction)."""
    return model.objects.select_for_update(of=("self",)).select_related("jurisdiction").get(pk=pk)


def deadline(jurisdiction: Jurisdiction, key: str, start: date) -> tuple[date, Rule]:
    """(due date, rule) of ``key`` counted from ``start`` (``ordinance.calendar``)."""
    return due_date(jurisdiction, key, start)
