"""Reading the rules in force: every other app asks here for a number of days or dollars.

    rule = rule_in_force(jurisdiction, "impound_hold_business_days", on=intake_date)
    rule.value      # 5
    rule.display()  # "5 business days"
    rule.citation   # "North Branch Sec. 6-68"

The value in force on a date is the ``RuleValue`` row with the latest ``effective_from``
on or before it (architecture.md, "Rules as data"). A value the ordinance leaves blank
raises ``RuleNotSet`` until an administrator fills it in; a value the city's ordinance
does not have at all raises ``RuleNotInOrdinance`` (rules.md Section 0).

Beneath the city's profile lies its state's layer of statute values (rules.md Appendix
H; ``profiles/states/mn.toml``), which an ordinance may make stricter but never weaker.
The lookup answers with the value that governs and says why:

    rule = rule_in_force(glencoe, "impound_record_retention_months", on=today)
    rule.governed_by  # "ordinance" (or "state")
    rule.why          # "Glencoe 701 Subd. 13 (6 months) meets Minn. Stat. 346.47 subd. 2
                      #  (at least 6 months)."
    rule_layers(glencoe, "impound_record_retention_months", on=today)  # both sides

A key only the state sets answers from the state layer for every city of that state; a
key in both answers with the stricter by the state value's ``floor`` (on a tie, the
ordinance, which restates the statute), and a city value weaker than the statute is
never returned: the statute governs and ``why`` says the ordinance is superseded.
"""

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from django.core.cache import cache as django_cache
from django.db import transaction
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from . import kinds
from .display import words
from .models import Jurisdiction, RuleValue
from .profiles import (
    AT_LEAST,
    AT_MOST,
    Profile,
    ProfileError,
    StateLayer,
    ValueSpec,
    get_profile,
    get_state_layer,
)

ORDINANCE, STATE = "ordinance", "state"
# RuleLayers.verdict: how the two layers met.
ORDINANCE_ONLY = "ordinance_only"  # the state sets no such value
STATE_ONLY = "state_only"  # the ordinance has no value of its own (or a software default)
MEETS = "meets"  # the same value: the ordinance restates the statute and governs
STRICTER = "stricter"  # the ordinance is stricter and governs
SUPERSEDED = "superseded"  # the ordinance is weaker (or changes a fixed value): the statute
# A profile value that cites no section of the ordinance, only a default of this software:
# it never governs where a statute sets the value.
_SOFTWARE_DEFAULT = re.compile(r"not in ordinance|software default", re.IGNORECASE)


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
    # The layer whose text sets this value: "ordinance" (the city's) or "state" (statute).
    governed_by: str = ORDINANCE
    # For a state value, and a value checked against one: at_least, at_most or fixed.
    floor: str = ""
    # Where a statute sets the same rule: which layer governs and why, for a clerk.
    why: str = ""

    def display(self) -> str:
        return words(self.kind, self.unit, self.value, key=self.key)

    def __str__(self) -> str:
        return f"{self.display()} ({self.citation})"


@dataclass(frozen=True)
class RuleLayers:
    """Both sides of one rule for a city on a date, and the one that governs."""

    key: str
    ordinance: Rule | None  # the city's own value in force (None: no rule, blank, not yet)
    state: Rule | None  # the statute's value (None: the state sets no such value)
    governing: Rule
    verdict: str  # ORDINANCE_ONLY, STATE_ONLY, MEETS, STRICTER or SUPERSEDED


# --- The front door: what every other app calls -------------------------------------
#
#   rule_in_force(city, key, on=day)              the governing rule: value, citation, why
#   rule_in_force(city, key, on=day, optional=True)   None where neither layer has it
#   rule_in_force(city, key, on=day, cached=True)     for what a page shows: None if unset
#   rules_in_force(city, keys, on=day)            several at once, one query
#   rule_layers(city, key or keys, on=day)        both layers, to show side by side
#   rule_citation(city, "LIC-14")                 the section a refusal or a label cites
#
# A blank the ordinance leaves raises ``RuleNotSet`` and a value the city's ordinance
# lacks ``RuleNotInOrdinance`` (both ``RuleUnavailable``); a service turns either into a
# refusal that names the section with ``ordinance.refusals.refusing``.


def rule_in_force(
    jurisdiction: Jurisdiction,
    key: str,
    *,
    on: date,
    optional: bool = False,
    cached: bool = False,
) -> "Rule | None":
    """The rule that governs ``key`` for the city on ``on``: its value with its citation.

    ``optional``: None where neither the ordinance nor the state's law has such a value
    (a blank still raises ``RuleNotSet``). ``cached``: for what every page shows, never
    for a decision a service records: read from the cache, None where the rule is not
    available."""
    if cached:
        return _rule_cached(jurisdiction, key, on=on)
    try:
        return _get_layers(jurisdiction, [key], on=on)[key].governing
    except RuleNotInOrdinance:
        if optional:
            return None
        raise


