"""Writing what is in force: a city's profile seeded as rule rows, and amendments.

``load_profile`` seeds a city's values as ``RuleValue`` rows dated the ordinance's
adoption (and its state's statute values); ``rule_amend`` records a later value of the
city's with its effective date and ordinance number, ``state_rule_amend`` a statute's.
Nothing is overwritten: a value in force on a date is looked up (``ordinance.rules``).
"""

from collections.abc import Iterable
from datetime import date
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

from . import kinds
from .models import Event, Jurisdiction, RuleValue
from .profiles import ValueSpec, get_state_layer
from .rules import RuleNotInOrdinance, _spec, forget_read_rules, profile_for, state_layer_for


@transaction.atomic
def load_profile(jurisdiction: Jurisdiction) -> int:
    """Seed (or refresh) the adopted values of the city's profile, and of its state's law
    layer; returns rows written.

    The adopted values are the rows dated the ordinance's adoption (for the state layer,
    the date of the statute text read); amendments are later rows and are never touched
    here, so running this again changes nothing. State rows are shared by every city of
    the state: the first city loads them, the next finds them there.
    """
    profile, layer = profile_for(jurisdiction), state_layer_for(jurisdiction)
    seeded = Q(jurisdiction=jurisdiction, effective_from=profile.adopted)
    if layer is not None:
        seeded |= Q(jurisdiction__isnull=True, state=layer.state)
    rows = list(RuleValue.objects.filter(seeded))  # both layers in one query
    written = _seed(
        [row for row in rows if row.jurisdiction_id is not None],
        profile.values.values(),
        ordinance_ref=profile.ordinance_ref,
        dated=lambda spec: profile.adopted,
        owner={"jurisdiction": jurisdiction},
    )
    if layer is not None:
        written += _seed(
            [row for row in rows if row.jurisdiction_id is None],
            layer.values.values(),
            ordinance_ref=layer.law_ref,
            dated=layer.effective_from,
            owner={"jurisdiction": None, "state": layer.state},
        )
    return written


def _seed(rows, specs: Iterable[ValueSpec], *, ordinance_ref: str, dated, owner: dict) -> int:
    """Write the seeded row of each spec dated ``dated(spec)`` where missing or changed."""
    existing = {(row.key, row.effective_from): row for row in rows}
    new, changed = [], []
    names = ["value", "citation", "rule_ids", "ordinance_ref", "note"]
    for spec in specs:
        values = [spec.raw, spec.citation, list(spec.rule_ids), ordinance_ref, spec.note]
        fields = dict(zip(names, values, strict=True))
        row = existing.get((spec.key, dated(spec)))
        if row is not None and row.recorded_by_id is not None:
            continue  # an administrator corrected the adopted value; keep their record
        if row is None:
            new.append(RuleValue(key=spec.key, effective_from=dated(spec), **owner, **fields))
        elif any(getattr(row, name) != value for name, value in fields.items()):
            for name, value in fields.items():
                setattr(row, name, value)
            changed.append(row)
    if new:
        bulk_create_with_history(new, RuleValue)
    if changed:
        bulk_update_with_history(changed, RuleValue, names)
    if new or changed:
        forget_read_rules()  # bulk writes send no post_save
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

    spec = _spec(profile_for(jurisdiction), jurisdiction, key)
    stored = kinds.to_json(spec.kind, value)
    current = RuleValue.objects.in_force(jurisdiction, [key], effective_from).first()
    row, _created = RuleValue.objects.update_or_create(
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


def state_rule_amend(
    *,
    state: str,
    key: str,
    value: Any,
    effective_from: date,
    law_ref: str,
    note: str = "",
    citation: str = "",
    actor=None,
) -> RuleValue:
    """Record an amendment of a statute value from ``effective_from`` on, once for every
    city of ``state`` (rules.md Appendix H: "as for any rule value").

    ``law_ref`` names the amending law (e.g. "2027 Minn. Laws ch. 12"); ``value`` is typed
    (``kinds.parse_input``) and never blank: a statute value that is repealed is recorded
    as the value the law leaves (for example false for a repealed prohibition).
    """

    layer = get_state_layer(state)
    spec = layer.values.get(key) if layer else None
    if spec is None:
        raise RuleNotInOrdinance(f"The {state} state law layer has no rule “{key}”.", key=key)
    if value is None:
        raise ValueError("A statute value cannot be blank.")
    stored = kinds.to_json(spec.kind, value)
    current = (
        RuleValue.objects.state_layer(state)
        .filter(key=key, effective_from__lte=effective_from)
        .order_by("-effective_from", "-pk")
        .first()
    )
    row, _created = RuleValue.objects.update_or_create(
        jurisdiction=None,
        state=state,
        key=key,
        effective_from=effective_from,
        defaults={
            "value": stored,
            "ordinance_ref": law_ref,
            "note": note,
            "citation": citation or (current.citation if current else spec.citation),
            "rule_ids": list(current.rule_ids if current else spec.rule_ids),
            "recorded_by": actor,
            "recorded_at": timezone.now(),
        },
    )
    Event.record(
        "ordinance.state_rule.amended",
        row,
        actor=actor,
        summary=f"{layer.name}: {spec.label}: {kinds.display(spec.kind, spec.unit, value)} "
        f"from {effective_from} ({law_ref})",
        data={"state": state, "key": key, "value": stored, "effective_from": str(effective_from)},
    )
    return row
