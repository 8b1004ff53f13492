"""License assessment: terms, checks with their citations, fee lines and the late penalty.

Rules (rules.md): LIC-01..05, LIC-07, LIC-13, LIC-15, FEE-01, FEE-03, KEN-01. Every value
(ages, windows, rates, fees) is read from the city's ordinance profile or fee schedule in
force on the day; this module writes no number of days, months or dollars itself. The
kennel service uses the same term, lateness and fee-line code (LIC-13 applies to kennels).
"""

from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from django.utils.formats import date_format
from django.utils.translation import gettext as _

from licensing.models import Animal, LicenseStatus
from licensing.services.application_rules import application_requirements
from licensing.services.limits import premises_limit_check
from licensing.services.receipts import FeeLine, fee_line
from licensing.services.standing import Standing, license_age_day, license_requirement
from licensing.services.terms import TermChoice, license_terms
from licensing.services.vaccination import covered_until
from ordinance.calendar import add_calendar_days, add_months
from ordinance.fees import fee_amount
from ordinance.money import CENT, money_sum
from ordinance.refusals import Check, Refused
from ordinance.rules import RuleUnavailable, rule_in_force, rules_in_force

TERM_KEYS = (
    "license_expiry",
    "renewal_window_days_before_term",
    "renewal_window_days_after_term_start",
    "new_subject_grace_days",
    "late_penalty_rate",
    "license_age_months",
    "license_age_comparison",
    "rabies_cert_max_months_before_expiry",
)


@dataclass
class Assessment:
    """Everything the counter shows before issuing, and what ``license_issue`` re-checks."""

    enabled: bool
    checks: list[Check] = field(default_factory=list)
    term_start: date | None = None
    expires_on: date | None = None
    is_renewal_window: bool = False
    fee_lines: list[FeeLine] = field(default_factory=list)
    late_penalty: bool = False
    became_subject_on: date | None = None
    vaccination: object = None
    # The terms offered on the day (LIC-07, LIC-13; ``terms.license_terms``) and the
    # check that explains the one assessed.
    terms: TermChoice | None = None
    term_check: Check | None = None

    @property
    def total(self) -> Decimal:
        return money_sum(line.amount for line in self.fee_lines)

    @property
    def can_issue(self) -> bool:
        return self.enabled and not any(c.blocks for c in self.checks)

    @property
    def refusals(self) -> list[Check]:
        return [c for c in self.checks if c.blocks]


def _d(value: date) -> str:
    return date_format(value)


# --- Terms and enablement -------------------------------------------------------------


def issues_dog_licenses(jurisdiction, *, on: date) -> bool:
    """Whether the city issues dog licenses at all on ``on`` (LIC-01; Glencoe deleted its
    licensing section, 701 Subd. 2(D)): what the menu asks on every page, from the
    cache, with the same rule ``licensing_status`` decides by."""
    rule = rule_in_force(jurisdiction, "dog_license_enabled", on=on, cached=True)
    return bool(rule and rule.value)


def licensing_status(*, jurisdiction, species: str, on: date) -> Check:
    """Whether this city licenses this species at all (LIC-01, LIC-16, LIC-18)."""
    try:
        rules = rules_in_force(jurisdiction, ("dog_license_enabled", "licensed_species"), on=on)
    except RuleUnavailable as exc:
        return Check(_("Licensing in this city"), "fail", str(exc), exc.citation or "")
    enabled = rules["dog_license_enabled"]
    if not enabled.value:
        ref = f", {enabled.ordinance_ref}" if enabled.ordinance_ref else ""
        return Check(
            _("Licensing in this city"),
            "fail",
            _(
                "%(city)s does not issue dog licenses: the licensing section was "
                "deleted from its ordinance."
            )
            % {"city": jurisdiction.short_name},
            f"{enabled.citation}{ref}",
        )
    species_rule = rules["licensed_species"]
    if species not in species_rule.value:
        return Check(
            _("Licensing in this city"),
            "fail",
            _("%(city)s does not license this species.") % {"city": jurisdiction.short_name},
            species_rule.citation,
        )
    return Check(
        _("Licensing in this city"), "ok", _("Dog licenses are issued here."), enabled.citation
    )


