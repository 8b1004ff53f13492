"""Issuing, re-printing, re-rendering and voiding documents, with real WeasyPrint."""

import hashlib
from pathlib import Path

import pytest
from django.db import transaction

from kernel.kept import RecordKept
from notices.models import IssuedDocument
from notices.services import (
    DocumentIntegrityError,
    document_pdf,
    document_render,
    document_void,
)
from ordinance.models import Event
from ordinance.refusals import Refused
from tests.licensing.factories import AnimalFactory
from tests.notices.conftest import ISSUED_AT, receipt_context
from tests.pdf import pdf_page_sizes_mm, pdf_text

pytestmark = pytest.mark.django_db


def test_issuing_archives_the_pdf_with_its_hash(issue, archive_dir, clerk, north_branch):
    doc = issue()
    path = Path(doc.file.path)
    assert path.is_file() and path.is_relative_to(archive_dir)
    data = path.read_bytes()
    assert data.startswith(b"%PDF-")
    assert doc.sha256 == hashlib.sha256(data).hexdigest()
    assert doc.size == len(data)
    assert (doc.issued_at, doc.issued_by, doc.jurisdiction) == (ISSUED_AT, clerk, north_branch)
    assert (doc.kind, doc.number, doc.title) == ("receipt", "NB-2025-00017", "Receipt")
    assert doc.page_size == "receipt"  # sample_receipt.html extends base_receipt.html


def test_the_pdf_prints_the_fields_city_and_footer(issue):
    text = pdf_text(document_pdf(issue()))
    for expected in [
        "City of North Branch",
        "City of North Branch · Chisago County · Minnesota",
        "Rita Resident",
        "Dog license, Rex",
        "$30.00",
        "North Branch Sec. 6-61",
        "Duplicate tag",
        "$15.00",
        "Total $45.00",
        "Paid by cash",
        "No. NB-2025-00017",
        # Issued time in Minnesota time, not UTC.
        "Issued Mar 3, 2025, 9:30 a.m. by Carol Clerk",
    ]:
        assert expected in text, expected


def test_a_receipt_is_80_mm_wide_and_cut_to_its_content(issue):
    ((width, height),) = pdf_page_sizes_mm(document_pdf(issue()))
    assert width == 80.0
    assert 40 < height < 200


def test_a_long_receipt_grows_instead_of_breaking_onto_a_second_page(issue):
    context = receipt_context()
    context["lines"] = context["lines"] * 20
    short = pdf_page_sizes_mm(document_pdf(issue()))
    long = pdf_page_sizes_mm(document_pdf(issue(context=context)))
    assert len(long) == 1 and long[0][1] > short[0][1] + 100


def test_a_letter_document_is_letter_size_with_page_numbers(issue, north_branch):
    doc = issue(
        kind="notice",
        template="sample_notice.html",
        title="Notice of impounding",
        number="IMP-3",
        context={
            "recipient": {"name": "Rita Resident", "address_lines": ["12 Elm St"]},
            "served_on": ISSUED_AT.date(),
            "paragraphs": ["Your dog Rex was impounded."],
            "deadline": {
                "date": ISSUED_AT.date(),
                "what": "Redeem by",
                "citation": "North Branch Sec. 6-68",
            },
            "facts": [{"label": "Animal", "value": "Rex, black Labrador"}],
        },
    )
    data = document_pdf(doc)
    assert doc.page_size == "letter"
    assert pdf_page_sizes_mm(data) == [(215.9, 279.4)]
    text = pdf_text(data)
    for expected in [
        "NOTICE OF IMPOUNDING",
        "Your dog Rex was impounded.",
        "Redeem by: Mon, Mar 3, 2025",
        "(North Branch Sec. 6-68)",
        "Animal Rex, black Labrador",
        "Page 1 of 1",
        "No. IMP-3",
    ]:
        assert expected in text, expected


def test_reprint_returns_the_identical_archived_bytes(issue):
    doc = issue()
    first = document_pdf(doc)
    again = document_pdf(IssuedDocument.objects.get(pk=doc.pk))
    assert again == first
    assert hashlib.sha256(again).hexdigest() == doc.sha256


