"""A resident signs up on a phone, confirms the address from the mail, logs in, links
their licensed dog with the license number, last name and ZIP code, and sees it on
/my/animals/. axe passes and nothing is wider than 375 px on each
page they see. The dog was licensed at the counter (LIC-01, LIC-08, REC-01)."""

import re

import pytest
from django.core import mail
from django.core.cache import cache
from django.utils import timezone
from playwright.sync_api import expect

from tests.licensing.test_linking import issue_license

PASSWORD = "a walk by the river at noon"
PHONE = {"width": 375, "height": 812}


@pytest.fixture
def licensed_dog(north_branch, clerk, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    cache.clear()  # allauth's per-address mail limits start from zero
    return issue_license(north_branch, clerk, on=timezone.localdate())


def fits_the_phone(page):
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= PHONE["width"], f"{page.url} is {wide}px wide"


def test_a_resident_signs_up_verifies_logs_in_and_links_their_dog(
    page, assert_accessible, licensed_dog
):
    owner, result = licensed_dog
    page.set_viewport_size(PHONE)

    page.goto("/login/")
    page.get_by_role("link", name="Create an account").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Create an account")
    assert_accessible()
    fits_the_phone(page)
    page.get_by_label("Email").fill("lena@example.org")
    page.get_by_label("Username").fill("lena")
    page.get_by_label("Password").first.fill(PASSWORD)  # then "Password (again)"
    page.get_by_label("Password (again)").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Check your e-mail")
    assert_accessible()
    fits_the_phone(page)
    (message,) = mail.outbox
    assert message.to == ["lena@example.org"]
    link = re.search(r"https?://[^/\s]+(/\S+)", message.body).group(1)

    page.goto(link)
    expect(page.get_by_role("heading", level=1)).to_have_text("Confirm your e-mail address")
    expect(page.get_by_text("lena@example.org")).to_be_visible()
    assert_accessible()
    fits_the_phone(page)
    page.get_by_role("button", name="Confirm").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Log in")
    page.get_by_label("Username").fill("lena@example.org")  # the e-mail works as well
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()

    expect(page.get_by_role("heading", name="Link your animals")).to_be_visible()
    assert_accessible()
    fits_the_phone(page)
    page.get_by_role("link", name="Link your animals").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Link your animals")
    assert_accessible()
    fits_the_phone(page)

    # A typo first: said next to the form, what was typed kept.
    page.get_by_label("License number or tag number").fill(result.license.number)
    page.get_by_label("Last name").fill("Lindgren")
    page.get_by_label("ZIP code").fill("55057")
    page.get_by_role("button", name="Link").click()
    expect(page.locator("#link-error")).to_contain_text("No license or tag matches")
    expect(page.get_by_label("Last name")).to_have_value("Lindgren")
    assert_accessible()

    page.get_by_label("ZIP code").fill("55056")
    page.get_by_role("button", name="Link").click()

    expect(page).to_have_url(re.compile(r"/my/animals/$"))
    expect(page.get_by_role("status")).to_contain_text("Your account is linked")
    animals = page.get_by_role("table").first
    expect(animals).to_contain_text("Pepper")
    expect(animals).to_contain_text(result.license.number)
    assert_accessible()
    fits_the_phone(page)
    owner.refresh_from_db()
    assert owner.user.username == "lena"


def test_a_resident_resets_a_forgotten_password_from_the_mail(page, assert_accessible, cities):
    from allauth.account.models import EmailAddress

    from base.roles import RESIDENT
    from tests.conftest import make_user

    cache.clear()
    lena = make_user("lena", RESIDENT, email="lena@example.org")
    EmailAddress.objects.create(user=lena, email="lena@example.org", verified=True, primary=True)
    page.set_viewport_size(PHONE)

    page.goto("/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Reset your password")
    assert_accessible()
    fits_the_phone(page)
    page.get_by_label("Email").fill("lena@example.org")
    page.get_by_role("button", name="Send me the link").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Check your e-mail")
    assert_accessible()

    (message,) = mail.outbox
    assert "Reset your password" in message.subject and "lena" in message.body
    page.goto(re.search(r"https?://[^/\s]+(/\S+)", message.body).group(1))
    expect(page.get_by_role("heading", level=1)).to_have_text("Choose a new password")
    assert_accessible()
    fits_the_phone(page)
    # Fourteen characters: refused next to the field.
    page.get_by_label("New password").first.fill("fourteen-chars")
    page.get_by_label("New password (again)").fill("fourteen-chars")
    page.get_by_role("button", name="Save the new password").click()
    expect(page.get_by_text("at least 15 characters").first).to_be_visible()
    assert_accessible()
    page.get_by_label("New password").first.fill(PASSWORD)
    page.get_by_label("New password (again)").fill(PASSWORD)
    page.get_by_role("button", name="Save the new password").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Password changed")
    assert_accessible()

    page.get_by_role("link", name="Log in").last.click()
    page.get_by_label("Username").fill("lena")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Link your animals")).to_be_visible()
