"""Reads the ordinance pages share: the rules in force, their history, the fee table.

Each function reads a bounded number of queries whatever the number of values or
jurisdictions (the profile page lists well over a hundred values per city).
"""

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from . import display, kinds
from .models import FeeScheduleEntry, Jurisdiction, RuleValue
from .profiles import (
    AT_LEAST,
    AT_MOST,
    Passage,
    Profile,
    ProfileError,
    StateLayer,
    ValueSpec,
    get_profile,
    get_state_layer,
)
from .rules import STATE, RuleLayers, RuleUnavailable, layers_from_rows


@dataclass
class StateLine:
    """One value of the state's law beneath the city's profile, and which layer governs."""

    spec: ValueSpec
    layers: RuleLayers | None  # None where neither layer has a value in force
    error: str = ""
    history: list[RuleValue] = field(default_factory=list)

    @property
    def floor_words(self) -> str:
        """How an ordinance may depart from the statute, in a few words."""
        if self.spec.floor == AT_LEAST:
            return _("At least")
        if self.spec.floor == AT_MOST:
            return _("At most")
        return _("Fixed:")

    @property
    def note(self) -> str:
        return display.plain_note(self.spec.note)

    @property
    def state_governs(self) -> bool:
        return self.layers is not None and self.layers.governing.governed_by == STATE


@dataclass
class RuleLine:
    """One profile value as a page shows it."""

    spec: ValueSpec
    row: RuleValue | None
    passage: Passage | None = None
    history: list[RuleValue] = field(default_factory=list)
    state: StateLine | None = None  # where the state's law sets the same value
    profile: Profile | None = None
    # every value of the city in force (key -> value): a code's neighbors give its words
    neighbors: dict[str, Any] = field(default_factory=dict)

    @property
    def value(self) -> Any:
        return None if self.row is None else kinds.to_python(self.spec.kind, self.row.value)

    @property
    def is_blank(self) -> bool:
        return self.row is None or self.row.value is None

    @property
    def display(self) -> str:
        return self.words(self.value)

    @property
    def note(self) -> str:
        return display.plain_note(self.spec.note)

    def words(self, value) -> str:
        return display.spec_words(self.spec, value, profile=self.profile, values=self.neighbors)

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
    state_name: str = ""  # "Minnesota": the state law layer beneath the profile, if any
    state_lines: list[StateLine] = field(default_factory=list)

    @property
    def blank_lines(self) -> list[RuleLine]:
        return [line for line in self.lines if line.is_blank]


def _profile(jurisdiction):
    try:
        return get_profile(jurisdiction.profile_key), ""
    except ProfileError as exc:
        return None, str(exc)


def _state_layer(jurisdiction) -> tuple[StateLayer | None, str]:
    try:
        return get_state_layer(jurisdiction.state), ""
    except ProfileError as exc:
        return None, str(exc)


def _with_state_law(jurisdictions, **filters) -> Q:
    """The cities' own rows and their states' law rows, for one query."""
    states = {j.state for j in jurisdictions}
    return Q(jurisdiction__in=jurisdictions, **filters) | Q(
        jurisdiction__isnull=True, state__in=states, **filters
    )


def _owner(row: RuleValue):
    # City rows are keyed by the jurisdiction's id, state rows by the state ("MN").
    return row.state if row.jurisdiction_id is None else row.jurisdiction_id


def rules_in_force(jurisdictions, *, on: date, with_text: bool = True) -> list[CityRules]:
    """For each jurisdiction, every profile value in force on ``on`` and its state's law
    beneath it (one query in all)."""
    jurisdictions = list(jurisdictions)
    latest: dict[tuple[Any, str], RuleValue] = {}
    rows = RuleValue.objects.filter(
        _with_state_law(jurisdictions, effective_from__lte=on)
    ).order_by("jurisdiction_id", "state", "key", "-effective_from", "-pk")
    for row in rows:
        latest.setdefault((_owner(row), row.key), row)
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
        city = CityRules(jurisdiction, profile, lines, error)
        _in_words(city)
        _add_state_law(city, on, lambda owner, key: latest.get((owner, key)))
        found.append(city)
    return found


def rule_history(jurisdiction: Jurisdiction, *, on: date) -> CityRules:
    """Every value with all its rows (adopted value and amendments), newest first, and
    the state's law beneath the profile with its own rows (one query)."""
    profile, error = _profile(jurisdiction)
    by_key = defaultdict(list)
    rows = (
        RuleValue.objects.filter(_with_state_law([jurisdiction]))
        .select_related("recorded_by")
        .order_by("key", "-effective_from", "-pk")
    )
    for row in rows:
        by_key[(_owner(row), row.key)].append(row)
    lines = []
    for spec in profile.values.values() if profile else ():
        history = by_key.get((jurisdiction.pk, spec.key), [])
        current = next((r for r in history if r.effective_from <= on), None)
        lines.append(RuleLine(spec, current, profile.passage(spec.quote), history))
    city = CityRules(jurisdiction, profile, lines, error)
    _in_words(city)

    def in_force(owner, key):
        return next((r for r in by_key.get((owner, key), []) if r.effective_from <= on), None)

    _add_state_law(city, on, in_force, history=by_key)
    return city


def _in_words(city: CityRules) -> None:
    """Give each line what it needs to word its value, and each history row its words
    (``row.words``), as the page shows them."""
    neighbors = {line.spec.key: line.value for line in city.lines}
    for line in city.lines:
        line.profile, line.neighbors = city.profile, neighbors
        for row in line.history:
            row.words = line.words(kinds.to_python(line.spec.kind, row.value))
            row.plain_note = display.plain_note(row.note)


def _add_state_law(city: CityRules, on: date, in_force, history=None) -> None:
    """Fill ``city.state_lines`` from the rows in force (``in_force(owner, key)``)."""
    layer, error = _state_layer(city.jurisdiction)
    if city.profile is None or (layer is None and not error):
        return
    if layer is None:
        city.error = city.error or error
        return
    city.state_name = layer.name
    j = city.jurisdiction
    for spec in layer.values.values():
        city_spec = city.profile.values.get(spec.key)
        try:
            layers, problem = (
                layers_from_rows(
                    j, city_spec, spec, in_force(j.pk, spec.key), in_force(j.state, spec.key), on=on
                ),
                "",
            )
        except RuleUnavailable as exc:
            layers, problem = None, str(exc)
        line = StateLine(spec, layers, problem, (history or {}).get((j.state, spec.key), []))
        for row in line.history:
            row.words = display.spec_words(spec, kinds.to_python(spec.kind, row.value))
            row.plain_note = display.plain_note(row.note)
        city.state_lines.append(line)
    by_key = {line.spec.key: line for line in city.state_lines}
    for line in city.lines:
        line.state = by_key.get(line.spec.key)


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
