"""Every use case issues its own documents, in its own transaction, so no caller can
leave a record without them: license issue, transfer, duplicate tag, receipt void, kennel
fee, issue and transfer (REC-01, LIC-06, LIC-08, LIC-10, LIC-12, REC-17, KEN-07). Each
document is read back from its archived PDF.
"""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import transaction

from licensing.models import KennelDecision, Receipt
from licensing.services.documents import documents_for
from licensing.services.kennels.applications import (
    KennelRequest,
    kennel_apply,
    kennel_decision_record,
    kennel_premises_for,
    step_progress,
)
from licensing.services.kennels.common import DecidedBy
from licensing.services.kennels.issuance import kennel_issue
from licensing.services.kennels.transfers import kennel_transfer
from licensing.services.licenses import license_issue, license_transfer
from licensing.services.tags import tag_replace_lost
from licensing.services.voids import receipt_void
from notices.models import IssuedDocument
from notices.services import document_pdf, rendering_deferred
from tests.licensing.factories import AnimalFactory, OwnerFactory, RabiesVaccinationFactory
from tests.licensing.license_factories import TagStockFactory
from tests.pdf import pdf_text

CHICAGO = ZoneInfo("America/Chicago")
NOW = datetime(2026, 1, 15, 10, tzinfo=CHICAGO)
TODAY = NOW.date()

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def frozen_now():
    with time_machine.travel(NOW, tick=False):
        yield


def _text(document) -> str:
    return pdf_text(document_pdf(document))


@pytest.fixture
def issued(north_branch, clerk):
    TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2026, last_number=10)
    dog = AnimalFactory(jurisdiction=north_branch, name="Biscuit")
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))
    return license_issue(animal=dog, owner=dog.owner, actor=clerk, on=TODAY, method="cash")


def test_issuing_a_license_leaves_receipt_slip_and_certificate(issued):
    receipt_docs = documents_for(issued.receipt)
    assert set(receipt_docs) == {"receipt", "receipt_80mm"}
    for document in receipt_docs.values():
        assert document.number == str(issued.receipt.number)
        assert str(issued.receipt.number) in _text(document)
    slip = _text(receipt_docs["receipt_80mm"])
    assert str(issued.tag.number) in slip  # LIC-08: the tag handed over with the receipt
    certificate = documents_for(issued.license)["license_certificate"]
    assert certificate.number == issued.license.number
    text = _text(certificate)
    assert issued.license.number in text and "Biscuit" in text
    assert "North Branch Sec. 6-62" in text  # LIC-07: the expiry with its section
    # Every one archived with its hash: the receipt at issue, the slip and certificate by
    # the worker after commit or, as here with no worker, at their first print (above).
    assert all(d.sha256 and d.size for d in IssuedDocument.objects.all())


def test_a_refused_issue_leaves_no_document(north_branch, clerk):
    dog = AnimalFactory(jurisdiction=north_branch, name="Unvaccinated")
    with pytest.raises(Exception, match="vaccination"):
        license_issue(animal=dog, owner=dog.owner, actor=clerk, on=TODAY, method="cash")
    assert not IssuedDocument.objects.exists()


def test_documents_roll_back_with_the_use_case(north_branch, clerk):
    TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2026, last_number=10)
    dog = AnimalFactory(jurisdiction=north_branch)
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))
    with pytest.raises(RuntimeError), transaction.atomic():
        license_issue(animal=dog, owner=dog.owner, actor=clerk, on=TODAY, method="cash")
        raise RuntimeError("the caller's transaction fails after the issue")
    assert not IssuedDocument.objects.exists() and not Receipt.objects.exists()


def test_a_transfer_leaves_the_new_owners_receipt_and_certificate(issued, clerk):
    new_owner = OwnerFactory(
        jurisdiction=issued.license.jurisdiction, first_name="Marit", last_name="Engstrom"
    )
    result = license_transfer(
        license=issued.license, new_owner=new_owner, actor=clerk, on=TODAY, method="card"
    )  # LIC-12
    receipt = documents_for(result.receipt)["receipt"]
    assert receipt.number == str(result.receipt.number) and "Marit Engstrom" in _text(receipt)
    certificate = documents_for(result.license)["license_certificate"]
    assert "Marit Engstrom" in _text(certificate)


