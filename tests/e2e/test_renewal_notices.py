"""A clerk prints renewal notices from the expiring-licenses report:
the notices PDF downloads, and the report then says when each notice was printed."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.urls import reverse
from playwright.sync_api import expect

from licensing.models import RenewalNotice
from tests.licensing.factories import AnimalFactory, OwnerFactory
from tests.licensing.license_factories import LicenseFactory
from tests.pdf import pdf_text


@pytest.fixture(autouse=True)
def _in_december():
    with time_machine.travel(
        datetime(2026, 12, 2, 10, tzinfo=ZoneInfo("America/Chicago")), tick=True
    ):
        yield


@pytest.mark.django_db(transaction=True)
def test_clerk_prints_renewal_notices_from_the_expiring_report(
    page, login_as, assert_accessible, clerk, north_branch
):
    owner = OwnerFactory(jurisdiction=north_branch, first_name="Ann", last_name="Berg")
    LicenseFactory(
        jurisdiction=north_branch,
        issued_by=clerk,
        animal=AnimalFactory(jurisdiction=north_branch, owner=owner, name="Rex"),
    )
    login_as(clerk)
    url = reverse("licensing:report_expiring") + "?start=2026-12-01&end=2026-12-31"
    assert_accessible(url)
    with page.expect_download() as download:
        page.get_by_role("button", name="Print renewal notices (PDF)").click()
    with open(download.value.path(), "rb") as handle:
        text = pdf_text(handle.read())
    assert "Ann Berg" in text and "Rex" in text
    assert RenewalNotice.objects.count() == 1
    page.goto(url)
    expect(page.get_by_text("Notice printed Dec 2, 2026")).to_be_visible()
    assert_accessible()