def license_term(*, jurisdiction, on: date, rules=None) -> tuple[date, date, bool]:
    """(term_start, expires_on, is next term) of the default term applied for on ``on``
    (LIC-07, LIC-13): ``terms.license_terms``' one answer."""
    rules = rules or rules_in_force(jurisdiction, TERM_KEYS, on=on)
    choice = license_terms(jurisdiction=jurisdiction, on=on, rules=rules)
    term = choice.default
    return term.start, term.expires_on, choice.is_next(term)


def license_term_choice(*, jurisdiction, on: date) -> TermChoice | None:
    """The terms a dog license may be issued for on ``on`` (``terms.license_terms``);
    None where the city issues none or has not set its term rules (the assessment then
    says why, with the section)."""
    try:
        rules = rules_in_force(jurisdiction, TERM_KEYS, on=on)
    except RuleUnavailable:
        return None
    return license_terms(jurisdiction=jurisdiction, on=on, rules=rules)


def became_subject_on(animal: Animal, *, rules) -> date | None:
    """Later of acquisition and the day the dog passed the license age (LIC-03, LIC-13)."""
    candidates = [
        d for d in (animal.acquired_on, license_age_day(animal.date_of_birth, rules)) if d
    ]
    return max(candidates) if candidates else None


def is_late(*, on: date, term_start: date, subject_on: date | None, renewal: bool, rules) -> bool:
    """LIC-13 / FEE-03: late after the window following term start, unless newly subject.

    Read as rules.md interprets NB Sec. 6-65(c): penalty when the application comes
    more than N days after the term start; none when the dog became subject after the
    term started and the application is within the grace days of that date.
    """
    if renewal:
        return False
    window_ends = add_calendar_days(term_start, rules["renewal_window_days_after_term_start"].value)
    if on <= window_ends:
        return False
    if subject_on and subject_on > term_start:
        return on > add_calendar_days(subject_on, rules["new_subject_grace_days"].value)
    return True


# --- Checks ---------------------------------------------------------------------------


def rabies_check(animal: Animal, *, expires_on: date, on: date, rule, vaccination=None):
    """LIC-05/LIC-15: a vaccination given not more than N months before the license's
    expiry date and not after today (NB Sec. 6-61, 6-77). Returns (Check, vaccination)."""
    earliest = add_months(expires_on, -rule.value)
    candidates = [vaccination] if vaccination else list(animal.vaccinations.all())
    valid = [v for v in candidates if earliest <= v.vaccinated_on <= on]
    label = _("Rabies vaccination")
    if valid:
        best = max(valid, key=lambda v: v.vaccinated_on)
        return Check(
            label,
            "ok",
            _(
                "Vaccinated %(when)s by %(vet)s: covers a license expiring "
                "%(expiry)s (on or after %(earliest)s)."
            )
            % {
                "when": _d(best.vaccinated_on),
                "vet": best.veterinarian_name,
                "expiry": _d(expires_on),
                "earliest": _d(earliest),
            },
            rule.citation,
        ), best
    dates = {"expiry": _d(expires_on), "earliest": _d(earliest)}
    if not candidates:
        message = (
            _(
                "No rabies vaccination is on file. A license expiring %(expiry)s needs a "
                "vaccination given between %(earliest)s and today."
            )
            % dates
        )
    else:
        latest = max(candidates, key=lambda v: v.vaccinated_on)
        message = _too_old_message(latest, rule, expires_on=expires_on, earliest=earliest, on=on)
    return Check(label, "fail", message, rule.citation), None


def _too_old_message(latest, rule, *, expires_on: date, earliest: date, on: date) -> str:
    """Why a vaccination does not qualify, in words: a vaccine still valid today but given
    more than the rule's months before the license expires (NB Sec. 6-61: the test is
    against the license's expiry, not against the vaccine's own duration; LIC-05)."""
    dates = {
        "when": _d(latest.vaccinated_on),
        "expiry": _d(expires_on),
        "earliest": _d(earliest),
        "limit": rule.display(),
    }
    if latest.vaccinated_on < earliest and covered_until(latest) >= on:
        return _(
            "The vaccination of %(when)s is still valid (until %(until)s), but it was given "
            "more than %(limit)s before this license expires on %(expiry)s. The ordinance "
            "requires a vaccination given no more than %(limit)s before the license's "
            "expiry: on or after %(earliest)s."
        ) % {**dates, "until": _d(covered_until(latest))}
    return (
        _(
            "The vaccination of %(when)s does not qualify: a license expiring "
            "%(expiry)s needs a vaccination given on or after %(earliest)s and not "
            "after today."
        )
        % dates
    )


