"""Receipt numbers come from the allocator, not from the unique constraint (LIC-06, REC-01).

Each city has one gap-free, never-reused series (``kernel.numbers.allocate`` on the
city's "receipt" ``NumberSeries`` row, locked in the payment's transaction). These tests
call the allocator directly, with no receipt row behind the numbers, so a repeated or
skipped number shows as a wrong number here instead of an IntegrityError at the insert.
The concurrent case is in test_tags_numbering.py.
"""

from datetime import datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.db import transaction

from kernel.models import NumberSeries
from kernel.numbers import allocate
from licensing.models import Receipt
from licensing.services.numbering import RECEIPTS
from licensing.services.receipts import FeeLine, receipt_create
from licensing.services.voids import receipt_void
from tests.licensing.factories import OwnerFactory

NOW = datetime(2026, 3, 2, 10, 0, tzinfo=ZoneInfo("America/Chicago"))
LINE = FeeLine("dog_license", "Dog license", Decimal("18.00"), "Demo Res. 2025-01")


class Rollback(Exception):
    pass


def _next(city) -> int:
    """The number the city's series will give next (1 before its first receipt)."""
    series = NumberSeries.objects.filter(jurisdiction=city, series=RECEIPTS).first()
    return series.next_number if series else 1


def _allocate(city, n) -> list[int]:
    with transaction.atomic():
        return [allocate(city, RECEIPTS) for _ in range(n)]


def _receipt(city, payer, clerk, **kw) -> Receipt:
    with transaction.atomic():
        return receipt_create(
            jurisdiction=city,
            payer=payer,
            lines=[LINE],
            method="cash",
            reference="",
            actor=clerk,
            now=NOW,
            **kw,
        )


def test_the_allocator_gives_consecutive_numbers_and_advances_the_series(north_branch):
    start = _next(north_branch)
    assert _allocate(north_branch, 3) == [start, start + 1, start + 2]
    assert _next(north_branch) == start + 3
    assert _allocate(north_branch, 2) == [start + 3, start + 4]  # a later transaction
    assert not Receipt.objects.exists()  # the numbers came from the series alone


def test_each_city_has_its_own_series(north_branch, glencoe):
    nb, gl = _next(north_branch), _next(glencoe)
    with transaction.atomic():
        numbers = [
            (city.slug, allocate(city, RECEIPTS))
            for city in (north_branch, glencoe, north_branch, north_branch, glencoe)
        ]
    assert numbers == [
        ("north-branch", nb),
        ("glencoe", gl),
        ("north-branch", nb + 1),
        ("north-branch", nb + 2),
        ("glencoe", gl + 1),
    ]


def test_a_rolled_back_payment_gives_its_number_back(north_branch):
    """Gap-free (LIC-06): the number of a payment that did not happen is used next."""
    start = _next(north_branch)
    with pytest.raises(Rollback), transaction.atomic():
        assert allocate(north_branch, RECEIPTS) == start
        raise Rollback
    assert _allocate(north_branch, 1) == [start]


def test_receipts_are_numbered_n_n1_n2_per_city_and_a_void_takes_the_next(
    north_branch, glencoe, clerk, glencoe_clerk
):
    nb_payer = OwnerFactory(jurisdiction=north_branch)
    gl_payer = OwnerFactory(jurisdiction=glencoe, postal_code="55336")
    nb, gl = _next(north_branch), _next(glencoe)
    first = _receipt(north_branch, nb_payer, clerk)
    gl_first = _receipt(glencoe, gl_payer, glencoe_clerk)
    second = _receipt(north_branch, nb_payer, clerk)
    third = _receipt(north_branch, nb_payer, clerk)
    assert [first.number, second.number, third.number] == [nb, nb + 1, nb + 2]
    assert gl_first.number == gl
    void = receipt_void(receipt=second, actor=clerk, reason="Entered in error", now=NOW)
    assert void.number == nb + 3 and void.voids == second
    assert void.total == -second.total
    after = _receipt(north_branch, nb_payer, clerk)
    assert after.number == nb + 4
    assert _receipt(glencoe, gl_payer, glencoe_clerk).number == gl + 1
    numbers = list(
        Receipt.objects.filter(jurisdiction=north_branch)
        .order_by("number")
        .values_list("number", flat=True)
    )
    assert numbers == list(range(nb, nb + 5))  # no gap, no repeat
