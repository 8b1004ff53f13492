"""The archive views: who may see and re-print what, filters, and bounded queries."""

import datetime as dt
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from notices.models import IssuedDocument
from notices.services import document_pdf, document_void
from tests.notices.conftest import ISSUED_AT

pytestmark = pytest.mark.django_db


def pdf_url(doc):
    return reverse("notices:document_pdf", args=[doc.pk])


def detail_url(doc):
    return reverse("notices:document_detail", args=[doc.pk])


LIST = "/documents/"


def test_staff_of_the_city_get_the_archived_pdf_inline(
    issue, client_as, clerk, officer, administrator
):
    doc = issue()
    for user in (clerk, officer, administrator):
        response = client_as(user).get(pdf_url(doc))
        assert response.status_code == 200
        assert response["Content-Type"] == "application/pdf"
        assert response["Content-Disposition"] == 'inline; filename="receipt-NB-2025-00017.pdf"'
        assert response.content == document_pdf(doc)


def test_staff_of_another_city_get_404(issue, client_as, glencoe_clerk):
    doc = issue()
    client = client_as(glencoe_clerk)
    assert client.get(pdf_url(doc)).status_code == 404
    assert client.get(detail_url(doc)).status_code == 404


def test_the_resident_it_was_issued_to_may_download_it(issue, client_as, resident):
    doc = issue(owner_user=resident)
    client = client_as(resident)
    response = client.get(pdf_url(doc))
    assert response.status_code == 200 and response.content == document_pdf(doc)
    assert client.get(detail_url(doc)).status_code == 200


def test_another_resident_gets_404(issue, client_as, resident, other_resident):
    doc = issue(owner_user=resident)
    unowned = issue(number="NB-2025-00018")
    client = client_as(other_resident)
    assert client.get(pdf_url(doc)).status_code == 404
    assert client.get(detail_url(doc)).status_code == 404
    client = client_as(resident)
    assert client.get(pdf_url(unowned)).status_code == 404


def test_wrong_roles_get_403_before_any_lookup(issue, client_as, resident, cities):
    doc = issue(owner_user=resident)
    assert client_as(resident).get(LIST).status_code == 403
    nobody = get_user_model().objects.create_user("norole", password="pw-norole")
    client = client_as(nobody)
    for url in (LIST, pdf_url(doc), detail_url(doc), "/documents/999999/pdf/"):
        assert client.get(url).status_code == 403, url


def test_anonymous_is_sent_to_log_in(issue, client):
    doc = issue()
    response = client.get(pdf_url(doc))
    assert response.status_code == 302 and "/login/" in response.url


def test_a_tampered_archive_is_not_served(issue, client_as, clerk):
    doc = issue()
    Path(doc.file.path).write_bytes(b"%PDF-1.7 something else")
    response = client_as(clerk).get(pdf_url(doc))
    assert response.status_code == 500
    assert b"no longer matches" in response.content


def test_the_detail_page_shows_when_who_hash_and_reprint(issue, client_as, clerk):
    doc = issue()
    response = client_as(clerk).get(detail_url(doc))
    html = response.content.decode()
    assert response.status_code == 200
    assert doc.sha256 in html and "Carol Clerk" in html
    assert "Mar 3, 2025, 9:30 a.m." in html
    assert f'href="{pdf_url(doc)}"' in html and "Re-print" in html


def test_the_detail_page_of_a_voided_document_says_so(issue, client_as, administrator):
    doc = issue()
    void = document_void(document=doc, actor=administrator, reason="Wrong owner")
    client = client_as(administrator)
    html = client.get(detail_url(doc)).content.decode()
    assert "was voided" in html and "Wrong owner" in html and detail_url(void) in html
    html = client.get(detail_url(void)).content.decode()
    assert "This record voids" in html and detail_url(doc) in html


def test_the_list_shows_only_the_users_cities(issue, client_as, clerk, glencoe_clerk, glencoe):
    nb = issue(number="NB-1")
    gl = issue(number="GL-1", jurisdiction=glencoe, actor=glencoe_clerk)
    html = client_as(clerk).get(LIST).content.decode()
    assert "NB-1" in html and "GL-1" not in html
    assert detail_url(nb) in html and detail_url(gl) not in html
    # A one-city clerk sees no city column or city filter.
    assert 'name="jurisdiction"' not in html