def requirement_check(animal, *, on) -> Check:
    """LIC-01/LIC-02 at the counter: the one standing service's answer on whether this
    animal needs a license; an exempt or young dog may still be licensed."""
    need = license_requirement(animal, on=on)
    if need.state == Standing.UNKNOWN:
        return Check(_("License required"), "fail", need.reason, need.citation)
    status = "ok" if need.state == Standing.REQUIRED else "info"
    label = _("Exemption") if need.state == Standing.EXEMPT else _("License required")
    return Check(label, status, f"{need.label}. {need.reason}", need.citation)


def _duplicate_check(animal, *, term_start) -> Check | None:
    existing = [
        lic
        for lic in animal.licenses.all()
        if lic.status == LicenseStatus.ACTIVE and lic.term_start == term_start
    ]
    if existing:
        return Check(
            _("Existing license"),
            "fail",
            _("Already licensed for this term (license %(number)s).")
            % {"number": existing[0].number},
        )
    return None


def application_check(animal, owner, *, on: date) -> Check | None:
    """LIC-04: the written application states what the city's ordinance lists (the one
    answer the entry forms use too: ``application_rules.application_requirements``)."""
    needs = application_requirements(animal.jurisdiction, on=on)
    if not needs.keys:
        return None
    missing = needs.missing(animal, owner)
    if missing:
        return Check(
            _("Application"),
            "fail",
            _("The application must also state %(what)s.")
            % {"what": ", ".join(str(m) for m in missing)},
            needs.citation,
        )
    return Check(
        _("Application"), "ok", _("The application states everything required."), needs.citation
    )


def _animal_checks(animal, owner) -> list[Check]:
    checks = []
    if not animal.is_alive():
        checks.append(
            Check(
                _("Animal"),
                "fail",
                _("The animal is recorded as %(status)s.")
                % {"status": animal.get_status_display().lower()},
            )
        )
    if owner.pk != animal.owner_id:
        checks.append(
            Check(
                _("Owner"),
                "fail",
                _("The license must be issued to the animal's recorded owner; transfer it first."),
            )
        )
    if animal.premises_id is None:
        checks.append(Check(_("Premises"), "fail", _("Record where the animal is kept first.")))
    return checks


# --- Assessment -----------------------------------------------------------------------


def license_assess(
    *,
    animal: Animal,
    owner,
    on: date,
    subject_on: date | None = None,
    vaccination=None,
    applied_on: date | None = None,
    term_year: int | None = None,
) -> Assessment:
    """All checks and fee lines for licensing ``animal`` on ``on`` (the payment date).

    ``term_year`` is the clerk's choice of term (the year its tags carry) among those
    ``terms.license_terms`` offers; None takes the default (the next term once its sales
    are open, LIC-13).

    ``applied_on`` is the day the application reached the city (an online application
    paid later); it decides the term and the late penalty (NB Sec. 6-65(c),
    LIC-13, FEE-03). At the counter the two are the same day."""
    applied_on = min(applied_on or on, on)
    jurisdiction = animal.jurisdiction
    status = licensing_status(jurisdiction=jurisdiction, species=animal.species, on=on)
    if status.blocks:
        return Assessment(enabled=False, checks=[status])
    try:
        rules = rules_in_force(jurisdiction, TERM_KEYS, on=on)
    except RuleUnavailable as exc:
        return Assessment(
            enabled=False,
            checks=[status, Check(_("Ordinance"), "fail", str(exc), exc.citation or "")],
        )
    terms = license_terms(jurisdiction=jurisdiction, on=applied_on, rules=rules)
    term = terms.pick(term_year)
    if term is None:
        return Assessment(
            enabled=True, checks=[status, _term_refused(terms, term_year)], terms=terms
        )
    term_start, expires_on, renewal = term.start, term.expires_on, terms.is_next(term)
    term_check = _term_check(terms, term)
    a = Assessment(
        enabled=True,
        checks=[status, term_check],
        term_check=term_check,
        term_start=term_start,
        expires_on=expires_on,
        is_renewal_window=renewal,
        terms=terms,
    )
    a.checks += _animal_checks(animal, owner)
    a.checks += _standing_checks(animal, owner, on=on, term_start=term_start)
    rabies, a.vaccination = rabies_check(
        animal,
        expires_on=expires_on,
        on=on,
        vaccination=vaccination,
        rule=rules["rabies_cert_max_months_before_expiry"],
    )
    a.checks.append(rabies)
    a.became_subject_on = subject_on or became_subject_on(animal, rules=rules)
    a.late_penalty = is_late(
        on=applied_on,
        term_start=term_start,
        subject_on=a.became_subject_on,
        renewal=renewal,
        rules=rules,
    )
    _add_fee_lines(
        a, jurisdiction=jurisdiction, on=max(on, term_start), rate=rules["late_penalty_rate"]
    )
    return a


