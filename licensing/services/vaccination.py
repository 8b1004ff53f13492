"""One answer to "is this animal vaccinated against rabies, and until when?".

Rules (rules.md): RAB-01 (who must be vaccinated, from what age), RAB-02 (a young animal:
within ``vaccinate_after_min_age_days`` of the Compendium minimum age), RAB-03 (the
vaccine's duration), RAB-04 (a newly acquired or arrived animal), RAB-06 (a species with
no USDA-licensed vaccine counts as unvaccinated), LIC-02 (North Branch Sec. 6-96(4)(b):
a nonresident's dog kept confined is exempt). Licensing owns ``RabiesVaccination``, so the
answer is computed here and shown the same on the animal page, the portal, the rabies
pages (a bite report stores it), the overdue list and the reminder e-mails.

Every age, period and section comes from the city's profile in force on ``on``. A value
the city has left blank (Glencoe's Compendium minimum age) makes the answer "unknown",
saying which value is missing, rather than a guess.

Dates: a vaccination covers its animal through its due date (the certificate's "next
due", else the date given plus the vaccine's duration): revaccinating on that day keeps
within the interval (Glencoe 701 Subd. 20(C): "intervals not to exceed"). ``due_on`` is
always the last day the animal may go without a (new) vaccination; it is overdue from
the next day. North Branch requires vaccination of a dog or cat "older than six (6)
months" (Sec. 6-77): born June 15, it must be vaccinated from December 16 on, so its
``due_on`` is December 15.
"""

from dataclasses import dataclass
from datetime import date, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Exists, F, Func, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from licensing.models import Animal, AnimalStatus, RabiesVaccination
from licensing.models.licenses import ExemptionKind, LicenseExemption
from ordinance.calendar import add_calendar_days, add_months
from ordinance.rules import RuleNotSet, RuleUnavailable, rule_citation, rules_in_force

