"""One answer to "does this animal need a license, and is it covered?".

Rules (rules.md): LIC-01 (dogs over the license age), LIC-02 (exemptions), LIC-07 (the
term and its expiry), LIC-13 (the renewal window), LIC-16 (Glencoe issues no license),
LIC-18 (cats are not licensed). The portal, the registry's animal and owner pages, the
counter and the tag lookup all show ``license_standing``; none decides on its own.

Every age, date and section comes from the city's profile in force on ``on``. For a page
of animals, fetch them with ``standing_prefetch`` and call ``license_standings``: the
licenses, tags and exemptions come with the page's own queries, and the rules cost one
query per city, whatever the number of animals. For a list of thousands that only needs
to know which animals hold no license they need, ``animals_unlicensed`` asks the same
question as a database filter (the same rules, in the same order).
"""

from dataclasses import dataclass
from datetime import date

from django.db import models
from django.db.models import Exists, OuterRef, Prefetch, Q, prefetch_related_objects
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from licensing.models import Animal, AnimalStatus, License, LicenseStatus, Tag
from licensing.models.licenses import LicenseExemption
from licensing.services.terms import Opening, next_term_opening
from ordinance.calendar import add_calendar_days, add_months
from ordinance.rules import Rule, RuleUnavailable, profile_for, rule_in_force, rules_in_force

STANDING_KEYS = (
    "dog_license_enabled",
    "licensed_species",
    "license_age_months",
    "license_age_comparison",
    "license_expiry",
    "renewal_window_days_before_term",
    "license_exemptions",
    "license_exemptions_nonresident",
)
# The profile values that list exemption kinds, each with its own section (LIC-02).
EXEMPTION_KEYS = ("license_exemptions", "license_exemptions_nonresident")


class Standing(models.TextChoices):
    LICENSED = "licensed", gettext_lazy("Licensed")
    RENEWAL_OPEN = "renewal_open", gettext_lazy("Licensed, renewal open")
    NOT_REQUIRED = "not_required", gettext_lazy("License not required")
    EXEMPT = "exempt", gettext_lazy("Exempt from licensing")
    REQUIRED = "required", gettext_lazy("License required, unlicensed")
    EXPIRED = "expired", gettext_lazy("License expired")
    INACTIVE = "inactive", gettext_lazy("Inactive")
    UNKNOWN = "unknown", gettext_lazy("License status unknown")


# Which states leave the animal covered, and the badge color each shows with.
COVERED = (
    Standing.LICENSED,
    Standing.RENEWAL_OPEN,
    Standing.NOT_REQUIRED,
    Standing.EXEMPT,
    Standing.INACTIVE,
)
BADGES = {
    Standing.LICENSED: "success",
    Standing.RENEWAL_OPEN: "info",
    Standing.REQUIRED: "danger",
    Standing.EXPIRED: "warning",
}


@dataclass(frozen=True)
class LicenseStanding:
    """The state, the reason in a sentence, and the section that decides it."""

    state: str
    reason: str
    citation: str = ""
    license: License | None = None
    next_license: License | None = None
    required_from: date | None = None

    def __str__(self):
        cite = f" ({self.citation})" if self.citation else ""
        return f"{self.label}: {self.reason}{cite}"

    @property
    def label(self) -> str:
        return str(Standing(self.state).label)

    @property
    def badge(self) -> str:
        return BADGES.get(self.state, "secondary")

    @property
    def is_covered(self) -> bool:
        return self.state in COVERED

    @property
    def tag(self) -> Tag | None:
        return self.license.current_tag if self.license else None


def _d(value: date) -> str:
    return date_format(value)


# --- Reads --------------------------------------------------------------------------------


def _lookups():
    return (
        Prefetch(
            "licenses",
            queryset=License.objects.select_related("owner", "receipt")
            .prefetch_related(Prefetch("tags", queryset=Tag.objects.order_by("-year", "number")))
            .order_by("-term_start", "-issued_on", "-pk"),
        ),
        "license_exemptions",
    )


def standing_prefetch(animals):
    """The animals with what their standing reads: city, licenses with tags, exemptions
    (three queries for any number of animals)."""
    return animals.select_related("jurisdiction").prefetch_related(*_lookups())


def prefetch_standing(animals: list) -> None:
    """The same for animals already fetched (the tag lookup's dogs)."""
    prefetch_related_objects(animals, "jurisdiction", *_lookups())


