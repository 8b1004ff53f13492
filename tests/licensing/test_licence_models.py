"""Issued records are never deleted (style.md; pretix test_cannot_delete_invoice)."""

from datetime import date

import pytest

from licensing.models import IssuedRecordDeletion, Licence, Receipt, ReceiptLine, Tag
from tests.licensing.licence_factories import (
    LicenceFactory,
    ReceiptLineFactory,
    TagStockFactory,
)


@pytest.fixture
def licence(north_branch, clerk):
    return LicenceFactory(jurisdiction=north_branch, issued_by=clerk)


def test_licence_delete_refuses(licence):
    with pytest.raises(IssuedRecordDeletion):
        licence.delete()
    with pytest.raises(IssuedRecordDeletion):
        Licence.objects.all().delete()
    assert Licence.objects.filter(pk=licence.pk).exists()


def test_receipt_and_line_delete_refuses(licence, clerk):
    line = ReceiptLineFactory(receipt=licence.receipt)
    for obj in (licence.receipt, line):
        with pytest.raises(IssuedRecordDeletion):
            obj.delete()
    with pytest.raises(IssuedRecordDeletion):
        Receipt.objects.all().delete()
    with pytest.raises(IssuedRecordDeletion):
        ReceiptLine.objects.all().delete()
    assert ReceiptLine.objects.filter(pk=line.pk).exists()


def test_tag_delete_refuses(north_branch, clerk):
    stock = TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, last_number=3)
    tag = stock.tags.first()
    with pytest.raises(IssuedRecordDeletion):
        tag.delete()
    with pytest.raises(IssuedRecordDeletion):
        Tag.objects.all().delete()
    assert Tag.objects.count() == 3


def test_is_current_covers_the_term_only(licence):
    assert licence.is_current(date(2026, 1, 1))
    assert licence.is_current(date(2026, 12, 31))
    assert not licence.is_current(date(2027, 1, 1))
    assert not licence.is_current(date(2025, 12, 31))
