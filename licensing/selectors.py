"""Reads that several registry pages share.

``registry_search`` is the clerk's one search box: a lost dog's tag, a caller's phone
number, half a surname. It is scoped to the cities the user serves and runs a fixed
number of queries whatever the registry's size:

1. one lookup: each kind of key is its own SELECT of (owner, animal, rank, name) that
   its own index answers — tag numbers, rabies-tag numbers and microchips by btree,
   phone digits (Owner.phone_digits) by trigram on PostgreSQL (migrations 0003 and
   0014), owners' names and addresses and animals' names from the narrow OwnerSearch
   table (migration 0017: a trigram index, or for a common word a walk in name order
   that stops at the page's last owner) — joined by UNION ALL, never an OR across tables;
   the rows come ranked (exact key first, then the first digits of a key, then owners
   whose surname begins with the first word, then other names), then by owner name,
   and are cut at a fixed number;
2. the page's owners with their city, and 3. their animals.

SQLite (``make run``) has no trigram index: the same queries scan, which is fine at a
small city's size.
"""

import re
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import (
    BigIntegerField,
    BooleanField,
    Case,
    Exists,
    ExpressionWrapper,
    F,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    Value,
    When,
)
from django.db.models.functions import Cast, Concat, Lower, Upper
from django.db.models.lookups import Exact

from base import sections
from base.compiled import CompiledOnce, Fill

from .models import Animal, Owner, OwnerSearch, Ownership, RabiesVaccination, Tag
from .models.registry import phone_digits
from .models.search import Like, city_words, like_escaped
from .services.standing import standing_prefetch

MIN_QUERY_LENGTH = 2
MIN_PHONE_DIGITS = 4
MIN_MICROCHIP_DIGITS = 3
MAX_TAG_DIGITS = 9  # fits the tag number column on every database
# Lookup rows read to fill one page: several animals of one owner can match.
MAX_LOOKUP_ROWS = 500

# Ranks: an exact key (tag, rabies tag, whole microchip) before the first digits of a
# chip or part of a phone number, before owners whose last name begins with the first
# word, before other names, addresses and animals' names.
RANK_EXACT, RANK_PARTIAL_KEY, RANK_SURNAME, RANK_NAME = 0, 1, 2, 3


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


def _owner_text_q(words: Fill, indexes, scope) -> Q:
    """Every word must appear in a name or the street address ("ann 5th st"): one
    search text per owner (OwnerSearch), one trigram index on PostgreSQL. The word is
    upper-cased by the database, as the text was, so both agree on every backend."""
    combined = Q()
    for index in indexes:
        combined &= city_words(words[f"word{index}"], scope)
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
            # A typed NULL: PostgreSQL types a UNION's column from its first branches,
            # and the owners' lookups come first.
            hit_animal=F(animal) if animal else Cast(Value(None), BigIntegerField()),
            hit_rank=rank if hasattr(rank, "resolve_expression") else Value(rank),
            hit_last=last,
            hit_first=first,
            hit_org=org,
        )
        .values_list("hit_owner", "hit_animal", "hit_rank", "hit_last", "hit_first", "hit_org")
    )


# The page's order within a rank, and the end of the range of names that begin with a
# word (above every character a name holds).
NAME_ORDER = ("hit_last", "hit_first", "hit_org", "hit_owner")
_ABOVE_EVERY_CHARACTER = "\U0010ffff"


def _cut_per_city(build, scope, limit: int | None) -> list:
    """The branch ``build(cities)``, cut at the page where it can be.

    Only a branch's first ``limit`` rows in name order can reach the page, so where the
    database allows a LIMIT inside a UNION (PostgreSQL) the branch is cut there, once
    per city: for one city PostgreSQL can walk owner_search_city_name_idx in name order
    and stop at the page's last match instead of reading and sorting thousands, which a
    list of cities would prevent. Elsewhere (SQLite) the branch is whole."""
    if limit is None or not connection.features.supports_slicing_ordering_in_compound:
        return [build(scope)]
    return [build([city]).order_by(*NAME_ORDER)[:limit] for city in scope]


