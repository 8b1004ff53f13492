"""Tag and receipt numbers under concurrency (LIC-06, LIC-08, REC-01/02) and tag workflows."""

import threading
from datetime import date
from decimal import Decimal

import pytest
from django.db import connection

from licensing.models import Receipt, Tag, TagStatus
from licensing.services.licenses import license_issue
from licensing.services.tags import tag_replace_lost, tag_stock_receive
from ordinance.refusals import Refused
from tests.licensing.factories import AnimalFactory, RabiesVaccinationFactory
from tests.licensing.license_factories import TagStockFactory

ON = date(2026, 1, 15)


def vaccinated_dog(city, **kw):
    dog = AnimalFactory(jurisdiction=city, **kw)
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))
    return dog


@pytest.mark.django_db(transaction=True)
def test_many_clerks_at_once_get_distinct_tags_and_gap_free_receipts(
    postgres_only, north_branch, clerk
):
    TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2026, last_number=40)
    dogs = [vaccinated_dog(north_branch) for _ in range(12)]
    errors = []
    barrier = threading.Barrier(len(dogs))

    def work(dog):
        try:
            barrier.wait()
            license_issue(animal=dog, owner=dog.owner, actor=clerk, on=ON, method="cash")
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=work, args=(d,)) for d in dogs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    numbers = sorted(Receipt.objects.values_list("number", flat=True))
    assert numbers == list(range(1, len(dogs) + 1))
    issued = list(Tag.objects.filter(status=TagStatus.ISSUED).values_list("number", flat=True))
    assert len(issued) == len(set(issued)) == len(dogs)


def test_lost_tag_duplicate_gets_new_number_and_fee(north_branch, clerk):
    TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2026, last_number=10)
    dog = vaccinated_dog(north_branch)
    first = license_issue(animal=dog, owner=dog.owner, actor=clerk, on=ON, method="cash")
    dup = tag_replace_lost(
        license=first.license, actor=clerk, on=date(2026, 3, 1), method="card", reference="4242"
    )
    old = Tag.objects.get(pk=first.tag.pk)
    assert old.status == TagStatus.LOST and dup.tag.number != old.number
    assert dup.tag.license == first.license and dup.tag.status == TagStatus.ISSUED
    line = dup.receipt.lines.get()
    assert (line.code, line.amount) == ("duplicate_tag", Decimal("3.00"))
    assert "6-63" in line.authority
    assert first.license.tags.filter(status=TagStatus.ISSUED).count() == 1


def test_stock_entry_refuses_overlap(north_branch, clerk):
    tag_stock_receive(
        jurisdiction=north_branch,
        year=2026,
        first_number=1,
        last_number=100,
        received_on=ON,
        vendor="V",
        actor=clerk,
    )
    assert Tag.objects.filter(year=2026).count() == 100
    with pytest.raises(Refused, match="already in stock"):
        tag_stock_receive(
            jurisdiction=north_branch,
            year=2026,
            first_number=100,
            last_number=150,
            received_on=ON,
            vendor="V",
            actor=clerk,
        )
    tag_stock_receive(
        jurisdiction=north_branch,
        year=2027,
        first_number=1,
        last_number=5,
        received_on=ON,
        vendor="V",
        actor=clerk,
    )
