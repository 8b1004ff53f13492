"""A clerk finds an issued receipt in the archive and re-prints it (notices app)."""

import pytest
from playwright.sync_api import expect

from tests.notices.conftest import receipt_context


@pytest.fixture
def archived_receipt(settings, tmp_path, north_branch, clerk):
    from notices.services import document_issue

    settings.MEDIA_ROOT = tmp_path / "media"
    return document_issue(
        kind="receipt",
        template="sample_receipt.html",
        context=receipt_context(),
        jurisdiction=north_branch,
        actor=clerk,
        title="Receipt",
        number="NB-2025-00042",
    )


def test_a_clerk_filters_the_archive_opens_a_document_and_reprints_it(
    page, login_as, assert_accessible, clerk, archived_receipt
):
    login_as(clerk)
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Documents").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Issued documents")
    assert_accessible()
    page.get_by_label("Number").fill("00042")
    page.get_by_role("button", name="Filter").click()
    page.get_by_role("link", name="Receipt", exact=True).click()
    expect(page.get_by_text(archived_receipt.sha256)).to_be_visible()
    assert_accessible()
    href = page.get_by_role("link", name="Re-print (archived PDF)").get_attribute("href")
    response = page.request.get(href)
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"
    assert response.body().startswith(b"%PDF-")
