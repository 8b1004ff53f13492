"""Species classification: pet, farm animal or wild, by the city's species table.

Glencoe 701 Subd. 1(R) (rules.md WLD-01) makes every non-human species wild except ten
classes; the table in the profile (``[species.<code>]``) lists them with their
conditions. ``classify`` is the one answer to "what is this animal here?": every page and
service that registers or shows an animal asks it. A city whose ordinance has no such
definition (North Branch) has an empty table, and ``classify`` answers None: nothing is
classified, nothing refused.

The literal readings that make an unvaccinated cat or an intact ferret "wild" (Subd.
1(R)(2), (10); Appendix D G38) are flags for staff, never applied on their own.
"""

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _l

from .models import Jurisdiction
from .profiles import SpeciesSpec
from .rules import RuleUnavailable, profile_for

PET, FARM, WILD = "pet", "farm", "wild"
CATEGORY_LABELS = {PET: _l("Pet"), FARM: _l("Farm animal"), WILD: _l("Wild animal")}
_CONDITION_FLAGS = {
    # What the literal reading would do, said to staff (WLD-01 quirk).
    "vaccinated": _l(
        "Read literally, %(section)s excludes only a cat properly vaccinated against rabies, "
        "so an unvaccinated cat would be a wild animal. The software does not apply that "
        "reading: staff decide (rules.md WLD-01, Appendix D G38)."
    ),
    "sterilized": _l(
        "Read literally, %(section)s excludes only a neutered or spayed ferret, so an intact "
        "ferret would be a wild animal. The software does not apply that reading: staff "
        "decide (rules.md WLD-01, Appendix D G38)."
    ),
}


@dataclass(frozen=True)
class Classification:
    spec: SpeciesSpec
    flag: str = ""  # a condition of the class is not met: staff are told, nothing applied

    @property
    def category(self) -> str:
        return self.spec.category

    @property
    def category_label(self) -> str:
        return str(CATEGORY_LABELS[self.spec.category])

    @property
    def citation(self) -> str:
        return self.spec.citation

    @property
    def is_wild(self) -> bool:
        return self.spec.category == WILD


def species_table(jurisdiction: Jurisdiction) -> dict[str, SpeciesSpec]:
    """The city's species table in the profile's order; {} where the ordinance has none."""
    try:
        return profile_for(jurisdiction).species
    except RuleUnavailable:
        return {}


def has_species_table(jurisdiction: Jurisdiction) -> bool:
    return bool(species_table(jurisdiction))


def species_choices(jurisdiction: Jurisdiction, base: str | None = None) -> list[tuple[str, str]]:
    """(code, label) of the table's rows, for a form's select (of one base species)."""
    return [
        (code, spec.label)
        for code, spec in species_table(jurisdiction).items()
        if base is None or spec.base == base
    ]


def default_kind(jurisdiction: Jurisdiction, base: str) -> str:
    """The table row a registry species means when no row is named: its only non-wild row
    (a dog is a domestic dog); "" where there are several ("other pet": say which)."""
    rows = [
        code
        for code, spec in species_table(jurisdiction).items()
        if spec.base == base and spec.category != WILD
    ]
    return rows[0] if len(rows) == 1 else ""


def classify(
    jurisdiction: Jurisdiction,
    *,
    kind: str,
    vaccinated: bool | None = None,
    sterilized: bool | None = None,
) -> Classification | None:
    """The classification of an animal of table row ``kind``; None where the city has no
    table. ``vaccinated`` and ``sterilized``: what is known of the animal (None: unknown,
    not flagged). A kind missing from the table is no exception class, hence wild."""
    table = species_table(jurisdiction)
    if not table:
        return None
    spec = table.get(kind) or next(s for s in table.values() if s.category == WILD)
    known = {"vaccinated": vaccinated, "sterilized": sterilized}.get(spec.condition)
    flag = ""
    if spec.condition and known is False:
        flag = str(_CONDITION_FLAGS[spec.condition]) % {"section": spec.citation}
    return Classification(spec=spec, flag=flag)
