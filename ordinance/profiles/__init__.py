"""Ordinance profiles: one TOML data file per adopted ordinance (``<profile_key>.toml``).

A profile says, for each value, what it means (label, type, unit), where the ordinance
sets it (citation, rule IDs, a verbatim quote) and its value as adopted. The database
(``RuleValue``) holds the values in force over time; this file only seeds them and
describes them. Files are parsed once per process and validated as they load, so a typo
in a profile fails loudly at the first use rather than giving a wrong deadline.

Beneath the city profiles, a *state layer* (``states/<state>.toml``, e.g. ``states/mn.toml``)
holds the statute values every city of that state inherits (rules.md Appendix H). Each
carries a ``floor``: how an ordinance may make it stricter (``at_least``: a city value
may only be larger; ``at_most``: only smaller; ``fixed``: a city cannot change it).
``ordinance.rules`` merges the two layers and says which governs.
"""

import re
import tomllib
from dataclasses import dataclass, replace
from dataclasses import field as dc_field
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..kinds import KINDS, UNITS, to_json, to_python

PROFILE_DIR = Path(__file__).resolve().parent
STATE_DIR = PROFILE_DIR / "states"
# How an ordinance may make a state value stricter (see the module docstring).
AT_LEAST, AT_MOST, FIXED = "at_least", "at_most", "fixed"
FLOORS = (AT_LEAST, AT_MOST, FIXED)
ORDERED_KINDS = ("int", "money", "rate", "decimal", "time")  # what at_least/at_most compare
_STATE_RE = re.compile(r"^[A-Z]{2}$")
_KEY_RE = re.compile(r"^[a-z][a-z0-9_]*$")
_SPACES = re.compile(r"\s+")


class ProfileError(Exception):
    """A profile data file is missing or malformed."""


@dataclass(frozen=True)
class ValueSpec:
    key: str
    label: str
    kind: str
    unit: str
    citation: str
    rule_ids: tuple[str, ...]
    quote: str
    note: str
    blank: bool
    raw: Any  # the adopted value as JSON (None when blank)
    source: str  # "ordinance", or "fee_schedule" when the council sets it by resolution
    blocks: tuple[str, ...]
    floor: str = ""  # state layer only: at_least, at_most or fixed
    in_force_from: date | None = None  # state layer only: when not the layer's date

    @property
    def value(self) -> Any:
        return to_python(self.kind, self.raw)


@dataclass(frozen=True)
class FeeSpec:
    code: str
    description: str
    rule: str


@dataclass(frozen=True)
class SectionSpec:
    """Where the ordinance states a rule that sets no value (``[sections.KEN-08]``)."""

    rule_id: str
    citation: str
    quote: str
    note: str


@dataclass(frozen=True)
class Passage:
    """The ordinance text around a quote, for the profile page."""

    before: str
    quote: str
    after: str


# What registering a species means under the city's definition of "wild animal"
# (Glencoe 701 Subd. 1(R); rules.md WLD-01): kept as a pet, a farm animal, or wild.
SPECIES_CATEGORIES = ("pet", "farm", "wild")
# The conditions an exception class carries; an animal that fails one is flagged to staff,
# never reclassified on its own (WLD-01 quirk; Appendix D G38).
SPECIES_CONDITIONS = ("", "vaccinated", "sterilized")
# The registry's own species an entry registers as (licensing.models.Species values).
SPECIES_BASES = ("dog", "cat", "ferret", "other")


@dataclass(frozen=True)
class SpeciesSpec:
    """One row of a city's species table (``[species.<code>]``)."""

    code: str
    label: str
    category: str  # pet, farm or wild
    base: str  # the registry species it registers as
    exception_class: int  # 1..10 of Subd. 1(R); 0 for a wild species
    citation: str
    quote: str
    condition: str = ""  # vaccinated or sterilized: unmet, the animal is flagged
    cap: str = ""  # the profile value that caps how many per lot
    note: str = ""
    order: int = 0