def _owner_text_rows(words: Fill) -> list:
    """Owners whose names or address hold every word, from OwnerSearch: those whose last
    name begins with the first word, then the rest (two ranks).

    A common word spread over the names ("john") is found by walking the city's owners
    in name order until the page is full; a rare one through the trigram index;
    PostgreSQL picks by the word's frequency. A surname is common but not spread: its
    owners sit together in name order, and a walk from the city's first name would read
    every owner before them. So those come first, read as a range of the name index from
    where they begin, and when they fill the page the rest is not read at all (a
    one-time test)."""
    scope, limit, count = words.shape
    first = Lower(words["first"])  # lowered by the database, as the keys were
    surname = Q(sort_last__gte=first, sort_last__lt=Concat(first, Value(_ABOVE_EVERY_CHARACTER)))

    def surnames(cities):
        # The search text holds the last name, so the first word needs no test of its
        # own here; without one PostgreSQL reads the range in order and stops at the
        # page (with it, it would guess few rows and sort them all).
        return OwnerSearch.objects.filter(
            surname, _owner_text_q(words, range(1, count), cities), jurisdiction_id__in=cities
        )

    def surname_rows(cities):
        return _rows(
            surnames(cities), owner="owner_id", animal=None, rank=RANK_SURNAME, keys=SEARCH_ROW_KEYS
        )

    def the_rest(cities):
        rows = OwnerSearch.objects.filter(
            _owner_text_q(words, range(count), cities), jurisdiction_id__in=cities
        ).exclude(surname)
        if limit is not None:
            rows = rows.exclude(Exists(surnames(cities)[limit - 1 : limit]))
        return _rows(rows, owner="owner_id", animal=None, rank=RANK_NAME, keys=SEARCH_ROW_KEYS)

    return _cut_per_city(surname_rows, scope, limit) + _cut_per_city(the_rest, scope, limit)


def _animal_name_matches(pattern) -> Q:
    """An animal whose name holds the query (``pattern``: ``%query%`` escaped, as an
    expression): the one test of it, for the lookup and for marking the page's animals.
    On PostgreSQL the trigram index animal_name_trgm reads it."""
    return Q(Like(Upper("name"), Upper(pattern)))


def _animal_name_rows(words: Fill) -> list:
    """Owners with an animal whose name holds the query, one row per owner, from
    OwnerSearch.

    The owner's sort keys come from the search row, never the owner table, and the
    branch is cut at the page as the owners' names are (``_cut_per_city``): for a common
    name ("Sadie", one owner in thirty at a million animals) PostgreSQL walks the city's
    owners in name order and asks each for such an animal, stopping at the page's last;
    for a rare one it reads the few animals from the trigram index. Which animals
    matched is marked with the page's animals (``registry_search``), so an owner with
    two such animals is still one row."""

    def build(cities):
        named = Animal.objects.filter(
            _animal_name_matches(words["name"]),
            jurisdiction_id__in=cities,
            owner_id=OuterRef("owner_id"),
        )
        return _rows(
            OwnerSearch.objects.filter(Exists(named), jurisdiction_id__in=cities),
            owner="owner_id",
            animal=None,
            rank=RANK_NAME,
            keys=SEARCH_ROW_KEYS,
        )

    scope, limit, _count = words.shape
    return _cut_per_city(build, scope, limit)


def _search_words(query: str, scope, limit: int | None) -> Fill:
    """What the lookup needs of a query: its words and keys as SQL parameters, and the
    shape they decide (the cities, the page, how many words; which kinds of key a number
    could be, by which values are there)."""
    words = query.split()
    values = {"first": words[0], "name": f"%{like_escaped(query)}%", "rabies": query}
    values.update({f"word{index}": like_escaped(word) for index, word in enumerate(words)})
    if _looks_numeric(query):
        digits = _digits(query)
        if len(digits) >= MIN_MICROCHIP_DIGITS:
            values.update(chip=digits, chip_start=f"{digits}%")  # digits: no wildcard
        if len(digits) >= MIN_PHONE_DIGITS:
            values["phone"] = f"%{digits}%"
        tag = _tag_lookup(query)
        if tag is not None:
            values.update({f"tag_{column}": value for column, value in tag.items()})
    return Fill((tuple(scope), limit, len(words)), **values)