def test_rerendering_the_stored_snapshot_gives_the_same_text(issue):
    doc = IssuedDocument.objects.get(pk=issue().pk)  # the snapshot as stored in the database
    rerendered = document_render(template=doc.template, snapshot=doc.snapshot)
    assert pdf_text(rerendered) == pdf_text(document_pdf(doc))


def test_the_document_prints_the_city_as_it_was_not_as_it_is(issue, north_branch):
    doc = issue()
    north_branch.name = "City of North Branch (renamed)"
    north_branch.save()
    doc = IssuedDocument.objects.get(pk=doc.pk)
    text = pdf_text(document_render(template=doc.template, snapshot=doc.snapshot))
    assert "City of North Branch" in text and "renamed" not in text


def test_a_receipt_template_can_be_printed_on_letter_and_a_notice_on_a_roll(issue):
    doc = issue()
    as_letter = document_render(template=doc.template, snapshot=doc.snapshot, page_size="letter")
    assert pdf_page_sizes_mm(as_letter) == [(215.9, 279.4)]
    assert "Total $45.00" in pdf_text(as_letter)
    notice = document_render(
        template="sample_notice.html", snapshot=doc.snapshot, page_size="receipt"
    )
    assert pdf_page_sizes_mm(notice)[0][0] == 80.0
    assert "No. NB-2025-00017" in pdf_text(notice)


