"""Documents after commit: "Issue license" issues the receipt, the 80 mm slip and the
license certificate in its transaction (numbers, frozen data) and lays none of them out
in the request; the Celery worker lays them out after commit, once, or a print that
comes first lays the one printed out on the spot (REC-01, LIC-06, LIC-08).
"""

from datetime import date
from unittest import mock

import pytest
from django.urls import reverse

from licensing.models import License
from licensing.services.licenses import license_issue
from notices import services as notices_services
from notices.models import IssuedDocument
from notices.rendering import render_pdf
from notices.services import document_pdf, document_render
from notices.tasks import render_documents
from tests.licensing.factories import AnimalFactory, RabiesVaccinationFactory
from tests.licensing.license_factories import TagStockFactory
from tests.pdf import pdf_text

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-01-15T10:00")]
DEFERRED = {"receipt", "receipt_80mm", "license_certificate"}


@pytest.fixture
def dog(north_branch, clerk):
    TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2026, last_number=10)
    animal = AnimalFactory(jurisdiction=north_branch, name="Biscuit")
    RabiesVaccinationFactory(animal=animal, vaccinated_on=date(2025, 6, 1))
    return animal


@pytest.fixture
def renders():
    """The WeasyPrint layouts made through notices.services, by template."""
    with mock.patch.object(notices_services, "render_pdf", wraps=render_pdf) as spy:
        yield spy


def _templates(spy) -> list[str]:
    return [call.kwargs["template"] for call in spy.call_args_list]


def _issue_at_counter(client, dog):
    return client.post(
        reverse("licensing:counter_pay", args=[dog.pk]),
        {"method": "cash", "amount_tendered": "20.00"},
    )


def _by_kind() -> dict:
    return {d.kind: d for d in IssuedDocument.objects.all()}


