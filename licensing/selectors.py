"""Reads that several registry pages share.

``registry_search`` is the clerk's one search box: a lost dog's tag, a caller's phone
number, half a surname. It is scoped to the cities the user serves and runs a fixed
number of queries whatever the registry's size (issue 15, item 1):

1. one lookup: each kind of key is its own SELECT of (owner, animal, rank, name) that
   its own index answers — tag numbers, rabies-tag numbers and microchips by btree,
   phone digits (Owner.phone_digits) and animal names by trigram on PostgreSQL
   (migrations 0003 and 0014), names and addresses from the narrow OwnerSearch table
   (migration 0017: a trigram index, or for a common word a walk in name order that
   stops at the page's last owner) — joined by UNION ALL, never an OR across tables;
   the rows come ranked (exact key first, then the first digits of a key, then names),
   then by owner name, and are cut at a fixed number;
2. the page's owners with their city, and 3. their animals.

SQLite (``make run``) has no trigram index: the same queries scan, which is fine at a
small city's size.
"""

import re
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import Case, F, IntegerField, Prefetch, Q, Value, When
from django.db.models.functions import Lower

from base import sections

from .models import Animal, Owner, OwnerSearch, Ownership, RabiesVaccination, Tag
from .models.registry import phone_digits
from .models.search import city_words
from .services.standing import standing_prefetch

MIN_QUERY_LENGTH = 2
MIN_PHONE_DIGITS = 4
MIN_MICROCHIP_DIGITS = 3
MAX_TAG_DIGITS = 9  # fits the tag number column on every database
# Lookup rows read to fill one page: several animals of one owner can match.
MAX_LOOKUP_ROWS = 500

# Ranks: an exact key (tag, rabies tag, whole microchip) before the first digits of a
# chip or part of a phone number, before names and addresses.
RANK_EXACT, RANK_PARTIAL_KEY, RANK_NAME = 0, 1, 2


@dataclass
class SearchHit:
    owner: Owner
    animals: list = field(default_factory=list)
    matched_animal_ids: set = field(default_factory=set)


def _digits(text: str) -> str:
    return phone_digits(text)


def _looks_numeric(query: str) -> bool:
    """A phone, chip or tag number: digits with punctuation, no letters."""
    return bool(_digits(query)) and not re.search(r"[^\d\s().+/-]", query)


def _owner_text_q(query: str, scope) -> Q:
    """Every word must appear in a name or the street address ("ann 5th st"): one
    search text per owner (OwnerSearch), one trigram index on PostgreSQL. The word is
    upper-cased by the database, as the text was, so both agree on every backend."""
    combined = Q()
    for word in query.split():
        combined &= city_words(word, scope)
    return combined


def _tag_lookup(query: str):
    """The tag columns to match, or None when the query cannot be a tag number.

    LICENSE TAGS — the one place tag numbers are matched (REC-02, LIC-09: finding a lost
    dog's owner by its tag).
    """
    if not _looks_numeric(query):
        return None
    # "2026-0412" or "2026 412" is year and number as stamped; a bare number is any year.
    stamped = re.fullmatch(r"\s*(\d{4})\s*[-/ ]\s*(\d+)\s*", query)
    lookup = (
        {"year": int(stamped[1]), "number": stamped[2]} if stamped else {"number": _digits(query)}
    )
    if len(lookup["number"]) > MAX_TAG_DIGITS:  # a chip or phone number: no such tag
        return None
    lookup["number"] = int(lookup["number"])
    return lookup


def _name_keys(names: str) -> tuple:
    """The owner's sort keys, from the path to the owner's columns (``names``)."""
    return (
        Lower(f"{names}last_name"),
        Lower(f"{names}first_name"),
        Lower(f"{names}organization_name"),
    )


# The same keys as OwnerSearch stores them.
SEARCH_ROW_KEYS = (F("sort_last"), F("sort_first"), F("sort_org"))


