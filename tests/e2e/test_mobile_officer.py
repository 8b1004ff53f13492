"""The officer on a phone (390 x 844): the nav collapses behind its toggle, opens from the
keyboard, and the pages an officer uses in the field never scroll sideways."""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import axe_violations
from tests.test_every_page import build_world

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser, live_server):
    context = browser.new_context(
        base_url=live_server.url,
        viewport=PHONE,
        has_touch=True,
        is_mobile=True,
        device_scale_factor=3,
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def world(settings, tmp_path, north_branch, glencoe, clerk, glencoe_clerk, administrator, resident):
    settings.MEDIA_ROOT = tmp_path / "media"
    return build_world(
        nb=north_branch,
        gl=glencoe,
        clerk=clerk,
        glencoe_clerk=glencoe_clerk,
        administrator=administrator,
        resident=resident,
    )


def _log_in(page, user):
    page.goto("/login/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(f"pw-{user.username}")
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").click()


def _sideways_scroll(page):
    return page.evaluate("""() => ({scroll: document.scrollingElement.scrollWidth,
                                    width: window.innerWidth})""")


@pytest.mark.django_db(transaction=True)
def test_the_nav_collapses_and_opens_with_the_keyboard(world, phone, officer):
    _log_in(phone, officer)
    toggle = phone.get_by_role("button", name="Toggle navigation")
    expect(toggle).to_be_visible()
    expect(phone.locator("#main-nav")).to_be_hidden()
    toggle.focus()
    phone.keyboard.press("Enter")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    link = phone.locator("#main-nav").get_by_role("link", name="Find owner or animal")
    expect(link).to_be_visible()
    link.focus()
    phone.keyboard.press("Enter")
    phone.wait_for_url("**/search/")


@pytest.mark.django_db(transaction=True)
def test_field_pages_have_no_horizontal_scroll_on_a_phone(world, phone, officer):
    _log_in(phone, officer)
    pages = [
        "/staff/",
        "/search/",
        "/search/?q=Biscuit",
        f"/animals/{world.animal.pk}/",
        "/tags/lookup/",
        "/tags/lookup/?number=1&year=2026",
        f"/owners/{world.owner.pk}/",
        f"/licenses/{world.license.pk}/",
    ]
    problems = []
    for url in pages:
        response = phone.goto(url)
        assert response.status == 200, url
        size = _sideways_scroll(phone)
        if size["scroll"] > size["width"]:
            problems.append((url, size))
        if found := axe_violations(phone):
            problems.append((url, found))
    assert not problems, problems
