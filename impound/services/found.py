"""The pound's animals on a public page (IMP-05, REC-04, MN-03).

North Branch Sec. 6-68 asks for "every possible effort to notify the owners"; Glencoe 701
Subd. 14 posts a notice with a claim-by date. The found-animals page is the same notice
where residents look: every animal held or available (not redeemed or disposed of), its
description, where and when it was found at street level (``found_area``, never the
finder's address; the city alone where the officer left it blank) and the claim-by date
and hour with its section from ``notices.claim_by``, the one answer the posted notice and
the case page print too. Nothing about an owner or a finder.

The answer is kept in Django's cache under a version that any change to a case, a pound,
its hours or a city moves on (``forget_found``, connected in apps.py), so the page costs
no query for its data until something changes.
"""

from dataclasses import dataclass
from datetime import date, datetime, time

from django.core.cache import cache
from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import get_language

from impound.models import OPEN_STATUSES, CaseStatus, ImpoundCase, Pound, PoundHours
from impound.services.notices import claim_by
from ordinance.models import Jurisdiction

# How long an answer is kept at most (a process with its own locmem cache sees another
# process's change within this); the version moves on at once with a shared cache.
FOUND_CACHE_SECONDS = 300
_VERSION_KEY = "impound:found-version"


@dataclass(frozen=True)
class PoundInfo:
    pk: int
    name: str
    address: str
    phone: str
    hours: tuple[tuple[str, time, time], ...]  # (day, opens, closes)


@dataclass(frozen=True)
class FoundAnimal:
    """What the public may read of one animal in the pound: no person, no microchip."""

    pk: int
    number: str
    city: str
    city_slug: str
    has_photo: bool
    species: str
    breed: str
    color: str
    sex: str
    age_months: int
    traits: str
    where: str  # the block or street, or the city's name
    found_on: date
    placed_at: datetime
    available: bool  # the hold has ended: may be adopted or otherwise disposed of
    claim_by_date: date
    claim_by_time: time
    claim_by_citation: str
    pound_pk: int


@dataclass(frozen=True)
class FoundList:
    animals: tuple[FoundAnimal, ...]
    pounds: tuple[PoundInfo, ...]


def found_version() -> int:
    return cache.get_or_set(_VERSION_KEY, 1, timeout=None)


def _bump() -> None:
    try:
        cache.incr(_VERSION_KEY)
    except ValueError:  # not set yet, or evicted
        cache.set(_VERSION_KEY, 2, timeout=None)


def forget_found(**_signal) -> None:
    """A case, pound, its hours or a city changed: the next page reads afresh. Again once
    the write commits, as a page read between the write and its commit kept the old."""
    _bump()
    transaction.on_commit(_bump)


def found_queryset(jurisdiction_ids):
    """The animals in the pound of these cities, newest first (held or available)."""
    return (
        ImpoundCase.objects.filter(jurisdiction_id__in=jurisdiction_ids, status__in=OPEN_STATUSES)
        .select_related("jurisdiction", "pound")
        .prefetch_related(
            Prefetch("pound__hours", queryset=PoundHours.objects.order_by("weekday", "opens"))
        )
        .order_by("-placed_at", "-pk")
    )


def is_found_public(case: ImpoundCase) -> bool:
    """Whether the case's animal is on the found page (and its photo public)."""
    return case.status in OPEN_STATUSES


def _pound(pound: Pound) -> PoundInfo:
    return PoundInfo(
        pk=pound.pk,
        name=pound.name,
        address=pound.address,
        phone=pound.phone,
        hours=tuple((h.get_weekday_display(), h.opens, h.closes) for h in pound.hours.all()),
    )


def _animal(case: ImpoundCase) -> FoundAnimal:
    deadline = claim_by(case)  # the posted notice's answer (G32): never a second one
    return FoundAnimal(
        pk=case.pk,
        number=case.number,
        city=case.jurisdiction.name,
        city_slug=case.jurisdiction.slug,
        has_photo=bool(case.photo),
        species=case.get_species_display(),
        breed=case.breed,
        color=case.color,
        sex=case.get_sex_display(),
        age_months=case.approximate_age_months,
        traits=case.distinguishing_traits,
        where=case.found_area or case.jurisdiction.name,
        found_on=case.seized_on,
        placed_at=timezone.localtime(case.placed_at),
        available=case.status == CaseStatus.AVAILABLE,
        claim_by_date=deadline["date"],
        claim_by_time=deadline["time"],
        claim_by_citation=deadline["citation"],
        pound_pk=case.pound_id,
    )


def found_animals(cities: list[Jurisdiction]) -> FoundList:
    """The animals in the pound of these cities and the pounds that hold them (two
    queries), from the cache while nothing changed."""
    ids = sorted(c.pk for c in cities)
    key = (
        f"impound:found:{','.join(map(str, ids))}:{get_language()}:"
        f"{timezone.localdate().isoformat()}:{found_version()}"
    )
    answer = cache.get(key)
    if answer is None:
        cases = list(found_queryset(ids))
        pounds = {}
        for case in cases:
            pounds.setdefault(case.pound_id, case.pound)
        answer = FoundList(
            animals=tuple(_animal(c) for c in cases),
            pounds=tuple(_pound(p) for p in sorted(pounds.values(), key=lambda p: p.name)),
        )
        cache.set(key, answer, timeout=FOUND_CACHE_SECONDS)
    return answer
