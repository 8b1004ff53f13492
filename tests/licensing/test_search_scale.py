"""The search box built for 200,000 animals: each kind of key is its own
indexed lookup, joined by UNION ALL, ranked, cut, then one page of rows is fetched.

The results are compared with the search as it was before (one query ORing every column
and sub-selects over animals and vaccinations), kept here as the reference.
"""

import re
from datetime import date

import pytest
from django.db.models import Q, Value
from django.db.models.functions import Replace
from django.urls import reverse

from licensing.models import Animal, Owner, RabiesVaccination, Tag, TagStatus
from licensing.selectors import registry_search
from tests.licensing.factories import (
    AnimalFactory,
    OwnerFactory,
    PremisesFactory,
    RabiesVaccinationFactory,
)
from tests.licensing.license_factories import LicenseFactory, TagStockFactory
from tests.world import Scene

# --- The search as it was before (the reference the new one must agree with) ---------


def _digits(text):
    return re.sub(r"\D", "", text)


def _numeric(query):
    return bool(_digits(query)) and not re.search(r"[^\d\s().+/-]", query)


def search_before(user, query) -> dict[int, set]:
    """Owner id -> matched animal ids, as the one-query search found them."""
    query = " ".join(query.split())
    scope = user.jurisdiction_ids
    words = Q()
    for word in query.split():
        words &= (
            Q(first_name__icontains=word)
            | Q(last_name__icontains=word)
            | Q(organization_name__icontains=word)
            | Q(address_line__icontains=word)
        )
    animal_q = Q(name__icontains=query) | Q(
        pk__in=RabiesVaccination.objects.filter(
            animal__jurisdiction_id__in=scope, rabies_tag_number__iexact=query
        ).values("animal_id")
    )
    digits = _digits(query)
    if _numeric(query) and len(digits) >= 3:
        animal_q |= Q(microchip__startswith=digits)
    if _numeric(query):
        stamped = re.fullmatch(r"\s*(\d{4})\s*[-/ ]\s*(\d+)\s*", query)
        lookup = {"year": int(stamped[1]), "number": stamped[2]} if stamped else {"number": digits}
        if len(lookup["number"]) <= 9:
            lookup["number"] = int(lookup["number"])
            tagged = Tag.objects.filter(
                jurisdiction_id__in=scope, license__isnull=False, **lookup
            ).values("license__animal_id")
            animal_q |= Q(pk__in=tagged)
    animals = Animal.objects.filter(jurisdiction_id__in=scope).filter(animal_q)
    owner_q = words | Q(pk__in=animals.values("owner_id"))
    owners = Owner.objects.filter(jurisdiction_id__in=scope)
    if _numeric(query) and len(digits) >= 4:
        expression = "phone"
        for char in ("-", " ", "(", ")", ".", "+", "/"):
            expression = Replace(expression, Value(char), Value(""))
        owners = owners.annotate(digits=expression)
        owner_q |= Q(digits__contains=digits)
    found = {o.pk: set() for o in owners.filter(owner_q)}
    for animal in animals.filter(owner__in=list(found)):
        found[animal.owner_id].add(animal.pk)
    return found


def search_now(user, query) -> dict[int, set]:
    return {hit.owner.pk: hit.matched_animal_ids for hit in registry_search(user=user, query=query)}


# --- A registry with every kind of key, in two cities ---------------------------------
# Built once for the module (conftest ``scene``), with the few hundred animals of the
# query-count tests beside it; each test runs in a savepoint inside it. No query of a
# test below matches a record it does not expect among the other's.


@pytest.fixture(scope="module")
def scene_builder():
    def build(*, nb, gl, people):
        registry = _build_registry(nb, gl, people["clerk"])
        _build_many(nb, gl)
        return Scene(people=people, world=registry)

    return build


@pytest.fixture(autouse=True)
def registry(scene, db):
    """The module's registry: every test shares it, and the personas that built it."""
    return scene.world