def rules_in_force(
    jurisdiction: Jurisdiction, keys: Iterable[str], *, on: date, blanks: bool = False
) -> "dict[str, Rule]":
    """The governing rule of each of ``keys``, read with one query (none more within a
    request). ``blanks``: instead of raising, a blank nothing fills is its ``RuleNotSet``
    (the page says so) and a key neither layer has is left out."""
    if blanks:
        return _read_rules(jurisdiction, keys, on=on)
    return {k: layers.governing for k, layers in _get_layers(jurisdiction, keys, on=on).items()}


def rule_layers(jurisdiction: Jurisdiction, keys, *, on: date):
    """Both sides of a rule for display: the ordinance's, the statute's and the one that
    governs (``RuleLayers``); for several keys, a dict of them (one query)."""
    if isinstance(keys, str):
        return _get_layers(jurisdiction, [keys], on=on)[keys]
    return _get_layers(jurisdiction, keys, on=on)


def profile_for(jurisdiction: Jurisdiction) -> Profile:
    """The profile the city adopted; RuleNotInOrdinance if its data file is missing."""
    try:
        return get_profile(jurisdiction.profile_key)
    except ProfileError as exc:
        raise RuleNotInOrdinance(
            f"{jurisdiction.name} has no ordinance profile: {exc}", jurisdiction=jurisdiction
        ) from exc


def state_layer_for(jurisdiction: Jurisdiction) -> StateLayer | None:
    """The statute layer of the city's state; None where none ships for that state."""
    try:
        return get_state_layer(jurisdiction.state)
    except ProfileError as exc:
        raise RuleUnavailable(
            f"The state law layer for {jurisdiction.state} is malformed: {exc}",
            jurisdiction=jurisdiction,
        ) from exc


# Within a request (``ordinance.middleware.RulesReadOnce``) each city's rule rows, both
# layers, are read with one query and every lookup of the request answers from them: a
# page that asks ten sections' rules costs one query, not ten. Outside a request (a
# service called from a job or a test) every lookup reads the database. Any write to a
# rule value forgets what was read (``forget_read_rules``, connected in apps.py).
_read_rows: ContextVar[dict | None] = ContextVar("ordinance_rule_rows", default=None)


@contextmanager
def rules_read_once() -> Iterator[None]:
    token = _read_rows.set({})
    try:
        yield
    finally:
        _read_rows.reset(token)


def forget_read_rules(**_signal) -> None:
    cache = _read_rows.get()
    if cache is not None:
        cache.clear()
    _rules_version_bump()
    # Again once the write is visible: a request that read the old rows between the
    # write and its commit may have cached them under the version moved on just now.
    transaction.on_commit(_rules_version_bump)


# What every page asks of every city (does it issue dog licenses at all: the menu) is
# kept in Django's cache, keyed by a version that any write to a rule value moves on, so
# the menu costs no query. Another process's cache (locmem, one per worker) may show
# the old answer for at most RULE_CACHE_SECONDS after an amendment; with the Redis cache
# of production the version is shared and the change shows at once.
RULE_CACHE_SECONDS = 300
_VERSION_KEY = "ordinance:rules-version"


def rules_version() -> int:
    """The version any write to a rule value moves on: what is worked out from the rules
    (a rule's value, the menu of a user's cities) may be kept under it."""
    return django_cache.get_or_set(_VERSION_KEY, 1, timeout=None)


def _rules_version_bump() -> None:
    try:
        django_cache.incr(_VERSION_KEY)
    except ValueError:  # not set yet, or evicted
        django_cache.set(_VERSION_KEY, 2, timeout=None)


def _rule_cached(jurisdiction: Jurisdiction, key: str, *, on: date) -> "Rule | None":
    cache_key = (
        f"ordinance:rule:{jurisdiction.pk}:{jurisdiction.profile_key}:{key}:"
        f"{on.isoformat()}:{rules_version()}"
    )
    missing = object()
    found = django_cache.get(cache_key, missing)
    if found is missing:
        try:
            found = _get_layers(jurisdiction, [key], on=on)[key].governing
        except RuleUnavailable:
            found = None
        django_cache.set(cache_key, found, timeout=RULE_CACHE_SECONDS)
    return found


def _rows_cached(jurisdiction: Jurisdiction) -> list[RuleValue]:
    """Both layers' rule rows of a city, from Django's cache under the rules version (a
    request's first lookup then costs no query)."""
    cache_key = f"ordinance:rule-rows:{jurisdiction.pk}:{rules_version()}"
    rows = django_cache.get(cache_key)
    if rows is None:
        rows = list(RuleValue.objects.layered(jurisdiction))
        django_cache.set(cache_key, rows, timeout=RULE_CACHE_SECONDS)
    return rows


