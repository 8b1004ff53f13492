"""The renderer: offline only, page sizes, and every document template really renders."""

from pathlib import Path

import pytest
from django.conf import settings

from notices.rendering import DocumentRenderError, LocalOnlyFetcher, html_to_pdf
from notices.services import document_render, snapshot
from tests.notices.conftest import ISSUED_AT, receipt_context
from tests.pdf import pdf_page_sizes_mm, pdf_text

BASE = snapshot(
    {
        "jurisdiction": {
            "name": "City of Glencoe",
            "short_name": "Glencoe",
            "seal_text": "City of Glencoe · McLeod County · Minnesota",
            "address": "1107 11th Street East",
            "phone": "(320) 555-0100",
        },
        "document": {
            "kind": "sample",
            "number": "GL-9",
            "title": "Sample",
            "issued_at": ISSUED_AT,
            "issued_by": {"name": "Gus Glencoe", "title": "City Clerk"},
        },
    }
)


def page(html_body):
    return f"<html><body><p>text</p>{html_body}</body></html>"


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com/seal.png",
        "https://example.com/x.css",
        "ftp://example.com/x",
        "file:///etc/passwd",
        f"file://{settings.BASE_DIR}/config/settings.py",
        f"file://{settings.BASE_DIR}/static/../config/settings.py",
    ],
)
def test_the_fetcher_refuses_the_network_and_files_outside_static(url):
    with pytest.raises(ValueError):
        LocalOnlyFetcher().fetch(url)


def test_the_fetcher_allows_static_files_and_data_uris():
    css = Path(settings.BASE_DIR, "static", "css", "print.css")
    assert LocalOnlyFetcher().fetch(css.as_uri()).read() == css.read_bytes()
    assert LocalOnlyFetcher().fetch("data:text/plain,hello").read() == b"hello"


def test_a_document_that_references_the_network_is_not_rendered():
    with pytest.raises(DocumentRenderError):
        html_to_pdf(page('<img src="http://example.com/seal.png" alt="seal">'), "letter")
    with pytest.raises(DocumentRenderError):
        html_to_pdf(page('<link rel="stylesheet" href="https://example.com/x.css">'), "letter")


def test_a_static_image_and_a_data_uri_render():
    # A 1x1 transparent PNG.
    png = (
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4"
        "nGNgYGBgAAAABQABh6FO1AAAAABJRU5ErkJggg=="
    )
    data = html_to_pdf(
        page(f'<img src="{png}" alt=""><link rel="stylesheet" href="css/print.css">'), "letter"
    )
    assert pdf_text(data) == "text"


def test_the_void_notice_renders_its_fields():
    snap = {
        **BASE,
        **snapshot(
            {
                "original": {
                    "title": "Receipt",
                    "number": "GL-9",
                    "issued_at": ISSUED_AT,
                    "issued_by": {"name": "Gus Glencoe", "title": ""},
                    "pk": 12,
                    "sha256": "ab" * 32,
                },
                "reason": "Entered twice",
            }
        ),
    }
    text = pdf_text(document_render(template="void_notice.html", snapshot=snap))
    for expected in [
        "City of Glencoe",
        "VOID",
        "Entered twice",
        "#12",
        "ab" * 32,
        "Originally issued Mar 3, 2025, 9:30 a.m. by Gus Glencoe",
    ]:
        assert expected in text, expected


def test_the_sample_receipt_renders_every_line_with_its_citation():
    snap = {**BASE, **snapshot(receipt_context())}
    data = document_render(template="sample_receipt.html", snapshot=snap)
    text = pdf_text(data)
    assert "Dog license, Rex North Branch Sec. 6-61 $30.00" in text
    assert "Duplicate tag North Branch Sec. 6-63 $15.00" in text
    assert "Issued Mar 3, 2025, 9:30 a.m. by Gus Glencoe, City Clerk" in text
    assert pdf_page_sizes_mm(data)[0][0] == 80.0


def test_unknown_page_size_and_missing_template_are_refused():
    with pytest.raises((DocumentRenderError, ValueError)):
        document_render(template="sample_receipt.html", snapshot=BASE, page_size="a4")
    from django.template import TemplateDoesNotExist

    with pytest.raises(TemplateDoesNotExist):
        document_render(template="no_such_document.html", snapshot=BASE)
