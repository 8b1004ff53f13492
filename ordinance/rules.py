"""Reading the rules in force: every other app asks here for a number of days or dollars.

    rule = get_rule(jurisdiction, "impound_hold_business_days", on=intake_date)
    rule.value      # 5
    rule.display()  # "5 business days"
    rule.citation   # "North Branch Sec. 6-68"

The value in force on a date is the ``RuleValue`` row with the latest ``effective_from``
on or before it (architecture.md, "Rules as data"). A value the ordinance leaves blank
raises ``RuleNotSet`` until an administrator fills it in; a value the city's ordinance
does not have at all raises ``RuleNotInOrdinance`` (rules.md Section 0).
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db import transaction
from django.utils import timezone
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

from . import kinds
from .models import Jurisdiction, RuleValue
from .profiles import Profile, ProfileError, ValueSpec, get_profile


class RuleUnavailable(Exception):
    """A rule the software cannot apply; ``str(e)`` is a sentence a clerk can read."""

    def __init__(self, message: str, *, jurisdiction=None, key: str = "", citation: str = ""):
        super().__init__(message)
        self.jurisdiction = jurisdiction
        self.key = key
        self.citation = citation


class RuleNotSet(RuleUnavailable):
    """The ordinance leaves this value blank and no administrator has set it yet."""


class RuleNotInOrdinance(RuleUnavailable):
    """This city's ordinance has no such value at all."""


@dataclass(frozen=True)
class Rule:
    key: str
    label: str
    value: Any
    kind: str
    unit: str
    citation: str
    rule_ids: tuple[str, ...]
    effective_from: date
    ordinance_ref: str
    note: str = ""

    def display(self) -> str:
        return kinds.display(self.kind, self.unit, self.value)

    def __str__(self) -> str:
        return f"{self.display()} ({self.citation})"


def profile_for(jurisdiction: Jurisdiction) -> Profile:
    """The profile the city adopted; RuleNotInOrdinance if its data file is missing."""
    try:
        return get_profile(jurisdiction.profile_key)
    except ProfileError as exc:
        raise RuleNotInOrdinance(
            f"{jurisdiction.name} has no ordinance profile: {exc}", jurisdiction=jurisdiction
        ) from exc


def get_rules(jurisdiction: Jurisdiction, keys: Iterable[str], *, on: date) -> dict[str, Rule]:
    """The rules in force on ``on`` for all ``keys``, read with one query."""
    keys = list(dict.fromkeys(keys))
    profile = profile_for(jurisdiction)
    specs = {key: _spec(profile, jurisdiction, key) for key in keys}
    latest: dict[str, RuleValue] = {}
    for row in RuleValue.objects.in_force(jurisdiction, keys, on):
        latest.setdefault(row.key, row)
    return {key: _rule(jurisdiction, specs[key], latest.get(key), on) for key in keys}


def get_rule(jurisdiction: Jurisdiction, key: str, *, on: date) -> Rule:
    return get_rules(jurisdiction, [key], on=on)[key]


def get_value(jurisdiction: Jurisdiction, key: str, *, on: date) -> Any:
    return get_rule(jurisdiction, key, on=on).value


def get_optional(jurisdiction: Jurisdiction, key: str, *, on: date) -> Rule | None:
    """None when the ordinance has no such value; still raises RuleNotSet for a blank."""
    try:
        return get_rule(jurisdiction, key, on=on)
    except RuleNotInOrdinance:
        return None


def rule_citation(jurisdiction: Jurisdiction, rule_id: str) -> str:
    """The section of the city's ordinance for rule ``rule_id`` (a rules.md ID), as its
    profile cites it, for a refusal or a label: "North Branch Sec. 6-64" for LIC-14.
    "" where the city's ordinance has no such rule (or the city has no profile)."""
    try:
        return profile_for(jurisdiction).section(rule_id)
    except RuleNotInOrdinance:
        return ""


def _spec(profile: Profile, jurisdiction: Jurisdiction, key: str) -> ValueSpec:
    spec = profile.values.get(key)
    if spec is None:
        raise RuleNotInOrdinance(
            f"{jurisdiction.name}'s ordinance has no rule “{key}”; "
            "this feature does not apply there.",
            jurisdiction=jurisdiction,
            key=key,
        )
    return spec