def standing_rules(jurisdiction, *, on: date, extra=()) -> dict[str, Rule]:
    """The standing rules (and ``extra`` keys a page also shows) that this city's
    ordinance has and has filled in.

    One query normally; a blank (RuleNotSet) falls back to key by key, so one missing
    value makes only what depends on it unknown."""
    try:
        present = [k for k in (*STANDING_KEYS, *extra) if k in profile_for(jurisdiction).values]
    except RuleUnavailable:
        return {}
    try:
        return rules_in_force(jurisdiction, present, on=on)
    except RuleUnavailable:
        rules = {}
        for key in present:
            try:
                rules[key] = rule_in_force(jurisdiction, key, on=on)
            except RuleUnavailable:
                continue
        return rules


def license_age_day(date_of_birth: date | None, rules) -> date | None:
    """The first day a dog born on ``date_of_birth`` is past the license age (LIC-01,
    DEF-01: North Branch's "over six months" is strictly after the anniversary)."""
    if date_of_birth is None:
        return None
    reached = add_months(date_of_birth, rules["license_age_months"].value)
    strict = rules["license_age_comparison"].value == "gt"
    return add_calendar_days(reached, 1) if strict else reached


# --- The answer ---------------------------------------------------------------------------


def license_standing(animal: Animal, *, on: date, rules: dict | None = None) -> LicenseStanding:
    """The standing of one animal on ``on`` (a prefetched animal costs no query but the
    rules; pass ``rules`` from ``standing_rules`` to share them across animals)."""
    if rules is None:
        rules = standing_rules(animal.jurisdiction, on=on)
    licenses = sorted(
        (lic for lic in animal.licenses.all() if lic.status != LicenseStatus.VOID),
        key=lambda lic: (lic.term_start, lic.issued_on, lic.pk),
        reverse=True,
    )
    current = next((lic for lic in licenses if lic.is_current(on)), None)
    upcoming = next(
        (lic for lic in licenses if lic.status == LicenseStatus.ACTIVE and lic.term_start > on),
        None,
    )
    if current is not None:
        return _licensed(current, upcoming, rules, on=on, jurisdiction=animal.jurisdiction)
    if not animal.is_alive():
        return LicenseStanding(
            Standing.INACTIVE,
            _("%(status)s: no license is needed.") % {"status": animal.get_status_display()},
            license=licenses[0] if licenses else None,
        )
    if upcoming is not None:  # licensed ahead for the next term (LIC-13)
        return _licensed(upcoming, None, rules, on=on, jurisdiction=animal.jurisdiction)
    return _unlicensed(animal, licenses, rules, on=on)


def license_requirement(animal: Animal, *, on: date) -> LicenseStanding:
    """Whether the animal needs a license at all on ``on``, whatever it holds (the
    counter's check before issuing): not required, exempt, or required (LIC-01, LIC-02)."""
    return _unlicensed(animal, [], standing_rules(animal.jurisdiction, on=on), on=on)


def license_standings(animals, *, on: date) -> dict[int, LicenseStanding]:
    """{animal pk: standing} for animals fetched with ``standing_prefetch``; the rules
    are read once per city."""
    by_city: dict[int, dict] = {}
    found = {}
    for animal in animals:
        if animal.jurisdiction_id not in by_city:
            by_city[animal.jurisdiction_id] = standing_rules(animal.jurisdiction, on=on)
        found[animal.pk] = license_standing(animal, on=on, rules=by_city[animal.jurisdiction_id])
    return found


def renewal_opening(license, rules, *, jurisdiction) -> Opening | None:
    """LIC-13: when the term after ``license`` goes on sale (``terms.next_term_opening``:
    the ordinance's N days before it, North Branch December 2, or the city's earlier
    policy day); None if the city sets no window."""
    window = rules.get("renewal_window_days_before_term")
    if window is None:
        return None
    return next_term_opening(
        jurisdiction=jurisdiction,
        next_start=add_calendar_days(license.expires_on, 1),
        window=window,
    )


