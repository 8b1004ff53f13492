"""One answer to "is this animal vaccinated against rabies, and until when?".

Rules (rules.md): RAB-01 (who must be vaccinated, from what age), RAB-02 (a young animal:
within ``vaccinate_after_min_age_days`` of the Compendium minimum age), RAB-03 (the
vaccine's duration), RAB-04 (a newly acquired or arrived animal), RAB-06 (a species with
no USDA-licensed vaccine counts as unvaccinated), LIC-02 (North Branch Sec. 6-96(4)(b):
a nonresident's dog kept confined is exempt). Licensing owns ``RabiesVaccination``, so the
answer is computed here and shown the same on the animal page, the portal, the rabies
pages (a bite report stores it) and the overdue list.

Every age, period and section comes from the city's profile in force on ``on``. A value
the city has left blank (Glencoe's Compendium minimum age) makes the answer "unknown",
saying which value is missing, rather than a guess.
"""

from dataclasses import dataclass
from datetime import date, timedelta

from django.conf import settings
from django.db import models
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from licensing.models import Animal, RabiesVaccination
from licensing.models.licenses import ExemptionKind
from ordinance.calendar import add_calendar_days, add_months
from ordinance.rules import RuleNotSet, RuleUnavailable, get_optional, rule_citation

VACCINATION_KEYS = (
    "vaccination_required_species",
    "vaccination_age_months",
    "vaccination_age_comparison",
    "compendium_min_age_months",
    "vaccinate_after_min_age_days",
    "vaccinate_new_arrival_days",
    "usda_vaccine_species",
)


class Vaccination(models.TextChoices):
    CURRENT = "current", gettext_lazy("Vaccinated")
    DUE_SOON = "due_soon", gettext_lazy("Vaccinated, due soon")
    OVERDUE = "overdue", gettext_lazy("Vaccination overdue")
    TOO_YOUNG = "too_young", gettext_lazy("Too young to be vaccinated")
    NEW_ARRIVAL = "new_arrival", gettext_lazy("Newly arrived, vaccination due")
    EXEMPT = "exempt", gettext_lazy("Exempt from vaccination")
    NOT_REQUIRED = "not_required", gettext_lazy("Vaccination not required")
    NO_VACCINE = "no_vaccine", gettext_lazy("No licensed vaccine: considered unvaccinated")
    INACTIVE = "inactive", gettext_lazy("Inactive")
    UNKNOWN = "unknown", gettext_lazy("Vaccination status unknown")


# States in which the animal counts as vaccinated (home confinement, exposure paths).
VACCINATED = (Vaccination.CURRENT, Vaccination.DUE_SOON)
# States in which nothing is owed today.
IN_ORDER = (
    *VACCINATED,
    Vaccination.TOO_YOUNG,
    Vaccination.NEW_ARRIVAL,
    Vaccination.EXEMPT,
    Vaccination.NOT_REQUIRED,
    Vaccination.INACTIVE,
)
BADGES = {
    Vaccination.CURRENT: "success",
    Vaccination.DUE_SOON: "info",
    Vaccination.OVERDUE: "danger",
    Vaccination.NO_VACCINE: "warning",
    Vaccination.NEW_ARRIVAL: "warning",
}


@dataclass(frozen=True)
class VaccinationStatus:
    state: str
    reason: str
    citation: str = ""
    vaccination: RabiesVaccination | None = None
    until: date | None = None  # the last day the latest vaccination covers
    due_on: date | None = None  # when a vaccination is (or was) due

    def __str__(self):
        cite = f" ({self.citation})" if self.citation else ""
        return f"{self.label}: {self.reason}{cite}"

    @property
    def label(self) -> str:
        return str(Vaccination(self.state).label)

    @property
    def badge(self) -> str:
        return BADGES.get(self.state, "secondary")

    @property
    def is_vaccinated(self) -> bool:
        return self.state in VACCINATED

    @property
    def in_order(self) -> bool:
        return self.state in IN_ORDER


def reminder_lead_days() -> int:
    """How long before a vaccination runs out the owner is reminded (a setting)."""
    return int(getattr(settings, "RABIES_REMINDER_LEAD_DAYS", 30))


def _d(value: date) -> str:
    return date_format(value, "F j, Y")


def vaccination_rules(jurisdiction, *, on: date) -> dict:
    """{key: Rule | RuleNotSet} for the keys this city's ordinance has (absent keys left
    out), so a blank value makes only what depends on it unknown."""
    rules = {}
    for key in VACCINATION_KEYS:
        try:
            rule = get_optional(jurisdiction, key, on=on)
        except RuleNotSet as exc:
            rules[key] = exc
            continue
        except RuleUnavailable:
            continue
        if rule is not None:
            rules[key] = rule
    return rules


def covered_until(vaccination: RabiesVaccination) -> date:
    """The last day a vaccination covers: its certificate's next due date, else its date
    plus the vaccine's duration, less a day (RAB-03)."""
    if vaccination.next_due_on:
        return vaccination.next_due_on - timedelta(days=1)
    return add_months(vaccination.vaccinated_on, 12 * vaccination.duration_years) - timedelta(
        days=1
    )


def latest_vaccination(animal: Animal, *, on: date) -> RabiesVaccination | None:
    """The latest vaccination given on or before ``on`` (uses a prefetch if present)."""
    given = [v for v in animal.vaccinations.all() if v.vaccinated_on <= on]
    return max(given, key=lambda v: (v.vaccinated_on, v.pk)) if given else None


