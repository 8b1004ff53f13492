"""The registry search's lookups are each answered from an index on PostgreSQL, with
thousands of owners and animals in two cities (the search itself:
test_search_scale.py). On data of its own: the planner's choice depends on it.
"""

from datetime import date

import pytest
from django.db import connection

from licensing.models import Animal, Owner, OwnerSearch, RabiesVaccination, Tag, TagStatus
from licensing.selectors import _lookups
from tests.licensing.license_factories import LicenseFactory, TagStockFactory

pytestmark = pytest.mark.django_db

SIZE = 5000  # owners and animals per city in the EXPLAIN test


def _word(n: int) -> str:
    """A made-up name, different letters for each n: real names share few trigrams."""
    n = n * 7919 % 26**5
    letters = []
    for _ in range(5):
        n, letter = divmod(n, 26)
        letters.append(chr(ord("a") + letter))
    return "".join(letters).capitalize()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="trigram indexes: PostgreSQL")
def test_each_lookup_uses_its_index_on_postgresql(clerk, north_branch, glencoe):
    from licensing.models import License

    owners = Owner.objects.bulk_create(
        Owner(
            jurisdiction=city,
            first_name=_word(n + 1),
            last_name=_word(n + 2 * SIZE),
            address_line=f"{n} {_word(n + 4 * SIZE)} Street",
            city=city.short_name,
            postal_code="55056",
            phone=f"651-{n:07d}",
            phone_digits=f"651{n:07d}",
        )
        for n in range(SIZE)
        for city in (north_branch, glencoe)
    )
    OwnerSearch.objects.refresh(o.pk for o in owners)  # what every bulk writer calls
    animals = Animal.objects.bulk_create(
        Animal(
            jurisdiction=o.jurisdiction,
            owner=o,
            species="dog",
            name=_word(o.pk + 6 * SIZE),
            microchip=f"985{o.pk:012d}",
        )
        for o in owners
    )
    RabiesVaccination.objects.bulk_create(
        RabiesVaccination(
            animal=a,
            vaccinated_on=date(2026, 1, 1),
            rabies_tag_number=f"RT-{a.pk}",
            veterinarian_name="Dr. Vet",
            veterinarian_license="V1",
        )
        for a in animals
    )
    stock = TagStockFactory(
        jurisdiction=north_branch, recorded_by=clerk, first_number=1, last_number=4000
    )
    license = LicenseFactory(jurisdiction=north_branch, issued_by=clerk, animal=animals[0])
    Tag.objects.filter(stock=stock, number=123).update(status=TagStatus.ISSUED, license=license)
    assert License.objects.exists()
    # What the demo loader does after a bulk load: the trigram indexes' pending lists
    # merged (a bulk insert leaves them there, and the planner then prices a scan of the
    # whole list), and fresh statistics.
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT gin_clean_pending_list(indexrelid) FROM pg_index "
            "JOIN pg_class ON pg_class.oid = indexrelid JOIN pg_am ON pg_am.oid = relam "
            "WHERE amname = 'gin'"
        )
        for table in ("owner", "ownersearch", "animal", "rabiesvaccination", "tag", "license"):
            cursor.execute(f"ANALYZE licensing_{table}")
    scope = [north_branch.pk]
    someone = owners[20]
    # Every query's first three lookups: owners whose last name begins with the first
    # word (a range of the name index), the other owners whose names or address hold it
    # (trigram), owners with an animal of that name (trigram).
    names = ["owner_search_city_name_idx", "owner_search_text_trgm", "animal_name_trgm"]
    expected = {
        # query: the index each of its lookups must name, in the order of _lookups
        someone.last_name: [*names, "vacc_rabies_tag_upper_idx"],
        f"RT-{animals[10].pk}": [*names, "vacc_rabies_tag_upper_idx"],
        "6510001234": [
            *names,
            "vacc_rabies_tag_upper_idx",
            "microchip",
            "owner_phone_digits_trgm",
        ],
        "2026-123": [
            *names,
            "vacc_rabies_tag_upper_idx",
            "microchip",
            "owner_phone_digits_trgm",
            "tag_",
        ],
        "123": [
            *names,
            "vacc_rabies_tag_upper_idx",
            "microchip",
            "tag_",  # tag_number_idx, or the license index while few tags are issued
        ],
    }
    for query, indexes in expected.items():
        lookups = _lookups(query, scope)
        assert len(lookups) == len(indexes), query
        for lookup, index in zip(lookups, indexes, strict=True):
            plan = lookup.explain()
            assert "Index" in plan and index in plan, (query, index, plan)
            assert "Seq Scan on licensing_owner" not in plan, (query, plan)
            assert "Seq Scan on licensing_animal" not in plan, (query, plan)
    # A word every owner's address holds ("Street"), cut at the page as registry_search
    # asks: the city's owners are walked in name order up to the 25th match, not all read
    # and sorted; a rare one still comes from the trigram index.
    _, others, *_ = _lookups("street", scope, 25)
    plan = others.explain()
    assert "owner_search_city_name_idx" in plan and "Sort" not in plan, plan
    _, others, *_ = _lookups(someone.last_name, scope, 25)
    assert "owner_search_text_trgm" in others.explain(), plan
    # A surname many owners share: read in name order from where it begins, and when it
    # fills the page the other matches are not read at all (a one-time test).
    OwnerSearch.objects.filter(owner__in=owners[:1200]).update(sort_last="common")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE licensing_ownersearch")
    surnames, others, *_ = _lookups("Common", scope, 25)
    plan = surnames.explain()
    assert "owner_search_city_name_idx" in plan and "Sort" not in plan, plan
    plan = others.explain(analyze=True)
    assert "One-Time Filter" in plan and "never executed" in plan, plan