def _build_registry(north_branch, glencoe, clerk):
    ingrid = OwnerFactory(
        jurisdiction=north_branch,
        first_name="Ingrid",
        last_name="Halvorson",
        address_line="6125 Maple Street",
        phone="(651) 555-0147",
    )
    biscuit = AnimalFactory(
        jurisdiction=north_branch, owner=ingrid, name="Biscuit", microchip="985112003344556"
    )
    AnimalFactory(
        jurisdiction=north_branch,
        owner=ingrid,
        premises=biscuit.premises,
        name="Otis",
        microchip="",
    )
    RabiesVaccinationFactory(animal=biscuit, rabies_tag_number="SRV-2025-00412")
    zed = OwnerFactory(
        jurisdiction=north_branch,
        first_name="Zed",
        last_name="Zimmer",
        address_line="9 Birch Lane",
        phone="651.555.9911",
    )
    rufus = AnimalFactory(jurisdiction=north_branch, owner=zed, name="Rufus", microchip="")
    aaron = OwnerFactory(
        jurisdiction=north_branch,
        first_name="Aaron",
        last_name="Able",
        address_line="77 Oak Street",
        phone="",
    )
    stock = TagStockFactory(
        jurisdiction=north_branch, recorded_by=clerk, first_number=70, last_number=80
    )
    license = LicenseFactory(jurisdiction=north_branch, issued_by=clerk, animal=rufus)
    Tag.objects.filter(stock=stock, number=77).update(
        status=TagStatus.ISSUED, license=license, issued_on=date(2026, 1, 15)
    )
    gerhard = OwnerFactory(
        jurisdiction=glencoe,
        first_name="Gerhard",
        last_name="Halvorsen",
        address_line="14 Maple Street",
        phone="320-555-0147",
    )
    fritz = AnimalFactory(
        jurisdiction=glencoe, owner=gerhard, name="Fritz", microchip="985112003344999"
    )
    RabiesVaccinationFactory(animal=fritz, rabies_tag_number="GLN-0412")
    return {"ingrid": ingrid, "biscuit": biscuit, "zed": zed, "rufus": rufus, "aaron": aaron}


QUERIES = {
    "tag": ["2026-77", "77", "2026 77"],
    "rabies tag": ["srv-2025-00412", "GLN-0412"],
    "microchip": ["985112003344556", "9851120033", "985112003344999"],
    "phone": ["651 555 0147", "5550147", "(651) 555-9911", "0147"],
    "name": ["halv", "Ingrid Halvorson", "zimmer", "ed zim"],
    "address": ["maple", "6125 maple", "77 oak", "birch lane"],
    "animal name": ["bisc", "rufus", "FRITZ", "ot"],
}


@pytest.mark.parametrize(
    "kind,query", [(kind, q) for kind, queries in QUERIES.items() for q in queries]
)
def test_the_results_are_the_same_as_before(clerk, officer, glencoe_clerk, registry, kind, query):
    for user in (clerk, officer, glencoe_clerk):
        before = search_before(user, query)
        assert search_now(user, query) == before, (kind, query, user.username)


@pytest.mark.parametrize(
    "query,expected",
    [
        ("2026-77", {"zed": {"rufus"}}),
        ("srv-2025-00412", {"ingrid": {"biscuit"}}),
        ("985112003344556", {"ingrid": {"biscuit"}}),
        ("651 555 0147", {"ingrid": set()}),
        ("halvorson", {"ingrid": set()}),
        ("6125 maple", {"ingrid": set()}),
        ("biscuit", {"ingrid": {"biscuit"}}),
    ],
)
def test_each_kind_of_key_finds_its_owner(clerk, registry, query, expected):
    assert search_now(clerk, query) == {
        registry[owner].pk: {registry[a].pk for a in animals} for owner, animals in expected.items()
    }


def test_each_city_sees_only_its_own(clerk, glencoe_clerk, officer, registry):
    for query in ("GLN-0412", "985112003344999", "320 555", "halvorsen", "14 maple", "fritz"):
        assert search_now(clerk, query) == {}, query
        assert len(search_now(glencoe_clerk, query)) == 1, query
        assert len(search_now(officer, query)) == 1, query
    assert search_now(glencoe_clerk, "2026-77") == {}
    assert search_now(glencoe_clerk, "srv-2025-00412") == {}


