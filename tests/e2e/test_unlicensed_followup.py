"""A clerk sends the vaccinated-but-unlicensed letters: the report by
city, "Record and send", the batch's letters PDF, the report saying what was sent, and
the results page; each page passes axe and does not scroll sideways at 375 px."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.urls import reverse
from playwright.sync_api import expect

from clinics.models import FollowUpLetter
from tests.clinics.followup_helpers import build_followup_world
from tests.e2e.test_accessibility_sweep import _SIDEWAYS, DESK, PHONE
from tests.pdf import pdf_text


@pytest.fixture(autouse=True)
def _in_march():
    with time_machine.travel(
        datetime(2026, 3, 2, 10, tzinfo=ZoneInfo("America/Chicago")), tick=True
    ):
        yield


def _fits_a_phone(page):
    page.set_viewport_size(PHONE)
    sideways = page.evaluate(_SIDEWAYS)
    page.set_viewport_size(DESK)
    assert not sideways, (page.url, sideways)


@pytest.mark.django_db(transaction=True)
def test_clerk_sends_the_letters_and_prints_them(
    page, login_as, assert_accessible, clerk, north_branch, glencoe
):
    build_followup_world(north_branch, glencoe, clerk)
    login_as(clerk)
    assert_accessible(reverse("clinics:unlicensed"))
    _fits_a_phone(page)
    expect(page.get_by_role("link", name="Rex")).to_be_visible()
    page.get_by_role("button", name="Record and send").click()
    expect(page.get_by_text("3 letters and 3 e-mails recorded")).to_be_visible()
    assert_accessible()
    assert FollowUpLetter.objects.count() == 6
    with page.expect_download() as download:
        page.get_by_role("link", name="(PDF)").first.click()
    with open(download.value.path(), "rb") as handle:
        text = pdf_text(handle.read())
    assert "Ann Berg" in text and "Rex" in text and "North Branch Sec. 6-61" in text
    page.get_by_role("button", name="Record and send").click()
    expect(page.get_by_text("nothing new to send")).to_be_visible()
    assert FollowUpLetter.objects.count() == 6
    page.get_by_role("link", name="Results: licensed after the letters").click()
    expect(page.get_by_role("heading", name="Unlicensed follow-up: results")).to_be_visible()
    expect(page.get_by_text("March 2026")).to_be_visible()
    assert_accessible()
    _fits_a_phone(page)
