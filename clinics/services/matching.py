"""Which registered animal a clinic's certificate is about.

One score per candidate animal of the certificate's city, from what Form 51 carries: the
microchip, the rabies tag (on an earlier certificate of the animal), the owner's name
and address, the animal's name. The weights and the threshold are settings of this
screen (how sure the software must be before it records a certificate without a clerk),
not ordinance values.
"""

import re
from dataclasses import dataclass

from django.db.models import Q

from licensing.models import Animal, RabiesVaccination
from licensing.models.registry import AnimalStatus

# A certificate is applied without a clerk when its best candidate scores at least this
# and no other candidate scores as much; below, it waits in the clerk's queue. A
# microchip alone (60) is not enough: a misread chip must not move a certificate to
# another family's dog; a chip with the owner's name or address, or the rabies tag
# with the owner's name and address, is.
MATCH_THRESHOLD = 70
WEIGHTS = {
    "microchip": 60,
    "rabies_tag": 40,
    "owner_name": 20,
    "owner_address": 20,
    "animal_name": 10,
}
CANDIDATE_LIMIT = 20  # the clerk's screen lists at most this many

_ABBREVIATIONS = {
    "STREET": "ST",
    "AVENUE": "AVE",
    "ROAD": "RD",
    "DRIVE": "DR",
    "LANE": "LN",
    "COURT": "CT",
    "BOULEVARD": "BLVD",
    "NORTH": "N",
    "SOUTH": "S",
    "EAST": "E",
    "WEST": "W",
}


def normalize_address(value: str) -> str:
    words = re.sub(r"[^A-Z0-9 ]", " ", (value or "").upper()).split()
    return " ".join(_ABBREVIATIONS.get(w, w) for w in words)


def _same(a: str, b: str) -> bool:
    return bool(a) and a.strip().upper() == (b or "").strip().upper()


@dataclass(frozen=True)
class Candidate:
    animal: Animal
    score: int
    reasons: tuple[str, ...]


def score(certificate, animal, tags: set[str]) -> Candidate:
    """How well ``animal`` (with its rabies tag numbers ``tags``) fits ``certificate``."""
    owner = animal.owner
    hits = []
    if certificate.microchip and certificate.microchip == animal.microchip:
        hits.append("microchip")
    if certificate.rabies_tag_number and certificate.rabies_tag_number.upper() in tags:
        hits.append("rabies_tag")
    if _same(certificate.owner_last_name, owner.last_name) or _same(
        certificate.owner_last_name, owner.organization_name
    ):
        hits.append("owner_name")
    address = normalize_address(certificate.owner_address)
    if address and address == normalize_address(owner.address_line):
        hits.append("owner_address")
    if _same(certificate.animal_name, animal.name):
        hits.append("animal_name")
    return Candidate(animal, sum(WEIGHTS[h] for h in hits), tuple(hits))


def candidates(certificate) -> list[Candidate]:
    """The city's living animals that share a chip, a rabies tag or the owner's last
    name with the certificate, best first (two queries)."""
    wanted = Q(pk__in=[])
    if certificate.microchip:
        wanted |= Q(microchip=certificate.microchip)
    if certificate.rabies_tag_number:
        wanted |= Q(vaccinations__rabies_tag_number__iexact=certificate.rabies_tag_number)
    if certificate.owner_last_name:
        wanted |= Q(owner__last_name__iexact=certificate.owner_last_name)
    animals = list(
        Animal.objects.filter(wanted, jurisdiction_id=certificate.jurisdiction_id)
        .exclude(status=AnimalStatus.DECEASED)
        .select_related("owner")
        .distinct()
        .order_by("pk")[: CANDIDATE_LIMIT * 5]
    )
    tags: dict[int, set[str]] = {}
    for animal_id, tag in RabiesVaccination.objects.filter(
        animal__in=animals, rabies_tag_number__gt=""
    ).values_list("animal_id", "rabies_tag_number"):
        tags.setdefault(animal_id, set()).add(tag.upper())
    found = [score(certificate, a, tags.get(a.pk, set())) for a in animals]
    found = [c for c in found if c.score > 0]
    found.sort(key=lambda c: (-c.score, c.animal.pk))
    return found[:CANDIDATE_LIMIT]


def best_match(found: list[Candidate]) -> Candidate | None:
    """The one candidate at or above the threshold with no other as good, else None."""
    if not found or found[0].score < MATCH_THRESHOLD:
        return None
    if len(found) > 1 and found[1].score == found[0].score:
        return None  # two animals fit equally well: a person decides
    return found[0]
