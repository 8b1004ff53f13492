"""The four Subd. 22 paths of an exposed animal and the rules each stands on (RAB-25..29,
RAB-33): which path an animal takes, the rule that sets its period, the prompt to vaccinate
before release, and the checks every step of a case makes."""

from datetime import date

from django.utils.translation import gettext as _

from licensing.models import Animal
from ordinance.calendar import add_months
from ordinance.refusals import Refused
from ordinance.rules import Rule, rule_citation, rule_in_force
from rabies.models import (
    Exposure,
    ExposurePath,
)

from ..common import EXPOSURE_KEY, city_rule, locked

DOG_CAT = ("dog", "cat")
QUARANTINE_MONTHS = "exposure_unvaccinated_quarantine_months"
PRERELEASE_MONTHS = "exposure_prerelease_vaccination_months"
OBSERVATION_DAYS = "exposure_vaccinated_dogcat_observation_days"
ENCLOSURE_DAYS = "exposure_vaccinated_other_enclosure_days"
REPORT_FOR_OBSERVATION = "gl_release_report_for_observation"
BOARD_KEY = "exposure_board_report"

# Each path's period and the rule it stands on (rules.md RAB-26..29).
PATH_KEYS = {
    ExposurePath.UNVACCINATED_DOG_CAT: (QUARANTINE_MONTHS, "RAB-26"),
    ExposurePath.VACCINATED_DOG_CAT: (OBSERVATION_DAYS, "RAB-27"),
    ExposurePath.VACCINATED_OTHER: (ENCLOSURE_DAYS, "RAB-28"),
    ExposurePath.UNVACCINATED_OTHER: (QUARANTINE_MONTHS, "RAB-29"),
}
UNVACCINATED = (ExposurePath.UNVACCINATED_DOG_CAT, ExposurePath.UNVACCINATED_OTHER)
VACCINATED = (ExposurePath.VACCINATED_DOG_CAT, ExposurePath.VACCINATED_OTHER)
BOARD_KIND = "rabies_board_report"
CONSENT_KIND = "rabies_euthanasia_consent"

EXPOSURE = _("Exposure case")


def no_rule_sentence(jurisdiction) -> tuple[str, str]:
    """What North Branch staff read instead of the form (RAB-33), and its section."""
    return (
        _("%(city)s's ordinance has no rule for animals exposed to rabies: state law governs.")
        % {"city": jurisdiction},
        rule_citation(jurisdiction, "RAB-33"),
    )


def path_for(species: str, vaccinated: bool) -> str:
    if species in DOG_CAT:
        return ExposurePath.VACCINATED_DOG_CAT if vaccinated else ExposurePath.UNVACCINATED_DOG_CAT
    return ExposurePath.VACCINATED_OTHER if vaccinated else ExposurePath.UNVACCINATED_OTHER


def path_rule(jurisdiction, path: str, *, on: date) -> Rule:
    """The rule that sets the path's period (its citation is the path's section)."""
    return rule_in_force(jurisdiction, PATH_KEYS[ExposurePath(path)][0], on=on)


def deemed_species(jurisdiction, *, on: date) -> Rule | None:
    return city_rule(jurisdiction, EXPOSURE_KEY, on=on)


def release_report_required(exposure: Exposure, *, on: date) -> tuple[bool, str]:
    """Whether the veterinarian's release report (22(E)) closes this case, and why."""
    if exposure.path == ExposurePath.VACCINATED_DOG_CAT:
        rule = city_rule(exposure.jurisdiction, REPORT_FOR_OBSERVATION, on=on)
        return bool(rule and rule.value), rule.citation if rule else ""
    return True, rule_citation(exposure.jurisdiction, "RAB-24")


def vaccinate_by(exposure: Exposure) -> date | None:
    """The prompt of RAB-26: vaccinate by the period's end less the pre-release months."""
    if exposure.path != ExposurePath.UNVACCINATED_DOG_CAT or not exposure.period_ends_on:
        return None
    rule = rule_in_force(exposure.jurisdiction, PRERELEASE_MONTHS, on=exposure.period_starts_on)
    return add_months(exposure.period_ends_on, -rule.value)


def lock(exposure: Exposure) -> Exposure:
    record = locked(Exposure, exposure.pk)
    return record


def require_path(exposure: Exposure, paths, what) -> None:
    if exposure.path not in paths:
        raise Refused.because(
            EXPOSURE,
            _("%(what)s is not a step of this path (%(path)s).")
            % {"what": what, "path": exposure.get_path_display().lower()},
            exposure.path_citation,
        )


def animal_snapshot(animal: Animal) -> dict:
    owner = animal.owner
    return {
        "name": animal.name,
        "species": animal.get_species_display(),
        "breed": animal.breed,
        "color": animal.color,
        "owner": {"name": owner.name, "address": owner.address},
    }