def _rows(queryset, *, owner, animal, rank, names: str = "", keys=None):
    """One lookup's SELECT: (owner id, animal id or NULL, rank, owner's sort keys).

    ``names`` is the path to the owner's name columns from the queryset's model, or
    ``keys`` the sort keys themselves."""
    last, first, org = keys or _name_keys(names)
    return (
        queryset.order_by()
        .annotate(
            hit_owner=F(owner),
            hit_animal=F(animal) if animal else Value(None, output_field=IntegerField()),
            hit_rank=rank if hasattr(rank, "resolve_expression") else Value(rank),
            hit_last=last,
            hit_first=first,
            hit_org=org,
        )
        .values_list("hit_owner", "hit_animal", "hit_rank", "hit_last", "hit_first", "hit_org")
    )


def _owner_text_rows(query: str, scope, limit: int | None):
    """Owners whose names or address hold every word, from OwnerSearch.

    One row per owner, all of one rank: only the first ``limit`` by name can reach the
    page, so where the database allows a LIMIT inside a UNION (PostgreSQL) the branch is
    cut there, and for a common word ("john") PostgreSQL walks the city's owners in name
    order (owner_search_city_name_idx) and stops at the page's last match instead of
    reading and sorting thousands; a rarer word it reads through the trigram index."""
    rows = _rows(
        OwnerSearch.objects.filter(jurisdiction_id__in=scope).filter(_owner_text_q(query, scope)),
        owner="owner_id",
        animal=None,
        rank=RANK_NAME,
        keys=SEARCH_ROW_KEYS,
    )
    if limit is None or not connection.features.supports_slicing_ordering_in_compound:
        return rows
    return rows.order_by("hit_last", "hit_first", "hit_org", "hit_owner")[:limit]


def _lookups(query: str, scope, limit: int | None = None) -> list:
    """Each kind of key, its own query on its own index (``limit``: owners on the page)."""
    owners = Owner.objects.filter(jurisdiction_id__in=scope)
    animals = Animal.objects.filter(jurisdiction_id__in=scope)
    lookups = [
        _owner_text_rows(query, scope, limit),
        _rows(
            animals.filter(name__icontains=query),
            owner="owner_id",
            animal="pk",
            rank=RANK_NAME,
            names="owner__",
        ),
        _rows(
            RabiesVaccination.objects.filter(
                animal__jurisdiction_id__in=scope, rabies_tag_number__iexact=query
            ),
            owner="animal__owner_id",
            animal="animal_id",
            rank=RANK_EXACT,
            names="animal__owner__",
        ),
    ]
    if not _looks_numeric(query):
        return lookups
    digits = _digits(query)
    if len(digits) >= MIN_MICROCHIP_DIGITS:
        lookups.append(
            _rows(
                animals.filter(microchip__startswith=digits),  # exact or the first digits read
                owner="owner_id",
                animal="pk",
                rank=Case(
                    When(microchip=digits, then=Value(RANK_EXACT)),
                    default=Value(RANK_PARTIAL_KEY),
                    output_field=IntegerField(),
                ),
                names="owner__",
            )
        )
    if len(digits) >= MIN_PHONE_DIGITS:
        lookups.append(
            _rows(
                owners.filter(phone_digits__contains=digits),
                owner="pk",
                animal=None,
                rank=RANK_PARTIAL_KEY,
                names="",
            )
        )
    tag = _tag_lookup(query)
    if tag is not None:
        # Tags issued to a license, lost or void included, so a dog still wearing a lost
        # tag is found; stock never issued is not.
        lookups.append(
            _rows(
                Tag.objects.filter(
                    jurisdiction_id__in=scope,
                    license__isnull=False,
                    license__animal__jurisdiction_id__in=scope,
                    **tag,
                ),
                owner="license__animal__owner_id",
                animal="license__animal_id",
                rank=RANK_EXACT,
                names="license__animal__owner__",
            )
        )
    return lookups