@dataclass(frozen=True)
class Profile:
    key: str
    name: str
    ordinance_ref: str
    adopted: date
    text_file: Path
    values: dict[str, ValueSpec]
    fees: dict[str, FeeSpec]
    sections: dict[str, SectionSpec]
    species: dict[str, SpeciesSpec] = dc_field(default_factory=dict)

    def section(self, rule_id: str) -> str:
        """The city's section for rule ``rule_id`` (rules.md ID): its ``[sections]`` entry,
        else the citation of the first value that carries the rule; "" where the city's
        ordinance has no such rule."""
        if rule_id in self.sections:
            return self.sections[rule_id].citation
        return next((v.citation for v in self.values.values() if rule_id in v.rule_ids), "")

    def text(self) -> str:
        return _read_text(self.text_file)

    def passage(self, quote: str, context: int = 350) -> Passage | None:
        """Find ``quote`` in the text (whitespace-insensitive) with ``context`` chars around."""
        if not quote:
            return None
        text = _SPACES.sub(" ", self.text())
        needle = _SPACES.sub(" ", quote).strip()
        at = text.find(needle)
        if at < 0:
            return None
        end = at + len(needle)
        before = text[max(0, at - context) : at]
        after = text[end : end + context]
        return Passage(
            ("…" if at > context else "") + before,
            needle,
            after + ("…" if end + context < len(text) else ""),
        )


@dataclass(frozen=True)
class StateLayer:
    """The statute values beneath every city profile of one state (``states/mn.toml``)."""

    state: str
    name: str
    law_ref: str  # the edition read, stored as each seeded row's "ordinance number"
    in_force_from: date
    values: dict[str, ValueSpec]

    def effective_from(self, spec: ValueSpec) -> date:
        """The date a value is seeded from: its own, else the layer's."""
        return spec.in_force_from or self.in_force_from


@lru_cache(maxsize=16)
def _read_text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def available_profiles() -> list[str]:
    return sorted(p.stem for p in PROFILE_DIR.glob("*.toml"))


@lru_cache(maxsize=32)
def get_profile(key: str) -> Profile:
    """The parsed, validated profile ``key``; ProfileError if there is none or it is wrong."""
    if not _KEY_RE.match(key or ""):
        raise ProfileError(f"“{key}” is not a profile name.")
    path = PROFILE_DIR / f"{key}.toml"
    if not path.exists():
        raise ProfileError(f"There is no ordinance profile “{key}” in {PROFILE_DIR}.")
    with path.open("rb") as fh:
        data = tomllib.load(fh)
    return _build(key, data)


@lru_cache(maxsize=8)
def get_state_layer(state: str) -> StateLayer | None:
    """The parsed, validated layer of ``state`` ("MN"); None where none ships for it."""
    if not _STATE_RE.match(state or ""):
        return None
    path = STATE_DIR / f"{state.lower()}.toml"
    if not path.exists():
        return None
    with path.open("rb") as fh:
        data = tomllib.load(fh)
    return _build_state(state, path.name, data)


def _build_state(state: str, file_name: str, data: dict) -> StateLayer:
    head = data.get("layer", {})
    if head.get("state") != state:
        raise ProfileError(f"states/{file_name}: [layer] state must be “{state}”.")
    for field in ("name", "law_ref"):
        if not isinstance(head.get(field), str) or not head[field]:
            raise ProfileError(f"states/{file_name}: [layer] {field} is required.")
    if not isinstance(head.get("in_force_from"), date):
        raise ProfileError(f"states/{file_name}: [layer] in_force_from must be a date.")
    values = {
        k: _state_value_spec(f"states/{file_name}", k, v) for k, v in data.get("values", {}).items()
    }
    return StateLayer(state, head["name"], head["law_ref"], head["in_force_from"], values)


def _state_value_spec(file_name: str, key: str, v: dict) -> ValueSpec:
    """A state value: as a city value, plus its floor; never blank, always quoted."""
    where = f"{file_name} [values.{key}]"
    spec = _value_spec(file_name.removesuffix(".toml"), key, v)
    floor, since = v.get("floor"), v.get("in_force_from")
    if floor not in FLOORS:
        raise ProfileError(f"{where}: floor must be one of {', '.join(FLOORS)}.")
    if floor != FIXED and spec.kind not in ORDERED_KINDS:
        raise ProfileError(f"{where}: a {spec.kind} value can only be fixed.")
    if spec.blank or not spec.quote:
        raise ProfileError(f"{where}: a statute value needs a value and a quote.")
    if since is not None and not isinstance(since, date):
        raise ProfileError(f"{where}: in_force_from must be a date.")
    return replace(spec, floor=floor, in_force_from=since)


