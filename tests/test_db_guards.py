"""Issued records the database itself protects (REC-01, LIC-06): the
ORM's ``update()`` and ``delete()`` paths that skip the models, and raw SQL, are refused
by triggers for receipts, receipt lines, licenses, tags and issued documents."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.db import IntegrityError, connection, models, transaction

from licensing.models import License, Receipt, ReceiptLine, Tag
from licensing.services.licenses import license_issue
from notices.models import IssuedDocument
from notices.services import document_pdf
from tests.licensing.factories import AnimalFactory, RabiesVaccinationFactory
from tests.licensing.license_factories import TagStockFactory

CHICAGO = ZoneInfo("America/Chicago")


@pytest.fixture
def issued(north_branch, clerk):
    TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2026, last_number=20)
    dog = AnimalFactory(jurisdiction=north_branch, date_of_birth=date(2022, 5, 1))
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))
    return license_issue(
        animal=dog,
        owner=dog.owner,
        actor=clerk,
        on=date(2026, 11, 2),
        method="cash",
        now=datetime(2026, 11, 2, 10, tzinfo=CHICAGO),
    )


def refused(statement):
    with pytest.raises(IntegrityError, match="issued records cannot be"):
        with transaction.atomic():
            statement()


def raw(sql, params=()):
    def run():
        with connection.cursor() as cursor:
            cursor.execute(sql, params)

    return run


def plain(model):
    """The base QuerySet, around any ``delete``/``update`` guard the model's manager has."""
    return models.QuerySet(model)


def test_amounts_numbers_payer_and_issue_time_cannot_be_rewritten(issued):
    receipt = issued.receipt
    refused(lambda: plain(Receipt).filter(pk=receipt.pk).update(total=0))
    refused(lambda: plain(Receipt).filter(pk=receipt.pk).update(number=999))
    refused(lambda: plain(Receipt).filter(pk=receipt.pk).update(payer_name="Someone else"))
    refused(
        raw("UPDATE licensing_receipt SET issued_at = issued_at - interval '1 day'")
        if connection.vendor == "postgresql"
        else raw("UPDATE licensing_receipt SET issued_at = '2000-01-01 00:00:00'")
    )
    refused(lambda: plain(ReceiptLine).filter(receipt=receipt).update(amount=1))
    refused(lambda: plain(License).filter(pk=issued.license.pk).update(number="X-1"))
    refused(lambda: plain(Tag).filter(pk=issued.tag.pk).update(number=77))
    # A laid-out document: one still waiting for the worker gets its SHA-256 set once,
    # when it is laid out (here, at its first print); after that it is fixed like every
    # issued record.
    document = IssuedDocument.objects.filter(jurisdiction=receipt.jurisdiction).first()
    document_pdf(document)
    document.refresh_from_db()
    assert document.sha256
    refused(lambda: plain(IssuedDocument).filter(pk=document.pk).update(sha256="0" * 64))
    refused(raw("UPDATE notices_issueddocument SET number = 'forged'"))
    receipt.refresh_from_db()
    assert receipt.total == issued.receipt.total and receipt.number == 1


def test_the_columns_services_change_still_change(issued):
    """Statuses, voids and the reference are not what was issued: the void, expiry and
    transfer services keep working (covered by their own tests); a direct check here."""
    plain(License).filter(pk=issued.license.pk).update(status="expired")
    plain(Receipt).filter(pk=issued.receipt.pk).update(reference="1234")
    assert License.objects.get(pk=issued.license.pk).status == "expired"


@pytest.mark.skipif(
    "connection.vendor != 'postgresql'", reason="SQLite: Django's flush deletes between tests"
)
def test_issued_rows_cannot_be_deleted(issued):
    refused(lambda: plain(ReceiptLine).filter(receipt=issued.receipt)._raw_delete("default"))
    refused(raw("DELETE FROM licensing_receipt"))
    refused(raw("DELETE FROM licensing_tag"))
    refused(raw("DELETE FROM licensing_license"))
    refused(raw("DELETE FROM notices_issueddocument"))
    assert Receipt.objects.count() == 1 and IssuedDocument.objects.exists()