def test_the_counter_issue_lays_out_nothing_in_the_request(
    client_as, clerk, dog, renders, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        resp = _issue_at_counter(client_as(clerk), dog)
    assert resp.status_code == 302
    assert _templates(renders) == []  # no WeasyPrint layout while the clerk waits
    docs = _by_kind()
    assert set(docs) == DEFERRED  # all three issued in the transaction
    assert all(docs[kind].is_pending and not docs[kind].file for kind in DEFERRED)
    assert docs["license_certificate"].number == License.objects.get().number
    assert docs["receipt"].number == docs["receipt_80mm"].number
    assert len(callbacks) == 1  # the worker's one task, queued after commit


def test_the_task_lays_out_the_three_once(clerk, dog, renders, django_capture_on_commit_callbacks):
    # Eager Celery in tests: running the commit callback runs the task, as the worker would.
    with django_capture_on_commit_callbacks(execute=True):
        license_issue(animal=dog, owner=dog.owner, actor=clerk, on=date(2026, 1, 15), method="card")
    assert sorted(_templates(renders)) == [
        "license_certificate.html",
        "receipt.html",
        "receipt_80mm.html",
    ]
    first = _by_kind()
    assert not any(d.is_pending for d in first.values())
    pks = [first[kind].pk for kind in DEFERRED]
    # A second run (a redelivered task, two workers) changes nothing.
    assert render_documents.delay(pks).get(disable_sync_subtasks=False) == []
    assert render_documents(pks) == []
    assert len(renders.call_args_list) == 3
    again = _by_kind()
    for kind in DEFERRED:
        assert again[kind].sha256 == first[kind].sha256
        assert again[kind].file.name == first[kind].file.name
        data = document_pdf(again[kind])
        # The very bytes a layout at issue would have archived: same snapshot, same PDF.
        direct = document_render(template=again[kind].template, snapshot=again[kind].snapshot)
        assert data == direct


def test_a_rolled_back_issue_queues_nothing(clerk, dog, django_capture_on_commit_callbacks):
    from django.db import transaction

    with django_capture_on_commit_callbacks() as callbacks, pytest.raises(RuntimeError):
        with transaction.atomic():
            license_issue(
                animal=dog, owner=dog.owner, actor=clerk, on=date(2026, 1, 15), method="card"
            )
            raise RuntimeError("the caller's transaction fails")
    assert callbacks == [] and not IssuedDocument.objects.exists()


def test_a_document_not_laid_out_yet_is_laid_out_at_its_first_print(
    client_as, clerk, dog, renders, django_capture_on_commit_callbacks
):
    client = client_as(clerk)
    with django_capture_on_commit_callbacks(execute=False):
        _issue_at_counter(client, dog)  # no worker has run
    certificate = _by_kind()["license_certificate"]
    assert certificate.is_pending
    resp = client.get(reverse("notices:document_pdf", args=[certificate.pk]))
    assert resp.status_code == 200 and resp["Content-Type"] == "application/pdf"
    assert "Biscuit" in pdf_text(resp.content)
    archived = IssuedDocument.objects.get(pk=certificate.pk)
    assert not archived.is_pending and archived.size == len(resp.content)
    # The worker arriving late finds it done; the next print is the archived copy.
    assert render_documents([certificate.pk]) == []
    again = client.get(reverse("notices:document_pdf", args=[certificate.pk]))
    assert again.content == resp.content
    assert _templates(renders).count("license_certificate.html") == 1


def test_the_confirmation_page_says_being_prepared_until_the_worker_is_done(
    client_as, clerk, dog, django_capture_on_commit_callbacks
):
    client = client_as(clerk)
    with django_capture_on_commit_callbacks(execute=False):
        resp = _issue_at_counter(client, dog)
    page = client.get(resp["Location"]).content.decode()
    assert "Receipt (PDF)" in page
    assert 'data-pending="license_certificate"' in page
    assert 'data-pending="receipt_80mm"' in page
    assert "being prepared" in page and 'hx-trigger="every 3s"' in page
    license = License.objects.get()
    detail = reverse("licensing:license_detail", args=[license.pk])
    assert 'data-pending="license_certificate"' in client.get(detail).content.decode()
    render_documents([d.pk for d in IssuedDocument.objects.filter(kind__in=DEFERRED)])
    page = client.get(resp["Location"]).content.decode()
    assert "License certificate (PDF)" in page and "80 mm" in page
    assert "being prepared" not in page and "hx-trigger" not in page
    assert "being prepared" not in client.get(detail).content.decode()


def test_the_confirmation_page_makes_bounded_queries(
    client_as, clerk, dog, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    client = client_as(clerk)
    with django_capture_on_commit_callbacks(execute=False):
        url = _issue_at_counter(client, dog)["Location"]
    client.get(url)  # warm the menu's cached rule read
    with django_assert_max_num_queries(10):
        assert client.get(url).status_code == 200


def test_a_bulk_load_under_rendering_deferred_queues_nothing(
    clerk, dog, renders, django_capture_on_commit_callbacks
):
    """demo_data issues two seasons under ``rendering_deferred``: everything is laid out
    at its first print, and no task is queued for the worker."""
    from notices.services import rendering_deferred

    with django_capture_on_commit_callbacks() as callbacks, rendering_deferred():
        license_issue(animal=dog, owner=dog.owner, actor=clerk, on=date(2026, 1, 15), method="card")
    assert callbacks == [] and renders.call_args_list == []
    assert all(d.is_pending for d in IssuedDocument.objects.all())


def test_a_layout_that_fails_at_first_print_says_so_and_keeps_the_record(
    client_as, clerk, dog, django_capture_on_commit_callbacks
):
    client = client_as(clerk)
    with django_capture_on_commit_callbacks(execute=False):
        _issue_at_counter(client, dog)
    certificate = _by_kind()["license_certificate"]
    broken = notices_services.DocumentRenderError("template missing")
    with mock.patch.object(notices_services, "render_pdf", side_effect=broken):
        resp = client.get(reverse("notices:document_pdf", args=[certificate.pk]))
    assert resp.status_code == 503
    assert "could not be prepared" in resp.content.decode()
    assert IssuedDocument.objects.get(pk=certificate.pk).is_pending  # nothing archived
    again = client.get(reverse("notices:document_pdf", args=[certificate.pk]))
    assert again.status_code == 200 and "Biscuit" in pdf_text(again.content)


def test_a_void_receipt_is_laid_out_by_the_worker_not_in_the_use_case(
    clerk, dog, renders, django_capture_on_commit_callbacks
):
    """Every sale's papers leave the use case the same way: here a void (REC-17)."""
    from licensing.models import Receipt
    from licensing.services.documents import documents_for
    from licensing.services.voids import receipt_void

    issued = license_issue(
        animal=dog, owner=dog.owner, actor=clerk, on=date(2026, 1, 15), method="card"
    )
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        void = receipt_void(receipt=issued.receipt, actor=clerk, reason="Entered twice")
    # (The original's papers are voided in the use case, each by a void notice.)
    papers = documents_for(void)
    assert set(papers) == {"receipt", "receipt_80mm"}
    assert all(paper.is_pending for paper in papers.values())
    assert len(callbacks) == 1
    before = len(renders.call_args_list)
    callbacks[0]()  # the worker, after commit (eager Celery)
    papers = documents_for(Receipt.objects.get(pk=void.pk))
    assert not any(paper.is_pending for paper in papers.values())
    assert sorted(_templates(renders)[before:]) == ["receipt.html", "receipt_80mm.html"]
    assert "Void" in pdf_text(document_pdf(papers["receipt"]))
