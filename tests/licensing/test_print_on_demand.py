"""Printing on demand: a receipt or licence made without documents (demo data) is issued
through notices the first time, then the archived copy is re-printed; a void receipt
voids its printed documents too (REC-01, LIC-06)."""

from datetime import date

import pytest
import time_machine
from django.urls import reverse

from licensing.services.licences import issue_documents, licence_issue, receipt_void
from notices.models import IssuedDocument
from tests.licensing.factories import AnimalFactory, RabiesVaccinationFactory
from tests.licensing.licence_factories import TagStockFactory
from tests.pdf import pdf_text

TODAY = "2026-01-15 10:00 -06:00"


def _pdf(response) -> str:
    return pdf_text(b"".join(response.streaming_content) if response.streaming
                    else response.content)


@pytest.fixture
def result(north_branch, clerk):
    TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2026, last_number=10)
    dog = AnimalFactory(jurisdiction=north_branch, name="Biscuit")
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))
    # As the demo loader does: issued through the service, no documents rendered.
    return licence_issue(animal=dog, owner=dog.owner, actor=clerk, on=date(2026, 1, 15),
                         method="cash")


@time_machine.travel(TODAY, tick=False)
def test_a_receipt_without_documents_is_printed_once_then_reprinted(client_as, clerk, result):
    client = client_as(clerk)
    receipt = result.receipt
    page = client.get(reverse("licensing:receipt_detail", args=[receipt.pk])).content.decode()
    assert "Print receipt" in page and "Receipt (PDF)" not in page
    url = reverse("licensing:receipt_print", args=[receipt.pk])
    first = client.post(url, {"kind": "receipt"})
    assert IssuedDocument.objects.filter(kind__in=["receipt", "receipt_80mm"]).count() == 2
    document = IssuedDocument.objects.get(kind="receipt")
    assert first["Location"] == reverse("notices:document_pdf", args=[document.pk])
    assert str(receipt.number) in _pdf(client.get(first["Location"]))
    again = client.post(url, {"kind": "receipt"})
    assert again["Location"] == first["Location"]
    assert IssuedDocument.objects.count() == 2
    slip = client.post(url, {"kind": "receipt_80mm"})
    assert slip["Location"] == reverse("notices:document_pdf", args=[
        IssuedDocument.objects.get(kind="receipt_80mm").pk])
    page = client.get(reverse("licensing:receipt_detail", args=[receipt.pk])).content.decode()
    assert "Print receipt" not in page and "Receipt (PDF)" in page


@time_machine.travel(TODAY, tick=False)
def test_a_licence_certificate_is_printed_once(client_as, clerk, result):
    client = client_as(clerk)
    licence = result.licence
    page = client.get(licence.get_absolute_url()).content.decode()
    assert "Print licence certificate" in page
    url = reverse("licensing:licence_print", args=[licence.pk])
    first = client.post(url)
    assert client.post(url)["Location"] == first["Location"]
    certificate = IssuedDocument.objects.get(kind="licence_certificate")
    assert "Biscuit" in _pdf(client.get(first["Location"]))
    assert certificate.subject == licence
    page = client.get(licence.get_absolute_url()).content.decode()
    assert "Print licence certificate" not in page


def test_printing_needs_the_counter_role_and_the_city(client_as, officer, glencoe_clerk, result):
    url = reverse("licensing:receipt_print", args=[result.receipt.pk])
    assert client_as(officer).post(url).status_code == 403
    assert client_as(glencoe_clerk).post(url).status_code == 404
    assert client_as(glencoe_clerk).post(
        reverse("licensing:licence_print", args=[result.licence.pk])).status_code == 404
    assert not IssuedDocument.objects.exists()


@time_machine.travel(TODAY, tick=False)
def test_voiding_a_receipt_voids_its_printed_documents(clerk, result):
    issue_documents(result, actor=clerk)
    originals = list(IssuedDocument.objects.all())
    assert {d.kind for d in originals} == {"receipt", "receipt_80mm", "licence_certificate"}
    void = receipt_void(receipt=result.receipt, actor=clerk, reason="Cheque bounced")
    voided = {d.voids_id for d in IssuedDocument.objects.filter(voids__isnull=False)}
    assert voided == {d.pk for d in originals}
    assert void.voids == result.receipt


@time_machine.travel(TODAY, tick=False)
def test_voiding_a_receipt_never_printed_voids_no_document(clerk, result):
    receipt_void(receipt=result.receipt, actor=clerk, reason="Entered twice")
    assert not IssuedDocument.objects.exists()