def test_an_exact_key_comes_before_a_name(clerk, registry):
    """ "77": Zed's dog wears tag 77, Aaron lives at 77 Oak Street; the tag comes first
    although Able sorts before Zimmer."""
    hits = registry_search(user=clerk, query="77")
    assert [hit.owner for hit in hits] == [registry["zed"], registry["aaron"]]
    assert hits[0].matched_animal_ids == {registry["rufus"].pk}


def test_a_whole_microchip_comes_before_a_phone_and_names_come_last(clerk, north_branch, registry):
    named = OwnerFactory(
        jurisdiction=north_branch, last_name="Aab", address_line="5550147 Ridge Road", phone=""
    )
    hits = registry_search(user=clerk, query="5550147")
    assert [hit.owner for hit in hits] == [registry["ingrid"], named]  # phone, then address
    hits = registry_search(user=clerk, query="985112003344556")
    assert [hit.owner for hit in hits] == [registry["ingrid"]]


def test_the_page_is_cut_at_the_limit_in_rank_order(clerk, north_branch):
    for n in range(30):
        OwnerFactory(jurisdiction=north_branch, last_name=f"Berg{n:02d}", phone="")
    hits = registry_search(user=clerk, query="berg", limit=25)
    assert [hit.owner.last_name for hit in hits] == [f"Berg{n:02d}" for n in range(25)]


def test_phone_digits_stay_in_step_with_the_phone(north_branch):
    owner = OwnerFactory(jurisdiction=north_branch, phone="(651) 555-0147")
    assert Owner.objects.get(pk=owner.pk).phone_digits == "6515550147"
    owner.phone = "320.555.1234 ext 5"
    owner.save(update_fields=["phone"])
    assert Owner.objects.get(pk=owner.pk).phone_digits == "32055512345"


@pytest.fixture
def many(registry):
    """Over 300 animals in two cities (built with the module's registry)."""
    assert Animal.objects.count() >= 300


def _build_many(north_branch, glencoe):
    for city in (north_branch, glencoe):
        for n in range(60):
            owner = OwnerFactory(
                jurisdiction=city,
                last_name=f"Olson{n}",
                address_line=f"{n} Pine Street",
                phone=f"651-555-{n:04d}",
            )
            premises = PremisesFactory(jurisdiction=city, address_line=owner.address_line)
            for k in range(3):
                animal = AnimalFactory(
                    jurisdiction=city,
                    owner=owner,
                    premises=premises,
                    name=f"Rex{n}-{k}",
                    microchip=f"985{city.pk:03d}000{n:03d}{k:03d}",
                )
                if k == 0:
                    RabiesVaccinationFactory(
                        animal=animal, rabies_tag_number=f"RT-{city.short_name[:2].upper()}-{n}"
                    )


@pytest.mark.parametrize("query", ["olson", "rex", "985", "651 555", "RT-NO-5", "2026-7", "pine"])
def test_the_lookup_takes_three_queries_whatever_the_size(
    officer, many, query, django_assert_max_num_queries
):
    registry_search(user=officer, query=query)  # warm
    with django_assert_max_num_queries(3):
        hits = registry_search(user=officer, query=query)
        for hit in hits:
            for animal in hit.animals:
                assert animal.name and hit.owner.jurisdiction.short_name
    assert hits or query == "2026-7"


def test_the_page_stays_within_its_query_budget(
    client_as, officer, many, django_assert_max_num_queries
):
    client = client_as(officer)
    client.get(reverse("licensing:search"), {"q": "olson"})  # warm
    for query in ("olson", "rex", "985", "651 555", "pine"):
        with django_assert_max_num_queries(10):
            page = client.get(reverse("licensing:search"), {"q": query})
        assert page.status_code == 200 and "owners found" in page.content.decode()
