import pytest
from playwright.sync_api import expect


@pytest.mark.parametrize(
    "persona,heading",
    [
        ("clerk", "Counter"),
        ("officer", "Field and pound"),
        ("administrator", "Administration"),
        ("resident", "Welcome"),
    ],
)
def test_each_role_logs_in_and_sees_its_home(
    request, page, login_as, assert_accessible, persona, heading
):
    login_as(request.getfixturevalue(persona))
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
