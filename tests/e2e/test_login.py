import re

import pytest
from playwright.sync_api import expect


# The form with its second step (an administrator) and without (a resident). Each
# role's home and its heading are checked at the request level
# (test_every_page.py, test_home_sends_each_role_to_its_own_home) and with axe by the
# accessibility sweep.
@pytest.mark.parametrize(
    "persona,heading",
    [
        ("administrator", "Administration"),
        ("resident", "Welcome"),
    ],
)
def test_each_role_logs_in_and_sees_its_home(
    request, page, login_through_form, assert_accessible, persona, heading
):
    login_through_form(request.getfixturevalue(persona))
    expect(page.get_by_role("heading", level=1)).to_contain_text(heading)
    assert_accessible()


def test_a_wrong_password_shows_an_error(page, clerk, assert_accessible):
    page.goto("/login/")
    page.get_by_label("Username").fill("carol")
    page.get_by_label("Password").fill("not-the-password")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("alert")).to_contain_text("correct username and password")
    assert_accessible()


def test_the_skip_link_is_the_first_stop_and_jumps_to_main(page, login_as, clerk):
    login_as(clerk)
    page.goto("/staff/")
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to main content")
    expect(skip).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("main")).to_be_focused()


def test_an_administrator_sets_up_two_step_verification_at_first_login(
    page, assert_accessible, north_branch
):
    """No app yet: the QR code and the key written out, a code typed from the key, the
    recovery codes shown once; then the admin site opens."""
    from base.roles import ADMINISTRATOR
    from tests.conftest import make_user
    from tests.totp import code_for_typed_key

    make_user("nell", ADMINISTRATOR, [north_branch])
    page.goto("/admin/")
    page.get_by_label("Username").fill("nell")
    page.get_by_label("Password").fill("pw-nell")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Turn on two-step verification")
    expect(page.get_by_role("img", name="QR code")).to_be_visible()
    assert_accessible()
    page.goto("/staff/")  # every other page sends them back here
    expect(page.get_by_role("heading", level=1)).to_have_text("Turn on two-step verification")

    page.get_by_label("Code from your authenticator app").fill("000000")
    page.get_by_role("button", name="Turn on").click()
    expect(page.locator(".invalid-feedback")).to_contain_text("That code is not right")
    assert_accessible()

    page.wait_for_timeout(1100)  # wrong codes wait 1, 2, 4... seconds
    key = page.locator("#totp-key").inner_text()
    page.get_by_label("Code from your authenticator app").fill(code_for_typed_key(key))
    page.get_by_role("button", name="Turn on").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your recovery codes")
    expect(page.get_by_role("list", name="Recovery codes").get_by_role("listitem")).to_have_count(
        10
    )
    assert_accessible()
    page.get_by_role("link", name="I have kept them: continue").click()
    expect(page).to_have_url(re.compile(r"/staff/$"))  # the page they last asked for
    page.goto("/admin/")
    expect(page.get_by_role("heading", name="Site administration")).to_be_visible()


def test_a_wrong_code_after_the_password_is_shown_next_to_the_field(page, clerk, assert_accessible):
    from tests.totp import code_for, enrolled_device

    device = enrolled_device(clerk)  # a clerk who turned it on
    page.goto("/login/")
    page.get_by_label("Username").fill("carol")
    page.get_by_label("Password").fill("pw-carol")
    page.get_by_role("button", name="Log in").click()
    code = page.get_by_label("Code from your authenticator app")
    code.fill("000000")
    page.get_by_role("button", name="Verify").click()
    expect(page.locator("#error_1_id_code")).to_contain_text("That code is not right")
    expect(code).to_have_attribute("aria-invalid", "true")
    assert_accessible()
    page.wait_for_timeout(1100)
    page.get_by_label("Code from your authenticator app").fill(code_for(device))
    page.get_by_role("button", name="Verify").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Counter")