def test_a_tampered_archive_is_refused(issue):
    doc = issue()
    data = bytearray(document_pdf(doc))
    data[len(data) // 2] ^= 0xFF  # one flipped byte anywhere in the file
    Path(doc.file.path).write_bytes(bytes(data))
    with pytest.raises(DocumentIntegrityError):
        document_pdf(doc)


def test_issuing_records_an_event(issue, clerk):
    doc = issue()
    event = Event.objects.for_object(doc).get()
    assert event.action == "notices.document.issued"
    assert event.actor == clerk and event.jurisdiction_id == doc.jurisdiction_id
    assert event.data["sha256"] == doc.sha256 and event.at == ISSUED_AT


def test_the_subject_is_a_generic_relation(issue, north_branch):
    animal = AnimalFactory(jurisdiction=north_branch)
    doc = issue(subject=animal)
    assert IssuedDocument.objects.get(pk=doc.pk).subject == animal


def test_staff_of_another_city_may_not_issue_for_it(issue, glencoe_clerk):
    with pytest.raises(Refused, match="You do not serve"):
        issue(actor=glencoe_clerk)
    assert not IssuedDocument.objects.exists()


def test_a_resident_may_issue_only_their_own_document(issue, resident, other_resident):
    assert issue(actor=resident, owner_user=resident).owner_user == resident
    with pytest.raises(Refused, match="You may not issue documents"):
        issue(actor=resident, owner_user=other_resident)


def test_a_scheduled_job_issues_with_no_actor(issue):
    doc = issue(actor=None)
    assert doc.issued_by is None
    assert "Issued Mar 3, 2025, 9:30 a.m." in pdf_text(document_pdf(doc))


@pytest.mark.parametrize(
    "bad",
    [
        {"context": {"jurisdiction": "mine"}},
        {"context": {"when": object()}},
        {"kind": "Not A Slug"},
        {"template": "../settings.py"},
        {"template": "/etc/passwd"},
    ],
)
def test_bad_input_is_refused_and_nothing_is_archived(issue, bad, archive_dir):
    with pytest.raises((ValueError, TypeError, RuntimeError)):
        issue(**bad)
    assert not IssuedDocument.objects.exists()


# --- never deleted, never changed ---------------------------------------------------


def test_delete_refuses(issue):
    doc = issue()
    with pytest.raises(RecordKept, match="never deleted. Void them instead."):
        doc.delete()
    with pytest.raises(RecordKept):
        IssuedDocument.objects.filter(pk=doc.pk).delete()
    with pytest.raises(RecordKept):
        IssuedDocument.objects.all().delete()
    assert IssuedDocument.objects.filter(pk=doc.pk).exists()
    assert Path(doc.file.path).is_file()


def test_changing_an_issued_document_refuses(issue):
    doc = issue()
    doc.title = "Something else"
    with pytest.raises(RecordKept, match="never changed"):
        doc.save()
    with pytest.raises(RecordKept):
        IssuedDocument.objects.filter(pk=doc.pk).update(title="Something else")
    # bulk_update runs inside its own atomic block without a savepoint: give it one.
    with pytest.raises(RecordKept), transaction.atomic():
        IssuedDocument.objects.bulk_update([doc], ["title"])
    assert IssuedDocument.objects.get(pk=doc.pk).title == "Receipt"


def test_deleting_the_city_or_issuer_is_blocked_by_the_archive(issue, clerk, north_branch):
    from django.db.models import ProtectedError

    issue()
    with pytest.raises(ProtectedError):
        clerk.delete()
    with pytest.raises(ProtectedError):
        north_branch.delete()


# --- void -------------------------------------------------------------------------


def test_void_creates_a_new_record_and_leaves_the_original_intact(issue, administrator):
    original = issue()
    before = (original.sha256, document_pdf(original), original.snapshot)
    void = document_void(document=original, actor=administrator, reason="Keyed the wrong dog")
    original = IssuedDocument.objects.get(pk=original.pk)
    assert void.pk != original.pk and void.voids == original
    assert (original.sha256, document_pdf(original), original.snapshot) == before
    assert original.is_voided and not original.is_void_record
    assert void.is_void_record and void.void_reason == "Keyed the wrong dog"
    assert (void.kind, void.number, void.jurisdiction) == (
        "receipt",
        "NB-2025-00017",
        original.jurisdiction,
    )
    text = pdf_text(document_pdf(void))
    for expected in [
        "VOID",
        "Keyed the wrong dog",
        "NB-2025-00017",
        original.sha256,
        "Originally issued Mar 3, 2025, 9:30 a.m. by Carol Clerk",
    ]:
        assert expected in text, expected
    assert Event.objects.for_object(original).filter(action="notices.document.voided").exists()


def test_a_document_is_voided_only_once_and_a_void_is_not_voided(issue, administrator):
    original = issue()
    void = document_void(document=original, actor=administrator, reason="Duplicate")
    with pytest.raises(ValueError, match="already void"):
        document_void(document=original, actor=administrator, reason="Again")
    with pytest.raises(ValueError, match="cannot itself be voided"):
        document_void(document=void, actor=administrator, reason="Undo")
    assert IssuedDocument.objects.count() == 2


def test_a_void_needs_a_reason(issue, administrator):
    with pytest.raises(ValueError):
        document_void(document=issue(), actor=administrator, reason="   ")


def test_the_void_keeps_the_resident_who_may_download_it(issue, administrator, resident):
    original = issue(owner_user=resident)
    void = document_void(document=original, actor=administrator, reason="Refunded")
    assert void.owner_user == resident


def test_issuing_the_same_snapshot_twice_archives_identical_pdfs(issue):
    # WeasyPrint output is deterministic for a snapshot, so a re-render check can also
    # compare bytes when fonts and WeasyPrint are unchanged.
    first, second = issue(), issue()
    assert document_pdf(first) == document_pdf(second)
    assert first.file.name != second.file.name


def test_a_decision_is_never_deleted_or_changed(north_branch, clerk):
    from notices.models import Decision, DecisionOutcome

    decision = Decision.objects.create(
        jurisdiction=north_branch,
        subject=AnimalFactory(jurisdiction=north_branch),
        kind="adoption",
        outcome=DecisionOutcome.APPROVED,
        decided_by_name="Pat Poundkeeper",
        decided_by_capacity="Poundkeeper",
        decided_on=ISSUED_AT.date(),
        reasons="A suitable home.",
        citation="North Branch Sec. 6-69",
        recorded_by=clerk,
    )
    with pytest.raises(RecordKept, match="Decisions are kept; they are never deleted."):
        decision.delete()
    with pytest.raises(RecordKept):
        Decision.objects.all().delete()
    decision.reasons = "Another reason."
    with pytest.raises(RecordKept, match="record a new decision that reviews it"):
        decision.save()
