"""Reads that several registry pages share.

``registry_search`` is the clerk's one search box: a lost dog's tag, a caller's phone
number, half a surname. It is scoped to the cities the user serves and runs a fixed
number of queries whatever the registry's size.
"""

import re
from dataclasses import dataclass, field

from django.db.models import Prefetch, Q, Value
from django.db.models.functions import Lower, Replace

from .models import Animal, Owner, Ownership, RabiesVaccination, Tag
from .services.standing import standing_prefetch

MIN_QUERY_LENGTH = 2
MIN_PHONE_DIGITS = 4
MIN_MICROCHIP_DIGITS = 3
MAX_TAG_DIGITS = 9  # fits the tag number column on every database
# Characters people type inside phone numbers and chip numbers; dropped before comparing.
_PHONE_PUNCTUATION = ("-", " ", "(", ")", ".", "+", "/")


@dataclass
class SearchHit:
    owner: Owner
    animals: list = field(default_factory=list)
    matched_animal_ids: set = field(default_factory=set)


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


def _looks_numeric(query: str) -> bool:
    """A phone, chip or tag number: digits with punctuation, no letters."""
    return bool(_digits(query)) and not re.search(r"[^\d\s().+/-]", query)


def _phone_digits_expression():
    expression = "phone"
    for char in _PHONE_PUNCTUATION:
        expression = Replace(expression, Value(char), Value(""))
    return expression


def _owner_text_q(query: str) -> Q:
    """Every word must appear in a name or the street address ("ann 5th st")."""
    combined = Q()
    for word in query.split():
        combined &= (
            Q(first_name__icontains=word)
            | Q(last_name__icontains=word)
            | Q(organization_name__icontains=word)
            | Q(address_line__icontains=word)
        )
    return combined


def _license_tag_animal_ids(query: str, jurisdiction_ids):
    """Animals wearing a license tag with this number, or None when tags don't exist yet.

    LICENSE TAGS — the one place tag numbers are matched (REC-02, LIC-09: finding a lost
    dog's owner by its tag). None when the query cannot be a tag number.
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
    # Wired to the Tag model (licensing.models.Tag): tags issued to a license, lost or void
    # included, so a dog still wearing a lost tag is found; stock never issued is not.
    return Tag.objects.filter(
        jurisdiction_id__in=jurisdiction_ids,
        license__isnull=False,
        **lookup,
    ).values("license__animal_id")


def _animal_q(query: str, jurisdiction_ids) -> Q:
    matched = Q(name__icontains=query)
    digits = _digits(query)
    if _looks_numeric(query) and len(digits) >= MIN_MICROCHIP_DIGITS:
        matched |= Q(microchip__startswith=digits)  # exact or the first digits read
    vaccinated = RabiesVaccination.objects.filter(
        animal__jurisdiction_id__in=jurisdiction_ids,
        rabies_tag_number__iexact=query.strip(),
    ).values("animal_id")
    matched |= Q(pk__in=vaccinated)
    tagged = _license_tag_animal_ids(query, jurisdiction_ids)
    if tagged is not None:
        matched |= Q(pk__in=tagged)
    return matched


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
    matching_animals = Animal.objects.filter(jurisdiction_id__in=scope).filter(
        _animal_q(query, scope)
    )
    owner_q = _owner_text_q(query) | Q(pk__in=matching_animals.values("owner_id"))
    owners = Owner.objects.filter(jurisdiction_id__in=scope)
    if _looks_numeric(query) and len(_digits(query)) >= MIN_PHONE_DIGITS:
        owners = owners.annotate(phone_digits=_phone_digits_expression())
        owner_q |= Q(phone_digits__contains=_digits(query))
    owners = list(
        owners.filter(owner_q)
        .select_related("jurisdiction")
        .prefetch_related(Prefetch("animals", queryset=Animal.objects.order_by("name", "pk")))
        .order_by(Lower("last_name"), Lower("first_name"), Lower("organization_name"), "pk")[:limit]
    )
    matched = (
        set(matching_animals.filter(owner__in=[o.pk for o in owners]).values_list("pk", flat=True))
        if owners
        else set()
    )
    return [
        SearchHit(
            owner=o,
            animals=list(o.animals.all()),
            matched_animal_ids={a.pk for a in o.animals.all() if a.pk in matched},
        )
        for o in owners
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
        Prefetch("vaccinations", queryset=RabiesVaccination.objects.select_related("recorded_by")),
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