def vaccination_status(animal: Animal, *, on: date, rules: dict | None = None) -> VaccinationStatus:
    """The rabies vaccination status of ``animal`` on ``on`` (RAB-01..06, LIC-02)."""
    jurisdiction = animal.jurisdiction
    rules = vaccination_rules(jurisdiction, on=on) if rules is None else rules
    species_rule = rules.get("vaccination_required_species")
    if species_rule is None or isinstance(species_rule, RuleNotSet):
        return VaccinationStatus(
            Vaccination.UNKNOWN,
            _("The city has not set which animals must be vaccinated."),
            getattr(species_rule, "citation", "") or rule_citation(jurisdiction, "RAB-01"),
        )
    if not animal.is_alive():
        return VaccinationStatus(
            Vaccination.INACTIVE,
            _("%(status)s.") % {"status": animal.get_status_display()},
            vaccination=latest_vaccination(animal, on=on),
        )
    usda = rules.get("usda_vaccine_species")
    if usda is not None and not isinstance(usda, RuleNotSet) and animal.species not in usda.value:
        return VaccinationStatus(
            Vaccination.NO_VACCINE,
            _("No rabies vaccine is licensed for this species; it counts as unvaccinated."),
            usda.citation,
        )
    if animal.species not in species_rule.value:
        return VaccinationStatus(
            Vaccination.NOT_REQUIRED,
            _("The ordinance does not require this species to be vaccinated."),
            species_rule.citation,
            vaccination=latest_vaccination(animal, on=on),
        )
    latest = latest_vaccination(animal, on=on)
    if latest is not None:
        until = covered_until(latest)
        if until >= on:
            soon = (until - on).days < reminder_lead_days()
            return VaccinationStatus(
                Vaccination.DUE_SOON if soon else Vaccination.CURRENT,
                _("Vaccinated %(given)s; covered through %(until)s.")
                % {"given": _d(latest.vaccinated_on), "until": _d(until)},
                rule_citation(jurisdiction, "RAB-03") or species_rule.citation,
                latest,
                until,
                until + timedelta(days=1),
            )
    exemption = _exemption(animal, on)
    if exemption is not None:
        return VaccinationStatus(
            Vaccination.EXEMPT,
            _("%(kind)s: the vaccination requirement does not apply.")
            % {"kind": exemption.get_kind_display()},
            exemption.citation or rule_citation(jurisdiction, "LIC-02"),
            latest,
        )
    young = _young_due(animal, rules)
    if isinstance(young, VaccinationStatus):
        return young
    if young is not None and on < young[0]:
        return VaccinationStatus(
            Vaccination.TOO_YOUNG,
            _("Born %(dob)s; a vaccination is due by %(due)s.")
            % {"dob": _d(animal.date_of_birth), "due": _d(young[0])},
            young[1],
            due_on=young[0],
        )
    arrival = rules.get("vaccinate_new_arrival_days")
    if (
        arrival is not None
        and not isinstance(arrival, RuleNotSet)
        and latest is None
        and animal.acquired_on
    ):
        due = add_calendar_days(animal.acquired_on, arrival.value)
        if on <= due:
            return VaccinationStatus(
                Vaccination.NEW_ARRIVAL,
                _("Acquired %(when)s; to be vaccinated by %(due)s.")
                % {"when": _d(animal.acquired_on), "due": _d(due)},
                arrival.citation,
                due_on=due,
            )
    if latest is not None:
        until = covered_until(latest)
        return VaccinationStatus(
            Vaccination.OVERDUE,
            _("The vaccination of %(given)s ran out on %(until)s.")
            % {"given": _d(latest.vaccinated_on), "until": _d(until)},
            rule_citation(jurisdiction, "RAB-03") or species_rule.citation,
            latest,
            until,
            until + timedelta(days=1),
        )
    return VaccinationStatus(
        Vaccination.OVERDUE,
        _("No rabies vaccination is on file."),
        species_rule.citation,
        due_on=young[0] if young else None,
    )


def _exemption(animal: Animal, on: date):
    for exemption in animal.license_exemptions.all():
        if exemption.kind == ExemptionKind.NONRESIDENT_CONFINED and exemption.covers(on):
            return exemption
    return None


def _young_due(animal: Animal, rules: dict):
    """(due date, section) for an animal with a known date of birth, or None; a
    ``VaccinationStatus`` (unknown) when the city's minimum age is blank."""
    if animal.date_of_birth is None:
        return None
    months = rules.get("vaccination_age_months")
    if months is not None and not isinstance(months, RuleNotSet):
        reached = add_months(animal.date_of_birth, months.value)
        comparison = rules.get("vaccination_age_comparison")
        strict = comparison is not None and getattr(comparison, "value", "") == "gt"
        return (add_calendar_days(reached, 1) if strict else reached), months.citation
    minimum = rules.get("compendium_min_age_months")
    if minimum is None:
        return None
    if isinstance(minimum, RuleNotSet):
        return VaccinationStatus(
            Vaccination.UNKNOWN,
            _(
                "Born %(dob)s: the city has not entered the Compendium's minimum age, so the "
                "due date cannot be found."
            )
            % {"dob": _d(animal.date_of_birth)},
            minimum.citation,
        )
    after = rules.get("vaccinate_after_min_age_days")
    reached = add_months(animal.date_of_birth, minimum.value)
    if after is None or isinstance(after, RuleNotSet):
        return reached, minimum.citation
    return add_calendar_days(reached, after.value), after.citation


def vaccination_prefetch(animals):
    """Animals with what the status reads (city, vaccinations, exemptions)."""
    return animals.select_related("jurisdiction").prefetch_related(
        "vaccinations", "license_exemptions"
    )
