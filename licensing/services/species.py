"""The species check every registration goes through (Glencoe 701 Subd. 1(R), 31(B), 32;
rules.md WLD-01, WLD-02, WLD-03, WLD-05, WLD-06).

``ordinance.species.classify`` says what an animal is (pet, farm animal, wild); this
module applies it to the registry: a wild species is refused as a pet unless a recorded
exemption covers the premises or owner, and a capped species (one pot-bellied pig, five
pigeons per lot) is refused over its cap. A city with no species table (North Branch)
passes everything through unchanged.

Exemptions are recorded above licensing (``permits``); that app registers a lookup here,
as apps register page sections in ``base.sections``, so licensing imports nothing above it.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l

from licensing.models import Animal, AnimalStatus, Owner, Premises
from ordinance.models import Jurisdiction
from ordinance.refusals import Refused
from ordinance.rules import rule_citation, rule_in_force
from ordinance.species import Classification, classify, default_kind, species_table

KIND = _l("Kind")

# (premises, owner, on) -> a sentence naming the exemption and its section, or None.
ExemptionLookup = Callable[[Premises | None, Owner, date], str | None]
_exemption_lookups: dict[str, ExemptionLookup] = {}


def register_exemption_lookup(name: str, lookup: ExemptionLookup) -> None:
    """An app that records exemptions from the wild-animal prohibition registers here."""
    _exemption_lookups[name] = lookup


def wild_exemption(*, premises: Premises | None, owner: Owner, on: date) -> str | None:
    """The recorded exemption (Subd. 32(B), (C)) that lets this premises or owner hold a
    wild animal on ``on``, described with its section; None when there is none."""
    for name in sorted(_exemption_lookups):
        found = _exemption_lookups[name](premises, owner, on)
        if found:
            return found
    return None


@dataclass(frozen=True)
class CapLine:
    """How many of a capped species a premises keeps, against its cap (WLD-02)."""

    code: str
    label: str
    count: int
    cap: int
    citation: str

    @property
    def over(self) -> bool:
        return self.count > self.cap


def premises_caps(*, premises: Premises, on: date, adding: str = "", exclude=None) -> list[CapLine]:
    """Each capped species of the city's table: the premises' living animals of it (plus
    one of ``adding``), against the profile's cap and its section. [] with no table."""
    capped = [s for s in species_table(premises.jurisdiction).values() if s.cap]
    if not capped:
        return []
    animals = Animal.objects.filter(premises=premises, status=AnimalStatus.ALIVE)
    if exclude is not None:
        animals = animals.exclude(pk=exclude.pk)
    kinds = list(animals.filter(kind__in=[s.code for s in capped]).values_list("kind", flat=True))
    lines = []
    for spec in capped:
        rule = rule_in_force(premises.jurisdiction, spec.cap, on=on)
        count = kinds.count(spec.code) + (1 if adding == spec.code else 0)
        lines.append(CapLine(spec.code, spec.label, count, rule.value, rule.citation))
    return lines


def _resolve_kind(jurisdiction: Jurisdiction, species: str, kind: str) -> str:
    table = species_table(jurisdiction)
    kind = kind or default_kind(jurisdiction, species)
    section = rule_citation(jurisdiction, "WLD-01")
    if not kind:
        raise Refused.because(
            KIND, _("Choose the kind from the city's species table."), section, field="kind"
        )
    if kind not in table or table[kind].base != species:
        raise Refused.because(
            KIND,
            _("That kind is not a %(species)s in the city's species table.") % {"species": species},
            section,
            field="kind",
        )
    return kind


def species_check(
    *,
    owner: Owner,
    premises: Premises | None,
    species: str,
    kind: str,
    sterilized: bool,
    on: date,
    animal: Animal | None = None,
) -> tuple[str, Classification | None]:
    """The table row this registration means and its classification, or Refused: a wild
    species kept as a pet with no recorded exemption (Subd. 31(B)), or one over its
    per-lot cap (Subd. 1(R)(3)). ``animal``: the animal being changed (not counted twice).
    Where the city has no table: ("", None), nothing checked."""
    jurisdiction = owner.jurisdiction
    if not species_table(jurisdiction):
        return "", None
    kind = _resolve_kind(jurisdiction, species, kind)
    found = classify(jurisdiction, kind=kind, sterilized=sterilized)
    if found.is_wild and not wild_exemption(premises=premises, owner=owner, on=on):
        raise Refused.because(
            KIND,
            _(
                "A %(kind)s is a wild animal (%(definition)s) and may not be kept as a pet, "
                "unless an exemption is recorded for the premises."
            )
            % {"kind": found.spec.label.lower(), "definition": found.citation},
            rule_citation(jurisdiction, "WLD-03"),
            field="kind",
        )
    if premises is not None:
        for line in premises_caps(premises=premises, on=on, adding=kind, exclude=animal):
            if line.code == kind and line.over:
                raise Refused.because(
                    KIND,
                    _("At most %(cap)s %(label)s per lot; this premises would keep %(n)s.")
                    % {"cap": line.cap, "label": line.label.lower(), "n": line.count},
                    line.citation,
                    field="kind",
                )
    return kind, found