def _rule(jurisdiction, spec: ValueSpec, row: RuleValue | None, on: date) -> Rule:
    if row is None:
        raise RuleNotSet(
            f"{spec.label} has no value in force on {on:%B} {on.day}, {on.year} for "
            f"{jurisdiction.name} "
            f"({spec.citation}); an administrator must load the ordinance profile or "
            "record the value first.",
            jurisdiction=jurisdiction,
            key=spec.key,
            citation=spec.citation,
        )
    if row.value is None:
        raise RuleNotSet(
            f"{spec.label} is blank in the ordinance ({row.citation}); "
            "an administrator must set it first.",
            jurisdiction=jurisdiction,
            key=spec.key,
            citation=row.citation,
        )
    return Rule(
        key=spec.key,
        label=spec.label,
        value=kinds.to_python(spec.kind, row.value),
        kind=spec.kind,
        unit=spec.unit,
        citation=row.citation,
        rule_ids=tuple(row.rule_ids or spec.rule_ids),
        effective_from=row.effective_from,
        ordinance_ref=row.ordinance_ref,
        note=row.note,
    )


@transaction.atomic
def load_profile(jurisdiction: Jurisdiction) -> int:
    """Seed (or refresh) the adopted values of the city's profile; returns rows written.

    The adopted values are the rows dated the ordinance's adoption; amendments are later
    rows and are never touched here, so running this again changes nothing.
    """
    profile = profile_for(jurisdiction)
    existing = {
        row.key: row
        for row in RuleValue.objects.filter(
            jurisdiction=jurisdiction, effective_from=profile.adopted
        )
    }
    new, changed = [], []
    for spec in profile.values.values():
        fields = {
            "value": spec.raw,
            "citation": spec.citation,
            "rule_ids": list(spec.rule_ids),
            "ordinance_ref": profile.ordinance_ref,
            "note": spec.note,
        }
        row = existing.get(spec.key)
        if row is not None and row.recorded_by_id is not None:
            continue  # an administrator corrected the adopted value; keep their record
        if row is None:
            new.append(
                RuleValue(
                    jurisdiction=jurisdiction,
                    key=spec.key,
                    effective_from=profile.adopted,
                    **fields,
                )
            )
        elif any(getattr(row, name) != value for name, value in fields.items()):
            for name, value in fields.items():
                setattr(row, name, value)
            changed.append(row)
    if new:
        bulk_create_with_history(new, RuleValue)
    if changed:
        bulk_update_with_history(changed, RuleValue, list(fields))
    return len(new) + len(changed)


def rule_amend(
    *,
    jurisdiction: Jurisdiction,
    key: str,
    value: Any,
    effective_from: date,
    ordinance_ref: str,
    note: str = "",
    citation: str = "",
    actor=None,
) -> RuleValue:
    """Record an amendment (or fill a blank) from ``effective_from`` on.

    ``value`` is the typed value (``kinds.parse_input``); a row already recorded for the
    same date is corrected rather than duplicated, and its history keeps the old value.
    """
    from .models import Event

    spec = _spec(profile_for(jurisdiction), jurisdiction, key)
    stored = kinds.to_json(spec.kind, value)
    current = RuleValue.objects.in_force(jurisdiction, [key], effective_from).first()
    row, _ = RuleValue.objects.update_or_create(
        jurisdiction=jurisdiction,
        key=key,
        effective_from=effective_from,
        defaults={
            "value": stored,
            "ordinance_ref": ordinance_ref,
            "note": note,
            "citation": citation or (current.citation if current else spec.citation),
            "rule_ids": list(current.rule_ids if current else spec.rule_ids),
            "recorded_by": actor,
            "recorded_at": timezone.now(),
        },
    )
    Event.record(
        "ordinance.rule.amended",
        row,
        actor=actor,
        jurisdiction=jurisdiction,
        summary=f"{spec.label}: {kinds.display(spec.kind, spec.unit, value)} "
        f"from {effective_from} ({ordinance_ref})",
        data={"key": key, "value": stored, "effective_from": str(effective_from)},
    )
    return row