def _branches(words: Fill) -> list:
    """Each kind of key, its own query on its own index."""
    scope, _limit, _count = words.shape
    has = words.values
    owners = Owner.objects.filter(jurisdiction_id__in=scope)
    animals = Animal.objects.filter(jurisdiction_id__in=scope)
    lookups = [
        *_owner_text_rows(words),
        *_animal_name_rows(words),
        _rows(
            RabiesVaccination.objects.filter(
                Exact(Upper("rabies_tag_number"), Upper(words["rabies"])),
                animal__jurisdiction_id__in=scope,
            ),
            owner="animal__owner_id",
            animal="animal_id",
            rank=RANK_EXACT,
            names="animal__owner__",
        ),
    ]
    if "chip" in has:
        lookups.append(
            _rows(
                # exact or the first digits read
                animals.filter(Like(F("microchip"), words["chip_start"])),
                owner="owner_id",
                animal="pk",
                rank=Case(
                    When(microchip=words["chip"], then=Value(RANK_EXACT)),
                    default=Value(RANK_PARTIAL_KEY),
                    output_field=IntegerField(),
                ),
                names="owner__",
            )
        )
    if "phone" in has:
        lookups.append(
            _rows(
                owners.filter(Like(F("phone_digits"), words["phone"])),
                owner="pk",
                animal=None,
                rank=RANK_PARTIAL_KEY,
                names="",
            )
        )
    if "tag_number" in has:
        # Tags issued to a license, lost or void included, so a dog still wearing a lost
        # tag is found; stock never issued is not.
        tag = {"number": words["tag_number"]}
        if "tag_year" in has:
            tag["year"] = words["tag_year"]
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


def _lookups(query: str, scope, limit: int | None = None) -> list:
    """The lookup's branches for a query, as querysets (tests and
    tests/bench/search_explain.py read their plans)."""
    return _branches(_search_words(query, scope, limit))


def _ranked(words: Fill):
    first, *rest = _branches(words)
    return first.union(*rest, all=True).order_by("hit_rank", *NAME_ORDER)[:MAX_LOOKUP_ROWS]


# The lookup's SQL, built and compiled once per shape of query (base.compiled): building
# and compiling its branches took several times what the database takes to answer.
_RANKED = CompiledOnce(_ranked)


def _ranked_matches(words: Fill) -> dict[int, set]:
    """Owner id -> ids of the animals that matched, best first; one query."""
    _scope, limit, _count = words.shape
    found: dict[int, set] = {}
    for owner_id, animal_id, *_ in _RANKED.rows(words=words):
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
    words = _search_words(query, scope, limit)
    matches = _ranked_matches(words)
    if not matches:
        return []
    owners = (
        Owner.objects.filter(pk__in=list(matches), jurisdiction_id__in=scope)
        .select_related("jurisdiction")
        .in_bulk()
    )
    # The owners' animals in one query, grouped here: a prefetch would build a queryset
    # per owner, which cost more than the whole lookup.
    name_matched = ExpressionWrapper(
        _animal_name_matches(Value(words.values["name"])), output_field=BooleanField()
    )
    animals_of: dict[int, list] = {pk: [] for pk in owners}
    for animal in (
        Animal.objects.filter(owner_id__in=list(owners))
        .annotate(name_matched=name_matched)
        .order_by("name", "pk")
    ):
        animals_of[animal.owner_id].append(animal)
    hits = []
    for pk, animal_ids in matches.items():
        if pk not in owners:
            continue
        animals = animals_of[pk]
        named = {animal.pk for animal in animals if animal.name_matched}
        hits.append(
            SearchHit(owner=owners[pk], animals=animals, matched_animal_ids=animal_ids | named)
        )
    return hits


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
    into another are not offered."""
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