def _build(key: str, data: dict) -> Profile:
    head = data.get("profile", {})
    if head.get("key") != key:
        raise ProfileError(f"{key}.toml: [profile] key must be “{key}”.")
    values = {k: _value_spec(key, k, v) for k, v in data.get("values", {}).items()}
    fees = {}
    for code, spec in data.get("fees", {}).items():
        if spec.get("rule") not in values:
            raise ProfileError(f"{key}.toml: fee {code} names unknown value {spec.get('rule')}.")
        fees[code] = FeeSpec(code, spec["description"], spec["rule"])
    sections = {r: _section_spec(key, r, v) for r, v in data.get("sections", {}).items()}
    species = {
        c: _species_spec(key, c, v, values, order)
        for order, (c, v) in enumerate(data.get("species", {}).items())
    }
    return Profile(
        key=key,
        name=head["name"],
        ordinance_ref=head["ordinance_ref"],
        adopted=head["adopted"],
        text_file=PROFILE_DIR / head["text"],
        values=values,
        fees=fees,
        sections=sections,
        species=species,
    )


def _species_spec(profile_key: str, code: str, v: dict, values: dict, order: int) -> SpeciesSpec:
    where = f"{profile_key}.toml [species.{code}]"
    if not _KEY_RE.match(code):
        raise ProfileError(f"{where}: bad key.")
    for name in ("label", "citation", "quote"):
        if not isinstance(v.get(name), str) or not v[name]:
            raise ProfileError(f"{where}: {name} is required.")
    category, base = v.get("category"), v.get("base")
    condition, cap = v.get("condition", ""), v.get("cap", "")
    klass = v.get("class", 0)
    if category not in SPECIES_CATEGORIES or base not in SPECIES_BASES:
        raise ProfileError(f"{where}: unknown category {category!r} or base {base!r}.")
    if condition not in SPECIES_CONDITIONS or (cap and cap not in values):
        raise ProfileError(f"{where}: unknown condition {condition!r} or cap {cap!r}.")
    if not isinstance(klass, int) or not 0 <= klass <= 10 or (klass == 0) != (category == "wild"):
        raise ProfileError(f"{where}: class is 1..10 for an exception, 0 for a wild species.")
    return SpeciesSpec(
        code=code,
        label=v["label"],
        category=category,
        base=base,
        exception_class=klass,
        citation=v["citation"],
        quote=v["quote"],
        condition=condition,
        cap=cap,
        note=v.get("note", ""),
        order=order,
    )


_RULE_ID_RE = re.compile(r"^[A-Z]+-[0-9]+$")


def _section_spec(profile_key: str, rule_id: str, v: dict) -> SectionSpec:
    where = f"{profile_key}.toml [sections.{rule_id}]"
    if not _RULE_ID_RE.match(rule_id):
        raise ProfileError(f"{where}: not a rules.md rule ID.")
    for field in ("citation", "quote"):
        if not isinstance(v.get(field), str) or not v[field]:
            raise ProfileError(f"{where}: {field} is required.")
    return SectionSpec(rule_id, v["citation"], v["quote"], v.get("note", ""))


def _value_spec(profile_key: str, key: str, v: dict) -> ValueSpec:
    where = f"{profile_key}.toml [values.{key}]"
    if not _KEY_RE.match(key):
        raise ProfileError(f"{where}: bad key.")
    kind, unit = v.get("type"), v.get("unit", "")
    if kind not in KINDS or unit not in UNITS:
        raise ProfileError(f"{where}: unknown type {kind!r} or unit {unit!r}.")
    blank = bool(v.get("blank", False))
    if blank == ("value" in v):
        raise ProfileError(f"{where}: give either a value or blank = true.")
    try:
        raw = None if blank else to_json(kind, v["value"])
    except ValueError as exc:
        raise ProfileError(f"{where}: {exc}") from exc
    for field in ("label", "citation", "quote"):
        if not isinstance(v.get(field), str):
            raise ProfileError(f"{where}: {field} is required.")
    return ValueSpec(
        key=key,
        label=v["label"],
        kind=kind,
        unit=unit,
        citation=v["citation"],
        rule_ids=tuple(v.get("rules", ())),
        quote=v["quote"],
        note=v.get("note", ""),
        blank=blank,
        raw=raw,
        source=v.get("source", "ordinance"),
        blocks=tuple(v.get("blocks", ())),
    )