def _licensed(license, upcoming, rules, *, on, jurisdiction) -> LicenseStanding:
    """LIC-07: licensed to the expiry; LIC-13: from N days before the next term the
    renewal is open (North Branch: December 2, or the city's earlier policy day)."""
    expiry = rules.get("license_expiry")
    citation = expiry.citation if expiry else ""
    tag = license.current_tag
    reason = (
        _("License %(n)s, tag %(t)s (%(y)s), expires %(d)s.")
        % {"n": license.number, "t": tag.number, "y": tag.year, "d": _d(license.expires_on)}
        if tag
        else _("License %(n)s expires %(d)s.") % {"n": license.number, "d": _d(license.expires_on)}
    )
    if license.term_start > on:
        reason = _("License %(n)s for the next term, from %(s)s to %(d)s.") % {
            "n": license.number,
            "s": _d(license.term_start),
            "d": _d(license.expires_on),
        }
    opening = renewal_opening(license, rules, jurisdiction=jurisdiction)
    if upcoming is None and opening is not None and license.term_start <= on:
        if on >= opening.on:
            return LicenseStanding(
                Standing.RENEWAL_OPEN,
                " ".join(
                    filter(
                        None,
                        (
                            reason,
                            _("Renewal for the next term is open since %(d)s.")
                            % {"d": _d(opening.on)},
                            opening.policy_note(),
                        ),
                    )
                ),
                f"{citation}; {opening.source}" if citation else opening.source,
                license=license,
            )
    return LicenseStanding(
        Standing.LICENSED, reason, citation, license=license, next_license=upcoming
    )


def city_not_licensing(jurisdiction, rules, *, license=None) -> LicenseStanding | None:
    """Why no animal of this city needs a license (LIC-16: it issues none), or that its
    rules are not finished; None where the city licenses some species."""
    enabled, species = rules.get("dog_license_enabled"), rules.get("licensed_species")
    if enabled is None or species is None:
        return LicenseStanding(
            Standing.UNKNOWN,
            _("The city has not finished setting up its ordinance rules."),
            license=license,
        )
    if not enabled.value:  # LIC-16: Glencoe 701 Subd. 2(D), deleted by Ord. 571
        ref = f", {enabled.ordinance_ref}" if enabled.ordinance_ref else ""
        return LicenseStanding(
            Standing.NOT_REQUIRED,
            _(
                "%(city)s issues no dog licenses: the licensing section was deleted from its "
                "ordinance."
            )
            % {"city": jurisdiction.short_name},
            f"{enabled.citation}{ref}",
            license=license,
        )
    return None


def _unlicensed(animal, licenses, rules, *, on) -> LicenseStanding:
    last = licenses[0] if licenses else None
    if blocked := city_not_licensing(animal.jurisdiction, rules, license=last):
        return blocked
    city, species = animal.jurisdiction.short_name, rules["licensed_species"]
    if animal.species not in species.value:  # LIC-18
        return LicenseStanding(
            Standing.NOT_REQUIRED,
            _("%(city)s does not license %(species)s.")
            % {"city": city, "species": animal.get_species_display().lower() + "s"},
            species.citation,
            license=last,
        )
    if exempt := _exemption(animal, rules, on=on):
        return exempt
    if "license_age_months" not in rules or "license_age_comparison" not in rules:
        return LicenseStanding(Standing.UNKNOWN, _("The license age is not set."), license=last)
    age = rules["license_age_months"]
    required_from = license_age_day(animal.date_of_birth, rules)
    if required_from and on < required_from:  # LIC-01: not yet over the license age
        return LicenseStanding(
            Standing.NOT_REQUIRED,
            _("Under the license age of %(age)s: required from %(d)s.")
            % {"age": age.display(), "d": _d(required_from)},
            age.citation,
            required_from=required_from,
        )
    lapsed = next(
        (
            lic
            for lic in licenses
            if lic.status in (LicenseStatus.ACTIVE, LicenseStatus.EXPIRED) and lic.expires_on < on
        ),
        None,
    )
    if lapsed is not None:
        expiry = rules.get("license_expiry")
        return LicenseStanding(
            Standing.EXPIRED,
            _("License %(n)s expired %(d)s; a license is required.")
            % {"n": lapsed.number, "d": _d(lapsed.expires_on)},
            "; ".join(c for c in (expiry.citation if expiry else "", age.citation) if c),
            license=lapsed,
            required_from=required_from,
        )
    reason = (
        _("Over the license age of %(age)s since %(d)s: a license is required.")
        % {"age": age.display(), "d": _d(required_from)}
        if required_from
        else _("Date of birth unknown, treated as over the license age: a license is required.")
    )
    return LicenseStanding(
        Standing.REQUIRED, reason, age.citation, license=last, required_from=required_from
    )