def _ranked_matches(query: str, scope, limit: int) -> dict[int, set]:
    """Owner id -> ids of the animals that matched, best first; one query."""
    first, *rest = _lookups(query, scope, limit)
    rows = first.union(*rest, all=True).order_by(
        "hit_rank", "hit_last", "hit_first", "hit_org", "hit_owner"
    )[:MAX_LOOKUP_ROWS]
    found: dict[int, set] = {}
    for owner_id, animal_id, *_ in rows:
        if owner_id not in found:
            if len(found) >= limit:
                continue
            found[owner_id] = set()
        if animal_id is not None:
            found[owner_id].add(animal_id)
    return found


def registry_search(*, user, query: str, limit: int = 25, jurisdiction_ids=None) -> list[SearchHit]:
    """Owners matching the query, each with their animals; three queries in all.

    ``jurisdiction_ids`` narrows the search to some of the user's cities (a transfer
    stays within the license's city)."""
    # Control characters (a NUL breaks PostgreSQL string literals) become spaces.
    query = " ".join(re.sub(r"[\x00-\x1f\x7f]", " ", query or "").split())[:100]
    scope = user.jurisdiction_ids
    if jurisdiction_ids is not None:
        scope = frozenset(scope) & frozenset(jurisdiction_ids)
    if len(query) < MIN_QUERY_LENGTH or not scope:
        return []
    scope = sorted(scope)
    matches = _ranked_matches(query, scope, limit)
    if not matches:
        return []
    owners = (
        Owner.objects.filter(pk__in=list(matches), jurisdiction_id__in=scope)
        .select_related("jurisdiction")
        .prefetch_related(Prefetch("animals", queryset=Animal.objects.order_by("name", "pk")))
        .in_bulk()
    )
    return [
        SearchHit(
            owner=owners[pk],
            animals=list(owners[pk].animals.all()),
            matched_animal_ids=animal_ids,
        )
        for pk, animal_ids in matches.items()
        if pk in owners
    ]


def owner_with_animals(owner_queryset):
    """An owner page's animals, each with its vaccinations and what its license standing
    reads (licenses, tags, exemptions), in a fixed number of extra queries."""
    animals = (
        standing_prefetch(Animal.objects.select_related("premises"))
        .prefetch_related(
            Prefetch(
                "vaccinations", queryset=RabiesVaccination.objects.order_by("-vaccinated_on", "-pk")
            )
        )
        .order_by("status", "name", "pk")
    )
    return owner_queryset.select_related("jurisdiction", "user").prefetch_related(
        Prefetch("animals", queryset=animals),
    )


def animal_for_detail(animal_queryset):
    animal_queryset = standing_prefetch(animal_queryset)
    return animal_queryset.select_related("jurisdiction", "owner", "premises").prefetch_related(
        Prefetch(
            "ownerships",
            queryset=Ownership.objects.select_related("owner", "premises").order_by(
                "-started_on", "-pk"
            ),
        ),
        Prefetch(
            "vaccinations",
            queryset=RabiesVaccination.objects.select_related(
                "recorded_by", *sections.related_for("licensing.animal_detail.vaccinations")
            ),
        ),
    )


def owner_choices(
    *,
    user,
    jurisdiction,
    query: str,
    exclude_pk: int | None = None,
    picked: str = "",
    limit: int = 25,
) -> list[Owner]:
    """Owners of one city to choose from by search (a transfer's new owner, a kennel's
    applicant): the search hits plus the owner already picked (just registered, or
    chosen before an error), so the page never lists every owner of the city (it grows
    with the data). ``jurisdiction`` None: the cities the user serves. Records merged
    into another are not offered (issue 14, item 7)."""
    city_ids = [jurisdiction.pk] if jurisdiction is not None else list(user.jurisdiction_ids)
    hits = [
        h.owner
        for h in registry_search(user=user, query=query, limit=limit, jurisdiction_ids=city_ids)
    ]
    if str(picked).isdigit() and int(picked) not in {o.pk for o in hits}:
        chosen = Owner.objects.filter(pk=int(picked), jurisdiction_id__in=city_ids).first()
        hits = ([chosen] if chosen else []) + hits
    hits = [o for o in hits if not o.merged_into_id]
    return [o for o in hits if o.pk != exclude_pk]