def _rows_in_force(jurisdiction: Jurisdiction, keys: list[str], on: date):
    cache = _read_rows.get()
    if cache is None:
        return RuleValue.objects.in_force_layered(jurisdiction, keys, on)
    rows = cache.get(jurisdiction.pk)
    if rows is None:
        rows = cache[jurisdiction.pk] = _rows_cached(jurisdiction)
    wanted = set(keys)
    return [row for row in rows if row.key in wanted and row.effective_from <= on]


def _get_layers(
    jurisdiction: Jurisdiction, keys: Iterable[str], *, on: date
) -> dict[str, RuleLayers]:
    """The city's value, the state's and the governing one for each key (one query)."""
    keys = list(dict.fromkeys(keys))
    profile, layer = profile_for(jurisdiction), state_layer_for(jurisdiction)
    specs = {key: _specs(profile, layer, jurisdiction, key) for key in keys}
    city_rows: dict[str, RuleValue] = {}
    state_rows: dict[str, RuleValue] = {}
    for row in _rows_in_force(jurisdiction, keys, on):
        (state_rows if row.jurisdiction_id is None else city_rows).setdefault(row.key, row)
    return {
        key: layers_from_rows(
            jurisdiction, *specs[key], city_rows.get(key), state_rows.get(key), on=on
        )
        for key in keys
    }


def _read_rules(jurisdiction: Jurisdiction, keys, *, on: date) -> dict[str, Rule | RuleNotSet]:
    """The governing rule of each of ``keys`` the city's ordinance or its state's law has,
    read with one query (none more within a request); a blank nothing fills is its
    ``RuleNotSet`` (the page says so) and a key neither layer has is left out."""
    profile, layer = profile_for(jurisdiction), state_layer_for(jurisdiction)
    specs = {}
    for key in keys:
        state_spec = layer.values.get(key) if layer else None
        city_spec = profile.values.get(key)
        if city_spec is not None or state_spec is not None:
            specs[key] = (city_spec, state_spec)
    if not specs:
        return {}
    city_rows, state_rows = {}, {}
    for row in _rows_in_force(jurisdiction, list(specs), on):
        (state_rows if row.jurisdiction_id is None else city_rows).setdefault(row.key, row)
    found = {}
    for key, (city_spec, state_spec) in specs.items():
        try:
            found[key] = layers_from_rows(
                jurisdiction, city_spec, state_spec, city_rows.get(key), state_rows.get(key), on=on
            ).governing
        except RuleNotSet as exc:
            found[key] = exc
    return found


def rule_citation(jurisdiction: Jurisdiction, rule_id: str) -> str:
    """The section of the city's ordinance for rule ``rule_id`` (a rules.md ID), as its
    profile cites it, for a refusal or a label: "North Branch Sec. 6-64" for LIC-14.
    Where the ordinance has none (or only a software default), the statute of the state's
    law layer that carries it ("Minn. Stat. 346.47 subd. 3" for MN-04); "" where neither
    has such a rule (or the city has no profile)."""
    try:
        section = profile_for(jurisdiction).section(rule_id)
        if section and not _SOFTWARE_DEFAULT.search(section):
            return section
        layer = state_layer_for(jurisdiction)
    except RuleUnavailable:
        return ""
    values = layer.values.values() if layer else ()
    return next((v.citation for v in values if rule_id in v.rule_ids), section)


def _specs(
    profile: Profile, layer: StateLayer | None, jurisdiction: Jurisdiction, key: str
) -> tuple[ValueSpec | None, ValueSpec | None]:
    state_spec = layer.values.get(key) if layer else None
    if state_spec is None:
        return _spec(profile, jurisdiction, key), None
    return profile.values.get(key), state_spec


def layers_from_rows(
    jurisdiction: Jurisdiction,
    city_spec: ValueSpec | None,
    state_spec: ValueSpec | None,
    city_row: RuleValue | None,
    state_row: RuleValue | None,
    *,
    on: date,
) -> RuleLayers:
    """Merge the city's row and the state's for one key (no query); raises RuleNotSet
    where neither layer has a value in force."""
    city, gap = None, None
    if city_spec is not None:
        try:
            city = _rule(jurisdiction, city_spec, city_row, on)
        except RuleNotSet as exc:
            gap = exc
    if state_spec is None or state_row is None:
        if city is not None:
            return RuleLayers(city.key, city, None, city, ORDINANCE_ONLY)
        raise gap or _not_in_force(jurisdiction, state_spec, on)
    state = _rule(jurisdiction, state_spec, state_row, on, layer=STATE)
    if city is None or _SOFTWARE_DEFAULT.search(city.citation):
        why = _without_ordinance(jurisdiction, city_spec, city_row, state, on)
        return RuleLayers(state.key, city, state, replace(state, why=why), STATE_ONLY)
    _check_same_terms(jurisdiction, city_spec, state_spec)
    verdict = _compare(state.floor, city.value, state.value)
    if verdict == SUPERSEDED:
        governing = replace(state, why=_superseded(city, state))
    else:
        governing = replace(city, floor=state.floor, why=_meets(verdict, city, state))
    return RuleLayers(city.key, city, state, governing, verdict)


