"""A kennel license's term, expiry and lateness (KEN-05, LIC-13), by the dog license's
annual-term rule; None where the city's ordinance sets no kennel term."""

from datetime import date

from licensing.services.assessment import is_late
from licensing.services.terms import annual_term
from ordinance.rules import RuleUnavailable, rule_in_force, rules_in_force

KENNEL_TERM_KEYS = (
    "kennel_license_expiry",
    "renewal_window_days_before_term",
    "renewal_window_days_after_term_start",
    "new_subject_grace_days",
    "late_penalty_rate",
)


def kennel_term_rules(kennel, *, on: date) -> dict | None:
    """The term and penalty rules, or None where the ordinance sets no kennel term or no
    penalty (Glencoe: KEN-05 blank, LIC-13 not in ordinance): then no penalty applies."""
    try:
        return rules_in_force(kennel.jurisdiction, KENNEL_TERM_KEYS, on=on)
    except RuleUnavailable:
        return None


def kennel_term(kennel, *, on: date, rules=None) -> tuple[date, date, bool] | None:
    """(term_start, expires_on, renewal) of a kennel license paid on ``on`` (KEN-05), by
    the same annual-term rule as dog licenses; None where the city sets no term."""
    rules = rules or kennel_term_rules(kennel, on=on)
    if rules is None:
        return None
    return annual_term(
        expiry_md=rules["kennel_license_expiry"].value,
        on=on,
        days_before=rules["renewal_window_days_before_term"].value,
    )


def kennel_is_late(kennel, *, on: date, rules=None) -> bool:
    """LIC-13 for kennels (NB Sec. 6-65(c)): the dog license's lateness rule, with the
    new-subject grace counted from ``kennel.became_subject_on``."""
    rules = rules or kennel_term_rules(kennel, on=on)
    if rules is None:
        return False
    term_start, _expires, renewal = kennel_term(kennel, on=on, rules=rules)
    return is_late(
        on=on,
        term_start=term_start,
        subject_on=kennel.became_subject_on,
        renewal=renewal,
        rules=rules,
    )


def kennel_expiry(kennel, *, on: date) -> date | None:
    """Expiry per ``kennel_license_expiry`` (NB Dec 31, KEN-05), for the term the fee paid
    on ``on`` is for (from Dec 2 the next term, LIC-13); None where the ordinance sets no
    term (Glencoe 701 Subd. 4): valid until revoked, and the pages warn."""
    try:
        rule = rule_in_force(kennel.jurisdiction, "kennel_license_expiry", on=on)
    except RuleUnavailable:
        return None
    term = kennel_term(kennel, on=on)
    return term[1] if term else rule.value.on_year(on.year)


def kennel_term_warning(kennel, *, on: date) -> str:
    """The RuleNotSet sentence when the city's ordinance sets no kennel term, else ""."""
    try:
        rule_in_force(kennel.jurisdiction, "kennel_license_expiry", on=on)
    except RuleUnavailable as exc:
        return str(exc)
    return ""
