"""Reads the ordinance pages share: the rules in force, their history, the fee table.

Each function reads a bounded number of queries whatever the number of values or
jurisdictions (the profile page lists well over a hundred values per city).
"""

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from . import kinds
from .models import FeeScheduleEntry, Jurisdiction, RuleValue
from .profiles import Passage, Profile, ProfileError, ValueSpec, get_profile


@dataclass
class RuleLine:
    """One profile value as a page shows it."""

    spec: ValueSpec
    row: RuleValue | None
    passage: Passage | None = None
    history: list[RuleValue] = field(default_factory=list)

    @property
    def value(self) -> Any:
        return None if self.row is None else kinds.to_python(self.spec.kind, self.row.value)

    @property
    def is_blank(self) -> bool:
        return self.row is None or self.row.value is None

    @property
    def display(self) -> str:
        return kinds.display(self.spec.kind, self.spec.unit, self.value)

    @property
    def citation(self) -> str:
        return self.row.citation if self.row else self.spec.citation

    @property
    def rule_ids(self) -> list[str]:
        return (
            list(self.row.rule_ids) if self.row and self.row.rule_ids else list(self.spec.rule_ids)
        )


@dataclass
class CityRules:
    jurisdiction: Jurisdiction
    profile: Profile | None
    lines: list[RuleLine]
    error: str = ""

    @property
    def blank_lines(self) -> list[RuleLine]:
        return [line for line in self.lines if line.is_blank]


def _profile(jurisdiction):
    try:
        return get_profile(jurisdiction.profile_key), ""
    except ProfileError as exc:
        return None, str(exc)


def rules_in_force(jurisdictions, *, on: date, with_text: bool = True) -> list[CityRules]:
    """For each jurisdiction, every profile value in force on ``on`` (one query in all)."""
    jurisdictions = list(jurisdictions)
    latest: dict[tuple[int, str], RuleValue] = {}
    rows = RuleValue.objects.filter(
        jurisdiction__in=jurisdictions, effective_from__lte=on
    ).order_by("jurisdiction_id", "key", "-effective_from", "-pk")
    for row in rows:
        latest.setdefault((row.jurisdiction_id, row.key), row)
    found = []
    for jurisdiction in jurisdictions:
        profile, error = _profile(jurisdiction)
        specs = profile.values.values() if profile else ()
        lines = [
            RuleLine(
                spec,
                latest.get((jurisdiction.pk, spec.key)),
                profile.passage(spec.quote) if with_text else None,
            )
            for spec in specs
        ]
        found.append(CityRules(jurisdiction, profile, lines, error))
    return found


def rule_history(jurisdiction: Jurisdiction, *, on: date) -> CityRules:
    """Every value with all its rows (adopted value and amendments), newest first."""
    profile, error = _profile(jurisdiction)
    by_key = defaultdict(list)
    rows = (
        RuleValue.objects.filter(jurisdiction=jurisdiction)
        .select_related("recorded_by")
        .order_by("key", "-effective_from", "-pk")
    )
    for row in rows:
        by_key[row.key].append(row)
    lines = []
    for spec in profile.values.values() if profile else ():
        history = by_key.get(spec.key, [])
        current = next((r for r in history if r.effective_from <= on), None)
        lines.append(RuleLine(spec, current, profile.passage(spec.quote), history))
    return CityRules(jurisdiction, profile, lines, error)


@dataclass
class FeeLine:
    code: str
    description: str
    amount: Any  # Decimal or None when not set
    authority: str
    effective_from: date | None
    citation: str = ""


@dataclass
class CityFees:
    jurisdiction: Jurisdiction
    in_force: list[FeeLine]
    schedule: list[FeeScheduleEntry]


def fee_tables(jurisdictions, *, on: date) -> list[CityFees]:
    """Fees in force on ``on`` and every schedule row, per jurisdiction (two queries)."""
    jurisdictions = list(jurisdictions)
    cities = {c.jurisdiction.pk: c for c in rules_in_force(jurisdictions, on=on, with_text=False)}
    schedule = defaultdict(list)
    for entry in FeeScheduleEntry.objects.filter(jurisdiction__in=jurisdictions).order_by(
        "code", "-effective_from", "-pk"
    ):
        schedule[entry.jurisdiction_id].append(entry)
    return [
        CityFees(j, _fees_in_force(cities[j.pk], schedule[j.pk], on), schedule[j.pk])
        for j in jurisdictions
    ]


def _fees_in_force(city: CityRules, entries: list[FeeScheduleEntry], on: date):
    """Same precedence as ``ordinance.fees.fee_amount``: the ordinance, else the schedule."""
    lines_by_key = {line.spec.key: line for line in city.lines}
    fees = city.profile.fees if city.profile else {}
    codes = list(fees) + sorted({e.code for e in entries} - set(fees))
    found = []
    for code in codes:
        spec = fees.get(code)
        line = lines_by_key.get(spec.rule) if spec else None
        if line is not None and not line.is_blank:
            found.append(
                FeeLine(
                    code,
                    spec.description,
                    line.value,
                    line.citation,
                    line.row.effective_from,
                    line.citation,
                )
            )
            continue
        entry = next((e for e in entries if e.code == code and e.effective_from <= on), None)
        citation = line.citation if line else ""
        if entry is not None:
            found.append(
                FeeLine(
                    code,
                    entry.description,
                    entry.amount,
                    entry.resolution,
                    entry.effective_from,
                    citation,
                )
            )
        else:
            found.append(
                FeeLine(code, spec.description if spec else code, None, "", None, citation)
            )
    return found