def test_a_duplicate_tag_leaves_a_receipt_and_a_certificate_with_the_new_tag(issued, clerk):
    result = tag_replace_lost(
        license=issued.license, actor=clerk, on=TODAY, method="cash"
    )  # LIC-10
    assert result.tag.number != issued.tag.number
    slip = documents_for(result.receipt)["receipt_80mm"]
    assert str(result.tag.number) in _text(slip)
    certificate = documents_for(result.license)["license_certificate"]
    assert f"{result.tag.number}" in _text(certificate)


def test_voiding_a_receipt_voids_its_documents_and_prints_the_void_receipt(issued, clerk):
    originals = list(IssuedDocument.objects.all())
    assert {d.kind for d in originals} == {"receipt", "receipt_80mm", "license_certificate"}
    void = receipt_void(receipt=issued.receipt, actor=clerk, reason="Check bounced")
    voided = {d.voids_id for d in IssuedDocument.objects.filter(voids__isnull=False)}
    assert voided == {d.pk for d in originals}  # REC-01: the originals no longer stand
    printed = documents_for(void)
    assert set(printed) == {"receipt", "receipt_80mm"}
    text = _text(printed["receipt"])
    assert str(void.number) in text and str(issued.receipt.number) in text


def _approved_kennel(jurisdiction, clerk):
    owner = OwnerFactory(jurisdiction=jurisdiction, first_name="Kari", last_name="Kennel")
    kennel = kennel_apply(
        owner=owner,
        premises=kennel_premises_for(owner),
        actor=clerk,
        application=KennelRequest(
            business_nature="Breeding and boarding",
            dog_count=6,
            cat_count=0,
            cup_reference="CUP-2026-04",
        ),
        on=TODAY,
    )
    for step, _decision in step_progress(kennel, on=TODAY):
        kennel_decision_record(
            kennel=kennel,
            step=step,
            outcome=KennelDecision.Outcome.APPROVED,
            decided=DecidedBy(
                name="Jane Roe",
                capacity="City Council",
                on=TODAY,
                reasons="Meets the requirements.",
            ),
            actor=clerk,
            conditions="",
        )
    kennel.refresh_from_db()
    return kennel


def test_issuing_a_kennel_license_leaves_its_pdf_and_the_fee_receipt(north_branch, clerk):
    kennel = _approved_kennel(north_branch, clerk)
    kennel_issue(kennel=kennel, actor=clerk, now=NOW, method="cash")
    kennel.refresh_from_db()
    document = documents_for(kennel)["kennel_license"]
    assert document.number == kennel.number and kennel.number in _text(document)
    receipt = documents_for(kennel.receipt)["receipt"]
    assert str(kennel.receipt.number) in _text(receipt)


def test_a_kennel_transfer_leaves_a_receipt_and_the_license_in_the_new_name(north_branch, clerk):
    kennel = _approved_kennel(north_branch, clerk)
    kennel_issue(kennel=kennel, actor=clerk, now=NOW, method="cash")
    new_owner = OwnerFactory(jurisdiction=north_branch, first_name="Marit", last_name="Engstrom")
    receipt = kennel_transfer(
        kennel=kennel, new_owner=new_owner, actor=clerk, on=TODAY, method="cash", now=NOW
    )
    assert "Marit Engstrom" in _text(documents_for(receipt)["receipt"])
    assert "Marit Engstrom" in _text(documents_for(kennel)["kennel_license"])


def test_rendering_deferred_issues_now_and_lays_out_once_at_first_print(north_branch, clerk):
    """The seam demo_data uses: the document and its frozen data exist at issue; the PDF
    is laid out from that snapshot at the first print and then archived with its hash."""
    TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2026, last_number=10)
    dog = AnimalFactory(jurisdiction=north_branch, name="Deferred")
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))
    with rendering_deferred():
        result = license_issue(animal=dog, owner=dog.owner, actor=clerk, on=TODAY, method="cash")
    certificate = documents_for(result.license)["license_certificate"]
    assert certificate.sha256 == "" and not certificate.file
    data = document_pdf(certificate)
    assert "Deferred" in pdf_text(data)
    archived = IssuedDocument.objects.get(pk=certificate.pk)
    assert archived.sha256 and archived.size == len(data)
    assert document_pdf(archived) == data  # printed again: the archived copy
