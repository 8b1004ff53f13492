"""Issued records are never deleted (style.md; pretix test_cannot_delete_invoice)."""

from datetime import date

import pytest

from kernel.kept import RecordKept
from licensing.models import License, Receipt, ReceiptLine, Tag
from tests.licensing.license_factories import (
    LicenseFactory,
    ReceiptLineFactory,
    TagStockFactory,
)


@pytest.fixture
def license(north_branch, clerk):
    return LicenseFactory(jurisdiction=north_branch, issued_by=clerk)


def test_license_delete_refuses(license):
    with pytest.raises(RecordKept, match="Licenses are kept; they are never deleted. Void them"):
        license.delete()
    with pytest.raises(RecordKept):
        License.objects.all().delete()
    assert License.objects.filter(pk=license.pk).exists()


def test_receipt_and_line_delete_refuses(license, clerk):
    line = ReceiptLineFactory(receipt=license.receipt)
    for obj in (license.receipt, line):
        with pytest.raises(RecordKept):
            obj.delete()
    with pytest.raises(RecordKept):
        Receipt.objects.all().delete()
    with pytest.raises(RecordKept):
        ReceiptLine.objects.all().delete()
    assert ReceiptLine.objects.filter(pk=line.pk).exists()


def test_tag_delete_refuses(north_branch, clerk):
    stock = TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, last_number=3)
    tag = stock.tags.first()
    with pytest.raises(RecordKept):
        tag.delete()
    with pytest.raises(RecordKept):
        Tag.objects.all().delete()
    assert Tag.objects.count() == 3


def test_is_current_covers_the_term_only(license):
    assert license.is_current(date(2026, 1, 1))
    assert license.is_current(date(2026, 12, 31))
    assert not license.is_current(date(2027, 1, 1))
    assert not license.is_current(date(2025, 12, 31))