def test_the_list_filters_by_kind_number_date_and_city(issue, client_as, officer, glencoe):
    issue(number="NB-1")
    issue(
        number="NB-2",
        kind="notice",
        template="sample_notice.html",
        title="Notice",
        context={},
        now=ISSUED_AT + dt.timedelta(days=2),
    )
    issue(number="GL-1", jurisdiction=glencoe, actor=officer)
    client = client_as(officer)

    def numbers(**params):
        page = client.get(LIST, params).context["page"]
        return sorted(d.number for d in page.object_list)

    assert numbers() == ["GL-1", "NB-1", "NB-2"]
    assert numbers(kind="notice") == ["NB-2"]
    assert numbers(number="nb-") == ["NB-1", "NB-2"]
    assert numbers(issued_from="2025-03-04") == ["NB-2"]
    assert numbers(issued_to="2025-03-03") == ["GL-1", "NB-1"]
    assert numbers(jurisdiction=glencoe.pk) == ["GL-1"]


@pytest.mark.parametrize(
    "params",
    [
        {"issued_from": "not-a-date"},
        {"kind": "no-such-kind"},
        {"jurisdiction": "abc"},
        {"page": "999"},
        {"page": "x"},
        {"number": "\x00"},
    ],
)
def test_bad_filter_input_never_gives_a_500(issue, client_as, officer, params):
    issue()
    response = client_as(officer).get(LIST, params)
    assert response.status_code == 200


def test_the_list_is_paginated_with_a_bounded_number_of_queries(
    issue, client_as, administrator, glencoe, django_assert_max_num_queries
):
    template = issue()
    rows = []
    for n in range(300):
        rows.append(
            IssuedDocument(
                kind=template.kind,
                number=f"NB-{n:05d}",
                title="Receipt",
                template=template.template,
                page_size=template.page_size,
                snapshot=template.snapshot,
                file=template.file.name,
                sha256=template.sha256,
                size=template.size,
                issued_at=ISSUED_AT + dt.timedelta(minutes=n),
                issued_by=administrator,
                jurisdiction=glencoe if n % 2 else template.jurisdiction,
            )
        )
    IssuedDocument.objects.bulk_create(rows)
    document_void(document=template, actor=administrator, reason="Test")
    client = client_as(administrator)
    with django_assert_max_num_queries(12):
        response = client.get(LIST, {"page": "2"})
    assert response.status_code == 200
    page = response.context["page"]
    assert page.paginator.count == 302 and len(page.object_list) == 25
    with django_assert_max_num_queries(12):
        assert client.get(LIST, {"page": "13", "kind": "receipt"}).status_code == 200


def test_staff_see_the_documents_entry_in_the_navigation(client_as, clerk, resident):
    assert b'href="/documents/"' in client_as(clerk).get("/", follow=True).content
    assert b'href="/documents/"' not in client_as(resident).get("/", follow=True).content


def test_admin_is_read_only(issue, client_as, administrator):
    doc = issue()
    client = client_as(administrator)
    assert client.get("/admin/notices/issueddocument/").status_code == 200
    change = client.get(f"/admin/notices/issueddocument/{doc.pk}/change/")
    assert change.status_code == 200 and b'name="_save"' not in change.content
    assert client.get("/admin/notices/issueddocument/add/").status_code == 403
    assert (
        client.post(f"/admin/notices/issueddocument/{doc.pk}/delete/", {"post": "yes"}).status_code
        == 403
    )
    assert IssuedDocument.objects.filter(pk=doc.pk).exists()


def test_admin_shows_an_archived_document_through_the_app_not_the_storage(
    issue, client_as, administrator
):
    """Admin links the PDF to the view that checks who may see it, never to the storage
    (a MEDIA_URL address, or a signed bucket address with files on S3)."""
    doc = issue()
    html = client_as(administrator).get(f"/admin/notices/issueddocument/{doc.pk}/change/")
    html = html.content.decode()
    assert f'<a href="{pdf_url(doc)}">receipt-NB-2025-00017.pdf</a>' in html
    assert doc.file.name not in html and doc.file.url not in html