def _exemption(animal, rules, *, on) -> LicenseStanding | None:
    """LIC-02: a service or guide animal, or a recorded exemption covering ``on``, each
    with the section of the profile value that lists its kind."""
    claims = (
        [(str(_("Service or guide animal")), "service_animal", None)]
        if animal.is_service_animal
        else []
    )
    claims += [
        (e.get_kind_display(), e.kind, e) for e in animal.license_exemptions.all() if e.covers(on)
    ]
    for label, kind, record in claims:
        rule = next(
            (rules[k] for k in EXEMPTION_KEYS if k in rules and kind in rules[k].value), None
        )
        citation = rule.citation if rule else (record.citation if record else "")
        if rule is None and not citation:
            continue  # the city's ordinance grants no such exemption
        until = _(" until %(d)s") % {"d": _d(record.ends_on)} if record and record.ends_on else ""
        evidence = f" ({record.evidence})" if record and record.evidence else ""
        return LicenseStanding(
            Standing.EXEMPT,
            _("Exempt: %(kind)s%(until)s%(evidence)s.")
            % {"kind": label, "until": until, "evidence": evidence},
            citation,
        )
    return None


# --- The same answer as a database filter (the vaccinated-but-unlicensed list) ----------

# The states of an animal that needs a license it does not hold (LIC-01, LIC-07).
UNLICENSED = (Standing.REQUIRED, Standing.EXPIRED)


def unlicensed_filter(jurisdiction, *, on: date, rules: dict) -> Q | None:
    """A filter on ``Animal`` that keeps this city's animals whose ``license_standing`` on
    ``on`` is one of ``UNLICENSED``: alive, of a licensed species, no active license
    covering ``on`` or a later term, not exempt, and over the license age (or of unknown
    age). ``rules`` is ``standing_rules(jurisdiction, on=on)``. None when no animal can
    be (the city licenses nothing, or has not finished its rules: "unknown")."""
    if city_not_licensing(jurisdiction, rules) is not None:
        return None
    if "license_age_months" not in rules or "license_age_comparison" not in rules:
        return None
    covered = License.objects.filter(
        animal=OuterRef("pk"), status=LicenseStatus.ACTIVE, expires_on__gte=on
    )
    found = Q(
        jurisdiction=jurisdiction,
        species__in=sorted(rules["licensed_species"].value),
        status=AnimalStatus.ALIVE,
    ) & ~Q(Exists(covered))
    found &= ~_exempt_filter(rules, on=on)
    return found & (
        Q(date_of_birth__isnull=True) | Q(date_of_birth__lte=latest_birth_day(rules, on=on))
    )


def _exempt_filter(rules, *, on: date) -> Q:
    """LIC-02 as ``_exemption`` decides it: a service animal where the city's exemptions
    list it; a recorded exemption covering ``on`` of a kind they list, or that carries
    its own section."""
    allowed = set().union(*(rules[k].value for k in EXEMPTION_KEYS if k in rules))
    covering = (
        LicenseExemption.objects.filter(animal=OuterRef("pk"), starts_on__lte=on)
        .filter(Q(ends_on__isnull=True) | Q(ends_on__gte=on))
        .filter(Q(kind__in=sorted(allowed)) | ~Q(citation=""))
    )
    exempt = Q(Exists(covering))
    if "service_animal" in allowed:
        exempt |= Q(is_service_animal=True)
    return exempt


def latest_birth_day(rules, *, on: date) -> date:
    """The latest date of birth past the license age on ``on`` (``license_age_day`` moves
    with the date of birth, so a search over days finds it; month ends and February 29
    are the function's own)."""

    def past(ordinal: int) -> bool:
        return license_age_day(date.fromordinal(ordinal), rules) <= on

    if past(on.toordinal()):
        return on
    low = add_months(on, -(rules["license_age_months"].value + 1)).toordinal()  # past it
    high = on.toordinal()  # not past it
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if past(middle) else (low, middle)
    return date.fromordinal(low)


def animals_unlicensed(animals, cities, *, on: date, rules_by_city: dict | None = None):
    """``animals`` narrowed to those of ``cities`` that need a license they do not hold on
    ``on`` (``license_standing`` in ``UNLICENSED``), annotated ``license_lapsed`` (an
    earlier license expired: "expired" rather than "required"). One query whatever the
    number of animals; the rules cost one query per city (``rules_by_city`` is filled)."""
    rules_by_city = {} if rules_by_city is None else rules_by_city
    found = Q(pk__in=[])
    for city in cities:
        if city.pk not in rules_by_city:
            rules_by_city[city.pk] = standing_rules(city, on=on)
        where = unlicensed_filter(city, on=on, rules=rules_by_city[city.pk])
        if where is not None:
            found |= where
    lapsed = License.objects.filter(
        animal=OuterRef("pk"),
        status__in=(LicenseStatus.ACTIVE, LicenseStatus.EXPIRED),
        expires_on__lt=on,
    )
    return animals.filter(found).annotate(license_lapsed=Exists(lapsed))