def _standing_checks(animal: Animal, owner, *, on: date, term_start: date) -> list[Check]:
    """The application window, whether a license is required, a license already held
    for the term, and the premises' animal limit (KEN-01)."""
    checks = []
    if application := application_check(animal, owner, on=on):
        checks.append(application)
    checks.append(requirement_check(animal, on=on))
    if dup := _duplicate_check(animal, term_start=term_start):
        checks.append(dup)
    if animal.premises_id:
        try:  # KEN-01: a blank limit is a failing check with its section, not an error
            limit = premises_limit_check(premises=animal.premises, on=on, adding=animal)
        except Refused as exc:
            checks += exc.checks
        else:
            checks.append(
                Check(
                    _("Animal limit"), "ok" if limit.ok else "fail", limit.message, limit.citation
                )
            )
    return checks


def _term_check(terms: TermChoice, term) -> Check:
    """LIC-07/LIC-13: the term chosen, and what the clerk should know about it: the
    current term's days left, or when the next term's sales open (with its authority:
    the ordinance's section or "City policy")."""
    status = "ok" if terms.is_next(term) else "info"  # the current term: mind its days left
    return Check(_("License term"), status, terms.explain(term), terms.opening.source)


def _term_refused(terms: TermChoice, year) -> Check:
    return Check(
        _("License term"),
        "fail",
        _("A license for %(y)s cannot be issued today. %(opening)s")
        % {"y": year, "opening": terms.opening.describe(terms.on)},
        terms.opening.source,
        field="term_year",
    )


def _add_fee_lines(a: Assessment, *, jurisdiction, on, rate) -> None:
    """FEE-01 license fee from the schedule in force on ``on``: the payment date, or for a
    next-term license the term's first day (the fee set for that year); FEE-03 penalty."""
    try:
        fee = license_fee(jurisdiction, on=on)
    except RuleUnavailable as exc:
        a.checks.append(Check(_("License fee"), "fail", str(exc), exc.citation or ""))
        return
    a.fee_lines += fee_lines(fee, late=a.late_penalty, rate=rate)


def license_fee(jurisdiction, *, on: date):
    """FEE-01: the dog license fee in force on ``on`` (the schedule's, with its authority).
    Raises ``RuleUnavailable`` (``FeeNotSet``) when the council has set none."""
    return fee_amount(jurisdiction, "dog_license", on=on)


def renewal_fee_lines(jurisdiction, *, term_start: date) -> list[FeeLine]:
    """What a renewal for the term from ``term_start`` costs when made on time (LIC-13:
    no late penalty): the fee in force on the term's first day, as ``license_assess``
    charges a next-term license (the renewal notices by mail)."""
    return fee_lines(license_fee(jurisdiction, on=term_start), late=False)


def late_penalty_line(base: FeeLine, *, rate, code: str = "late_penalty") -> FeeLine:
    """LIC-13 / FEE-03: the penalty as a share of the license fee, collected with it."""
    penalty = (base.amount * rate.value).quantize(CENT, rounding=ROUND_HALF_UP)
    return FeeLine(
        code,
        _("Late penalty (%(rate)s of the license fee)") % {"rate": rate.display()},
        penalty,
        rate.citation,
    )


def fee_lines(fee, *, late: bool, rate=None, penalty_code: str = "late_penalty") -> list[FeeLine]:
    """The fee line, then the late penalty line when ``late`` (dog and kennel licenses)."""
    lines = [fee_line(fee)]
    if late and rate is not None and rate.value:
        lines.append(late_penalty_line(lines[0], rate=rate, code=penalty_code))
    return lines