def _compare(floor: str, city_value: Any, state_value: Any) -> str:
    if city_value == state_value:
        return MEETS
    if floor == AT_LEAST:
        return STRICTER if city_value > state_value else SUPERSEDED
    if floor == AT_MOST:
        return STRICTER if city_value < state_value else SUPERSEDED
    return SUPERSEDED  # fixed: an ordinance cannot change it


def _check_same_terms(jurisdiction, city_spec: ValueSpec, state_spec: ValueSpec) -> None:
    if (city_spec.kind, city_spec.unit) != (state_spec.kind, state_spec.unit):
        raise RuleUnavailable(
            f"{city_spec.citation} and {state_spec.citation} state “{city_spec.key}” in "
            "different terms; the profile data files must be corrected first.",
            jurisdiction=jurisdiction,
            key=city_spec.key,
            citation=state_spec.citation,
        )


def _value_phrase(rule: Rule) -> str:
    if rule.kind == "bool":
        return _("“%(label)s” (%(answer)s)") % {"label": rule.label, "answer": rule.display()}
    return rule.display()


def _floor_phrase(state: Rule) -> str:
    value = _value_phrase(state)
    if state.floor == AT_LEAST:
        return _("at least %(value)s") % {"value": value}
    if state.floor == AT_MOST:
        return _("at most %(value)s") % {"value": value}
    return _("%(value)s, which no ordinance may change") % {"value": value}


def _without_ordinance(jurisdiction, city_spec, city_row, state: Rule, on: date) -> str:
    """Why the statute governs where the city's ordinance sets nothing of its own."""
    words = {
        "statute": state.citation,
        "floor": _floor_phrase(state),
        "city": jurisdiction.short_name,
        "section": city_row.citation if city_row else "",
        "date": date_format(on),
    }
    if city_spec is None or (city_row and _SOFTWARE_DEFAULT.search(city_row.citation)):
        return _("%(statute)s sets %(floor)s; %(city)s's ordinance has no such rule.") % words
    if city_row is not None:
        return (
            _("%(statute)s sets %(floor)s; %(city)s's ordinance leaves it blank (%(section)s).")
            % words
        )
    return (
        _("%(statute)s sets %(floor)s; %(city)s's ordinance has no value in force on %(date)s.")
        % words
    )


def _meets(verdict: str, city: Rule, state: Rule) -> str:
    words = {
        "section": city.citation,
        "value": _value_phrase(city),
        "statute": state.citation,
        "floor": _floor_phrase(state),
    }
    if verdict == STRICTER:
        return (
            _(
                "%(section)s (%(value)s) is stricter than %(statute)s (%(floor)s), "
                "so the ordinance governs."
            )
            % words
        )
    return _("%(section)s (%(value)s) meets %(statute)s (%(floor)s).") % words


def _superseded(city: Rule, state: Rule) -> str:
    words = {
        "section": city.citation,
        "value": _value_phrase(city),
        "statute": state.citation,
        "floor": _floor_phrase(state),
    }
    if state.floor in (AT_LEAST, AT_MOST):
        return (
            _(
                "%(statute)s (%(floor)s) governs: %(section)s (%(value)s) is weaker than "
                "state law allows, so the statute supersedes it."
            )
            % words
        )
    return (
        _(
            "%(statute)s (%(floor)s) governs: %(section)s (%(value)s) would change it, "
            "so the statute supersedes it."
        )
        % words
    )


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


def _rule(
    jurisdiction, spec: ValueSpec, row: RuleValue | None, on: date, *, layer: str = ORDINANCE
) -> Rule:
    if row is None:
        raise _not_in_force(jurisdiction, spec, on)
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
        governed_by=layer,
        floor=spec.floor,
    )


def _not_in_force(jurisdiction, spec: ValueSpec, on: date) -> RuleNotSet:
    return RuleNotSet(
        f"{spec.label} has no value in force on {date_format(on)} for "
        f"{jurisdiction.name} "
        f"({spec.citation}); an administrator must load the ordinance profile or "
        "record the value first.",
        jurisdiction=jurisdiction,
        key=spec.key,
        citation=spec.citation,
    )
