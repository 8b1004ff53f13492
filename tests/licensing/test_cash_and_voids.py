"""Cash tendered and change due, and void receipts that read as voids: each read back
from the archived PDF, as the payer gets it."""

from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from kernel.models import NumberSeries
from licensing.models import Receipt
from licensing.services.documents import documents_for
from licensing.services.licenses import license_issue
from licensing.services.voids import receipt_void
from notices.services import document_pdf
from ordinance.refusals import Refused
from tests.licensing.factories import AnimalFactory, RabiesVaccinationFactory
from tests.licensing.license_factories import TagStockFactory
from tests.pdf import pdf_text

CHICAGO = ZoneInfo("America/Chicago")
NOW = datetime(2026, 3, 2, 10, tzinfo=CHICAGO)
TODAY = NOW.date()

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-03-02T10:00")]


@pytest.fixture
def dog(north_branch, clerk):
    TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2026, last_number=10)
    dog = AnimalFactory(jurisdiction=north_branch, name="Biscuit")
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))
    return dog


def _issue(dog, clerk, **payment):
    return license_issue(animal=dog, owner=dog.owner, actor=clerk, on=TODAY, now=NOW, **payment)


def _receipt_text(receipt) -> str:
    return pdf_text(document_pdf(documents_for(receipt)["receipt"]))


def test_cash_tendered_is_on_the_receipt_with_the_change_due(dog, clerk):
    result = _issue(dog, clerk, method="cash", tendered=Decimal("40"))
    receipt = result.receipt
    assert receipt.amount_tendered == Decimal("40.00")
    assert receipt.change_due == receipt.amount_tendered - receipt.total
    text = _receipt_text(receipt)
    assert f"Cash tendered: $40.00 Change: ${receipt.change_due:.2f}" in text
    slip = pdf_text(document_pdf(documents_for(receipt)["receipt_80mm"]))
    assert "Cash tendered: $40.00" in slip


def test_less_cash_than_the_total_is_refused_at_the_field_and_uses_no_number(dog, clerk):
    with pytest.raises(Refused) as refused:
        _issue(dog, clerk, method="cash", tendered=Decimal("5.00"))
    check = refused.value.checks[0]
    assert check.field == "amount_tendered" and "less than the total" in check.message
    assert not Receipt.objects.exists()
    assert not NumberSeries.objects.filter(series="receipt", next_number__gt=1).exists()  # no gap


def test_a_check_payment_records_no_tendered_amount(dog, clerk):
    receipt = _issue(dog, clerk, method="check", reference="1041", tendered=Decimal("99")).receipt
    assert receipt.amount_tendered is None and receipt.change_due is None
    assert "Cash tendered" not in _receipt_text(receipt)


def test_the_database_refuses_rewriting_the_amount_tendered(dog, clerk):
    receipt = _issue(dog, clerk, method="cash", tendered=Decimal("40")).receipt
    with pytest.raises(IntegrityError), transaction.atomic():
        Receipt.objects.filter(pk=receipt.pk).update(amount_tendered=Decimal("100.00"))


def test_the_duplicate_tag_page_asks_for_cash_and_says_the_change(dog, clerk, client_as):
    license = _issue(dog, clerk, method="check", reference="1").license
    url = reverse("licensing:license_duplicate_tag", args=[license.pk])
    client = client_as(clerk)
    page = client.post(url, {"method": "cash"}).content.decode()
    assert "Enter the amount of cash handed over." in page
    page = client.post(url, {"method": "cash", "amount_tendered": "1.00"}).content.decode()
    assert "is less than the total" in page
    response = client.post(url, {"method": "cash", "amount_tendered": "10.00"}, follow=True)
    receipt = Receipt.objects.order_by("-number").first()
    assert "Cash tendered $10.00; change due" in response.content.decode()
    assert receipt.amount_tendered == Decimal("10.00")


def test_a_void_receipt_says_what_it_voids_and_that_the_money_was_refunded(dog, clerk, client):
    original = _issue(dog, clerk, method="cash", tendered=Decimal("40")).receipt
    void = receipt_void(receipt=original, actor=clerk, reason="Entered twice", now=NOW)
    text = _receipt_text(void)
    assert f"VOID receipt {void.number}" in text
    assert f"Receipt number {void.number} voids receipt {original.number}." in text
    assert "Reason: Entered twice" in text
    assert f"Total refunded ${original.total:.2f}" in text
    assert f"The amount of ${original.total:.2f} was refunded to {original.payer_name} (cash)" in (
        text
    )
    assert "Received from" not in text and "Paid by" not in text and "$-" not in text
    client.force_login(clerk)
    # The receipt page says the same, in words.
    page_html = client.get(reverse("licensing:receipt_detail", args=[void.pk])).content.decode()
    assert f"receipt {original.number}</a>: Entered twice" in page_html
    assert f"${original.total:.2f} refunded (cash)." in page_html