VACCINATION_KEYS = (
    "vaccination_required_species",
    "vaccination_age_months",
    "vaccination_age_comparison",
    "compendium_min_age_months",
    "vaccinate_after_min_age_days",
    "vaccinate_new_arrival_days",
    "usda_vaccine_species",
    "license_exemptions_nonresident",
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
# States in which nothing is owed today (a species with no licensed vaccine cannot be
# vaccinated: it owes nothing, but counts as unvaccinated, Glencoe 701 Subd. 20(F)).
IN_ORDER = (
    *VACCINATED,
    Vaccination.TOO_YOUNG,
    Vaccination.NEW_ARRIVAL,
    Vaccination.EXEMPT,
    Vaccination.NOT_REQUIRED,
    Vaccination.NO_VACCINE,
    Vaccination.INACTIVE,
)
BADGES = {
    Vaccination.CURRENT: "success",
    Vaccination.DUE_SOON: "info",
    Vaccination.OVERDUE: "danger",
    Vaccination.NO_VACCINE: "warning",
    Vaccination.NEW_ARRIVAL: "warning",
    Vaccination.UNKNOWN: "warning",
}


@dataclass(frozen=True)
class VaccinationStatus:
    state: str
    reason: str
    citation: str = ""
    vaccination: RabiesVaccination | None = None
    until: date | None = None  # the last day the latest vaccination covers (its due date)
    due_on: date | None = None  # the last day to be vaccinated (again); overdue after it

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

    @property
    def is_overdue(self) -> bool:
        return self.state == Vaccination.OVERDUE

    @property
    def action_due(self) -> bool:
        """The owner has a vaccination to get (overdue, due soon, a new arrival's)."""
        return self.state in (Vaccination.OVERDUE, Vaccination.DUE_SOON, Vaccination.NEW_ARRIVAL)


def reminder_lead_days() -> int:
    """How long before a vaccination runs out the owner is reminded and the animal shows
    "due soon" (a setting, RABIES_REMINDER_LEAD_DAYS: not an ordinance value)."""
    return int(getattr(settings, "RABIES_REMINDER_LEAD_DAYS", 30))


def _d(value: date) -> str:
    return date_format(value)


def _set(rule):
    """The rule if the city has it and has filled it in, else None."""
    return None if rule is None or isinstance(rule, RuleNotSet) else rule


def vaccination_rules(jurisdiction, *, on: date) -> dict:
    """{key: Rule | RuleNotSet} for the keys this city's ordinance has (absent keys left
    out), so a blank value makes only what depends on it unknown. One query (none more
    within a request that already read the city's rules)."""
    try:
        return rules_in_force(jurisdiction, VACCINATION_KEYS, on=on, blanks=True)
    except RuleUnavailable:
        return {}


def vaccination_due(vaccination: RabiesVaccination) -> date:
    """The date a vaccination is due again: its certificate's next due date, else the
    date given plus the vaccine's duration (RAB-03). It covers the animal through it."""
    if vaccination.next_due_on:
        return vaccination.next_due_on
    return add_months(vaccination.vaccinated_on, 12 * vaccination.duration_years)


# The last day a vaccination covers (the same date: see the module's docstring).
covered_until = vaccination_due


def latest_vaccination(animal: Animal, *, on: date) -> RabiesVaccination | None:
    """The latest vaccination given on or before ``on`` (uses a prefetch if present)."""
    given = [v for v in animal.vaccinations.all() if v.vaccinated_on <= on]
    return max(given, key=lambda v: (v.vaccinated_on, v.pk)) if given else None


def _inactive_on(animal: Animal, on: date) -> bool:
    """Dead or moved out by ``on`` (a bite's date may be before the animal's death)."""
    if animal.is_alive():
        return False
    return animal.status_changed_on is None or animal.status_changed_on <= on


def _revaccination_citation(jurisdiction, species_rule) -> str:
    """The section a lapsed vaccination breaks: the city's revaccination rule (RAB-03)
    where it is part of the vaccination requirement's own section (Glencoe 701 Subd.
    20(C) beside 20(A)); else the requirement itself (North Branch Sec. 6-77: its RAB-03
    entry is the license's 24-month test of Sec. 6-61, not an interval)."""
    section = rule_citation(jurisdiction, "RAB-03")
    if section and section.split("(")[0].strip() == species_rule.citation.split("(")[0].strip():
        return section
    return species_rule.citation


def vaccination_status(animal: Animal, *, on: date, rules: dict | None = None) -> VaccinationStatus:
    """The rabies vaccination status of ``animal`` on ``on`` (RAB-01..06, LIC-02).

    ``rules`` is ``vaccination_rules(animal.jurisdiction, on=on)`` when the caller holds
    it (a list of many animals of one city)."""
    rules = vaccination_rules(animal.jurisdiction, on=on) if rules is None else rules
    species_rule = rules.get("vaccination_required_species")
    if species_rule is None:
        return VaccinationStatus(
            Vaccination.NOT_REQUIRED,
            _("The city's ordinance has no rabies vaccination requirement."),
        )
    if isinstance(species_rule, RuleNotSet):
        return VaccinationStatus(
            Vaccination.UNKNOWN,
            _("The city has not entered which animals must be vaccinated."),
            species_rule.citation,
        )
    latest = latest_vaccination(animal, on=on)
    return (
        _not_applying(animal, on, rules, species_rule, latest)
        or _covered(animal, on, species_rule, latest)
        or _exempt(animal, on, rules, latest)
        or _lapsed(animal, on, rules, species_rule, latest)
        or _never_vaccinated(animal, on, rules, species_rule)
    )


def _not_applying(animal, on, rules, species_rule, latest) -> VaccinationStatus | None:
    """The requirement does not reach the animal: no longer in the city or alive, a
    species with no licensed vaccine (RAB-02) or one the ordinance leaves out."""
    if _inactive_on(animal, on):
        return VaccinationStatus(
            Vaccination.INACTIVE,
            _("%(status)s: the vaccination requirement no longer applies.")
            % {"status": animal.get_status_display()},
            species_rule.citation,
            vaccination=latest,
        )
    usda = _set(rules.get("usda_vaccine_species"))
    if usda is not None and animal.species not in usda.value:
        return VaccinationStatus(
            Vaccination.NO_VACCINE,
            _(
                "No rabies vaccine is licensed for this species; it counts as unvaccinated "
                "whatever its vaccination history."
            ),
            usda.citation,
            vaccination=latest,
        )
    if animal.species not in species_rule.value:
        return VaccinationStatus(
            Vaccination.NOT_REQUIRED,
            _("The ordinance does not require this species to be vaccinated."),
            species_rule.citation,
            vaccination=latest,
        )
    return None


def _covered(animal, on, species_rule, latest) -> VaccinationStatus | None:
    """The latest vaccination still covers ``on``: current, or due again soon."""
    if latest is None:
        return None
    until = vaccination_due(latest)
    if until < on:
        return None
    soon = (until - on).days <= reminder_lead_days()
    return VaccinationStatus(
        Vaccination.DUE_SOON if soon else Vaccination.CURRENT,
        _("Vaccinated %(given)s; due again by %(until)s.")
        % {"given": _d(latest.vaccinated_on), "until": _d(until)},
        _revaccination_citation(animal.jurisdiction, species_rule),
        latest,
        until,
        until,
    )


def _exempt(animal, on, rules, latest) -> VaccinationStatus | None:
    exemption = _exemption(animal, on, rules)
    if exemption is None:
        return None
    return VaccinationStatus(
        Vaccination.EXEMPT,
        _("%(kind)s since %(since)s: the vaccination requirement does not apply.")
        % {"kind": exemption.get_kind_display(), "since": _d(exemption.starts_on)},
        rules["license_exemptions_nonresident"].citation,
        latest,
    )


def _lapsed(animal, on, rules, species_rule, latest) -> VaccinationStatus | None:
    """Revaccination (RAB-03): the young-animal period is for an animal never
    vaccinated, so a lapse is overdue from the day after its due date, unless the animal
    arrived already unvaccinated (its vaccination ran out before, RAB-04)."""
    if latest is None:
        return None
    until = vaccination_due(latest)
    arrived = _new_arrival(animal, on, _set(rules.get("vaccinate_new_arrival_days")))
    if arrived is not None and until < animal.acquired_on:
        return arrived
    return VaccinationStatus(
        Vaccination.OVERDUE,
        _("Vaccinated %(given)s; it was due again by %(until)s.")
        % {"given": _d(latest.vaccinated_on), "until": _d(until)},
        _revaccination_citation(animal.jurisdiction, species_rule),
        latest,
        until,
        until,
    )


def _never_vaccinated(animal, on, rules, species_rule) -> VaccinationStatus:
    """No vaccination on file: still within the young animal's or the new arrival's
    period, or overdue."""
    young = young_status(animal.date_of_birth, rules)
    if young is not None and young.state == Vaccination.UNKNOWN:
        return young
    if young is not None and on <= young.due_on:
        return young
    arrived = _new_arrival(animal, on, _set(rules.get("vaccinate_new_arrival_days")))
    if arrived is not None:
        return arrived
    if young is not None:
        return VaccinationStatus(
            Vaccination.OVERDUE,
            _("No rabies vaccination is on file; born %(dob)s, it was due by %(due)s.")
            % {"dob": _d(animal.date_of_birth), "due": _d(young.due_on)},
            young.citation,
            due_on=young.due_on,
        )
    return VaccinationStatus(
        Vaccination.OVERDUE,
        _("No rabies vaccination is on file."),
        species_rule.citation,
    )


def _new_arrival(animal: Animal, on: date, arrival) -> VaccinationStatus | None:
    """Within the days after purchase or arrival to vaccinate (Glencoe 701 Subd. 20(D))."""
    if arrival is None or animal.acquired_on is None:
        return None
    due = add_calendar_days(animal.acquired_on, arrival.value)
    if on > due:
        return None
    return VaccinationStatus(
        Vaccination.NEW_ARRIVAL,
        _("Acquired %(when)s; to be vaccinated by %(due)s.")
        % {"when": _d(animal.acquired_on), "due": _d(due)},
        arrival.citation,
        due_on=due,
    )


def _exemption(animal: Animal, on: date, rules: dict):
    """A nonresident's dog kept confined or restrained (North Branch Sec. 6-96(4)(b)),
    where the city's ordinance has that exemption and the clerk recorded it."""
    allowed = _set(rules.get("license_exemptions_nonresident"))
    if allowed is None or animal.species != "dog":
        return None
    for exemption in animal.license_exemptions.all():
        if (
            exemption.kind == ExemptionKind.NONRESIDENT_CONFINED
            and exemption.kind in allowed.value
            and exemption.covers(on)
        ):
            return exemption
    return None


def young_status(dob: date | None, rules: dict) -> VaccinationStatus | None:
    """The "too young" answer for an unvaccinated animal born on ``dob`` (``due_on`` its
    last day unvaccinated), or None; "unknown" when the city's minimum age is blank
    (Glencoe 701 Subd. 20(B))."""
    if dob is None:
        return None
    months = _set(rules.get("vaccination_age_months"))
    if months is not None:
        reached = add_months(dob, months.value)
        comparison = _set(rules.get("vaccination_age_comparison"))
        # "older than six (6) months" (gt): required from the day after the anniversary.
        strict = getattr(comparison, "value", "") == "gt"
        required_from = add_calendar_days(reached, 1) if strict else reached
        return VaccinationStatus(
            Vaccination.TOO_YOUNG,
            _("Born %(dob)s; vaccination is required from %(from)s.")
            % {"dob": _d(dob), "from": _d(required_from)},
            months.citation,
            due_on=add_calendar_days(required_from, -1),  # its last day unvaccinated
        )
    minimum = rules.get("compendium_min_age_months")
    if minimum is None:
        return None
    if isinstance(minimum, RuleNotSet):
        return VaccinationStatus(
            Vaccination.UNKNOWN,
            _(
                "Born %(dob)s; no vaccination on file. The city has not entered the "
                "Compendium's minimum age for vaccination, so the due date cannot be found."
            )
            % {"dob": _d(dob)},
            minimum.citation,
        )
    reached = add_months(dob, minimum.value)
    after = _set(rules.get("vaccinate_after_min_age_days"))
    due = add_calendar_days(reached, after.value) if after is not None else reached
    return VaccinationStatus(
        Vaccination.TOO_YOUNG,
        _("Born %(dob)s; reaches the minimum age on %(reached)s; to be vaccinated by %(due)s.")
        % {"dob": _d(dob), "reached": _d(reached), "due": _d(due)},
        after.citation if after is not None else minimum.citation,
        due_on=due,
    )


def vaccination_prefetch(animals):
    """Animals with what the status reads (city, vaccinations, exemptions)."""
    return animals.select_related("jurisdiction").prefetch_related(
        "vaccinations", "license_exemptions"
    )


def statuses_for(
    animals, *, on: date, rules_by_city: dict | None = None
) -> dict[int, VaccinationStatus]:
    """{animal pk: status} for animals already fetched with ``vaccination_prefetch``,
    reading each city's rules once (``rules_by_city``: {city pk: rules} already read)."""
    rules_by_city = {} if rules_by_city is None else rules_by_city
    found = {}
    for animal in animals:
        if animal.jurisdiction_id not in rules_by_city:
            rules_by_city[animal.jurisdiction_id] = vaccination_rules(animal.jurisdiction, on=on)
        found[animal.pk] = vaccination_status(
            animal, on=on, rules=rules_by_city[animal.jurisdiction_id]
        )
    return found


# --- The same answer as a database filter (the overdue list, the reminders) -------------


class AddYears(Func):
    """``date + n years`` in the database, the last day of February for February 29 as
    ``add_months`` gives (PostgreSQL; SQLite for the development database)."""

    output_field = models.DateField()

    def as_sql(self, compiler, connection, **extra):
        start, start_params = compiler.compile(self.source_expressions[0])
        years, years_params = compiler.compile(self.source_expressions[1])
        return (
            f"(({start}) + make_interval(years => ({years})::int))::date",
            (*start_params, *years_params),
        )

    def as_sqlite(self, compiler, connection, **extra):
        start, start_params = compiler.compile(self.source_expressions[0])
        years, years_params = compiler.compile(self.source_expressions[1])
        # SQLite rolls February 29 over to March 1; step back to the month's last day.
        moved = f"date({start}, '+' || ({years}) || ' years')"
        params = (*start_params, *years_params)
        return (
            f"(CASE WHEN strftime('%%d', {moved}) <> strftime('%%d', {start}) "
            f"THEN date({moved}, 'start of month', '-1 day') ELSE {moved} END)",
            (*params, *start_params, *params, *params),
        )


def _latest_due(on: date):
    """The due date of each animal's latest vaccination given by ``on`` (NULL: none)."""
    return Subquery(
        RabiesVaccination.objects.filter(animal=OuterRef("pk"), vaccinated_on__lte=on)
        .order_by("-vaccinated_on", "-pk")
        .annotate(due=Coalesce("next_due_on", AddYears("vaccinated_on", "duration_years")))
        .values("due")[:1],
        output_field=models.DateField(),
    )


def _earliest(predicate, *, around: date, span: int = 2000) -> date:
    """The earliest date within ``span`` days of ``around`` for which the monotone
    ``predicate`` holds (dates of birth or arrival: later dates are "younger")."""
    low, high = around - timedelta(days=span), around + timedelta(days=span)
    while low < high:
        middle = low + (high - low) // 2
        if predicate(middle):
            high = middle
        else:
            low = add_calendar_days(middle, 1)  # the next date, not a period
    return low


def _required_and_active(jurisdiction, *, on: date, rules: dict) -> Q | None:
    """This city's animals the requirement covers on ``on``: active then (not inactive),
    of a species the ordinance requires to be vaccinated and (where the city lists them)
    one with a licensed vaccine. None when no species is (no requirement, or blank)."""
    species_rule = _set(rules.get("vaccination_required_species"))
    if species_rule is None:
        return None
    species = set(species_rule.value)
    usda = _set(rules.get("usda_vaccine_species"))
    if usda is not None:
        species &= set(usda.value)
    if not species:
        return None
    active = Q(status=AnimalStatus.ALIVE) | Q(status_changed_on__gt=on)
    return Q(jurisdiction=jurisdiction, species__in=sorted(species)) & active


def owing_filter(jurisdiction, *, on: date, rules: dict, due_soon: bool = False) -> Q | None:
    """A filter on ``Animal`` (annotated ``latest_due=_latest_due(on)``, see
    ``animals_owing``) that keeps this city's animals whose ``vaccination_status`` on
    ``on`` is overdue (and, with ``due_soon``, due soon): the same rules in the same
    order, so a list can page in SQL and ask the status of its page's animals only.
    None when none can be (the city has no requirement, or has not entered it)."""
    city = _required_and_active(jurisdiction, on=on, rules=rules)
    if city is None:
        return None

    arrival = _set(rules.get("vaccinate_new_arrival_days"))
    arrived = Q(pk__in=[])
    if arrival is not None:
        arrived = Q(acquired_on__gte=on - timedelta(days=arrival.value))

    allowed = _set(rules.get("license_exemptions_nonresident"))
    exempt = Q(pk__in=[])
    if allowed is not None and ExemptionKind.NONRESIDENT_CONFINED in allowed.value:
        covering = LicenseExemption.objects.filter(
            animal=OuterRef("pk"), kind=ExemptionKind.NONRESIDENT_CONFINED, starts_on__lte=on
        ).filter(Q(ends_on__isnull=True) | Q(ends_on__gte=on))
        exempt = Q(species="dog") & Q(Exists(covering))

    # Vaccinated before: overdue once the latest's due date passed (unless exempt, or it
    # had run out before the animal arrived and the arrival period is still open).
    lapsed = Q(latest_due__lt=on) & ~exempt & ~(arrived & Q(latest_due__lt=F("acquired_on")))
    owing = lapsed
    if due_soon:
        owing |= Q(latest_due__gte=on, latest_due__lte=on + timedelta(days=reminder_lead_days()))

    # Never vaccinated: overdue unless exempt, still young (or its age unknowable), or
    # a new arrival within its period.
    never = Q(latest_due__isnull=True) & ~exempt & ~arrived
    young = young_status(on, rules)  # does the city have a young-animal rule at all?
    if young is not None and young.state == Vaccination.UNKNOWN:
        never &= Q(date_of_birth__isnull=True)
    elif young is not None:
        first_young = _earliest(lambda dob: young_status(dob, rules).due_on >= on, around=on)
        never &= Q(date_of_birth__isnull=True) | Q(date_of_birth__lt=first_young)
    return city & (owing | never)


def animals_owing(
    animals, cities, *, on: date, due_soon: bool = False, rules_by_city: dict | None = None
):
    """``animals`` narrowed to those of ``cities`` whose status on ``on`` is overdue (or
    due soon), annotated ``latest_due``: one query to count, one to fetch a page; the
    caller asks the status of the page's animals (``statuses_for``) and shows it.
    ``rules_by_city`` ({city pk: rules}) is filled with the rules read, for reuse."""
    rules_by_city = {} if rules_by_city is None else rules_by_city
    found = Q(pk__in=[])
    for city in cities:
        if city.pk not in rules_by_city:
            rules_by_city[city.pk] = vaccination_rules(city, on=on)
        where = owing_filter(city, on=on, rules=rules_by_city[city.pk], due_soon=due_soon)
        if where is not None:
            found |= where
    return animals.annotate(latest_due=_latest_due(on)).filter(found)


def vaccinated_filter(jurisdiction, *, on: date, rules: dict) -> Q | None:
    """A filter on ``Animal`` (annotated ``latest_due=_latest_due(on)``, see
    ``animals_vaccinated``) that keeps this city's animals whose ``vaccination_status`` on
    ``on`` counts as vaccinated (``VACCINATED``: current or due soon): required, active,
    a vaccine licensed for the species, and the latest vaccination given by ``on`` due
    again on or after it. None when none can be."""
    city = _required_and_active(jurisdiction, on=on, rules=rules)
    if city is None:
        return None
    return city & Q(latest_due__gte=on)


def animals_vaccinated(animals, cities, *, on: date, rules_by_city: dict | None = None):
    """``animals`` narrowed to those of ``cities`` with a rabies vaccination in force on
    ``on`` (the status's "vaccinated"), annotated ``latest_due``: the set-based twin of
    ``vaccination_status(...).is_vaccinated`` for lists of thousands."""
    rules_by_city = {} if rules_by_city is None else rules_by_city
    found = Q(pk__in=[])
    for city in cities:
        if city.pk not in rules_by_city:
            rules_by_city[city.pk] = vaccination_rules(city, on=on)
        where = vaccinated_filter(city, on=on, rules=rules_by_city[city.pk])
        if where is not None:
            found |= where
    return animals.annotate(latest_due=_latest_due(on)).filter(found)
