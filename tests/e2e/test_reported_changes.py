"""On a phone (375 px wide): a resident reports a lost tag; the clerk applies it at the
counter's duplicate-tag fee (LIC-10, North Branch Sec. 6-63); the resident sees it done
with the receipt. axe passes on every page, and no page scrolls sideways.
"""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.utils import timezone
from playwright.sync_api import expect

from licensing.services.assessment import license_term
from licensing.services.licenses import license_issue
from tests.licensing.factories import AnimalFactory, OwnerFactory, RabiesVaccinationFactory
from tests.licensing.license_factories import TagStockFactory


@pytest.fixture(autouse=True)
def _before_renewal_season():
    """These pages are about the current term: run on December 1, 2026, the day before
    North Branch's next-term sales open (Sec. 6-65(c)), whatever the real date.
    Ticking, so the live server and the browser see time pass."""
    with time_machine.travel(
        datetime(2026, 12, 1, 10, tzinfo=ZoneInfo("America/Chicago")), tick=True
    ):
        yield


PHONE = {"width": 375, "height": 740}


@pytest.fixture
def licensed_dog(resident, north_branch, clerk, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    today = timezone.localdate()
    _start, expires_on, _renewal = license_term(jurisdiction=north_branch, on=today)
    TagStockFactory(
        jurisdiction=north_branch, recorded_by=clerk, year=expires_on.year, last_number=10
    )
    owner = OwnerFactory(jurisdiction=north_branch, user=resident, email="rita@example.org")
    dog = AnimalFactory(jurisdiction=north_branch, owner=owner, name="Biscuit")
    RabiesVaccinationFactory(animal=dog, vaccinated_on=today.replace(day=1))
    return license_issue(animal=dog, owner=owner, actor=clerk, on=today, method="cash")


def fits_the_phone(page, selector=None):
    """No sideways scrolling: the page (or, on a page other parts of which are not ours,
    the section) is no wider than the phone."""
    if selector:
        box = page.locator(selector).bounding_box()
        width = box["x"] + box["width"]
    else:
        width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} {selector or ''} is {width} px wide"


@pytest.fixture
def phone(browser, live_server):
    contexts = []

    def open_page():
        context = browser.new_context(base_url=live_server.url, viewport=PHONE)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


def login(page, user):
    page.goto("/login/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(f"pw-{user.username}")
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").click()


def checked(page, selector=None):
    from tests.e2e.conftest import axe_violations

    assert not axe_violations(page), axe_violations(page)
    fits_the_phone(page, selector)


def test_a_lost_tag_reported_on_a_phone_applied_by_the_clerk(
    phone, resident, clerk, licensed_dog, mailoutbox
):
    dog = licensed_dog.license.animal
    old_tag = licensed_dog.tag
    page = phone()
    login(page, resident)
    page.goto(f"/my/animals/{dog.pk}/")
    expect(page.get_by_role("heading", name="Report a change")).to_be_visible()
    checked(page, "section:has(#changes-heading)")
    page.get_by_role("link", name="Lost tag").click()
    expect(page.get_by_text("$3.00 (North Branch Sec. 6-63)")).to_be_visible()
    checked(page)
    page.get_by_label("Date the tag was lost").fill(timezone.localdate().isoformat())
    page.get_by_label("Where it was lost").fill("Dog park on Main Street")
    page.get_by_role("button", name="Send to the clerk").click()
    expect(page.get_by_text("Waiting for the clerk")).to_be_visible()
    checked(page)

    desk = phone()
    login(desk, clerk)
    desk.goto("/online/changes/")
    checked(desk)
    desk.get_by_role("link", name="Lost tag").click()
    expect(desk.get_by_text("Dog park on Main Street")).to_be_visible()
    checked(desk)
    desk.get_by_label("Payment method").select_option("cash")
    desk.get_by_label("Amount tendered").fill("50.00")
    desk.get_by_role("button", name="Apply").click()
    expect(desk.get_by_text("issued; receipt")).to_be_visible()

    page.reload()
    expect(page.get_by_text("Done", exact=True)).to_be_visible()
    receipt = licensed_dog.license.animal.reported_changes.get().receipt
    expect(page.get_by_text(f"Receipt {receipt.number}: $3.00")).to_be_visible()
    checked(page)
    old_tag.refresh_from_db()
    assert old_tag.status == "lost"
    assert any("done" in m.subject for m in mailoutbox)
