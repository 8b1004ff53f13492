"""Browser tests: Debian's Chromium driven by Playwright against a live server.

Each test gets a fresh browser context; ``login_as`` hands it a signed-in session's
cookie (``login_through_form`` is the real form, walked by test_login.py) and
``assert_accessible`` runs axe-core (vendored in static/) and fails on any WCAG 2.1 A/AA
violation. Without Chromium these tests skip with one line, except in CI
(REQUIRE_BROWSER=1), where they fail.
"""

import os
import shutil

import pytest

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
HAVE_CHROMIUM = os.path.exists(CHROMIUM)
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

# Playwright's sync API runs an event loop in this thread; the ORM calls the test makes
# between page actions are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(config, items):
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.fspath).startswith(here):
            item.add_marker(pytest.mark.e2e)
            item.add_marker(pytest.mark.slow)
            if not HAVE_CHROMIUM and not os.environ.get("REQUIRE_BROWSER"):
                item.add_marker(
                    pytest.mark.skip(
                        reason="no Chromium at /usr/bin/chromium (apt-get install chromium)"
                    )
                )


@pytest.fixture(scope="session")
def browser():
    if not HAVE_CHROMIUM:
        pytest.fail(f"REQUIRE_BROWSER is set but no Chromium at {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.csp_violations = []
    page.on(
        "console",
        lambda msg: "Content Security Policy" in msg.text and page.csp_violations.append(msg.text),
    )
    yield page
    context.close()
    assert not page.csp_violations, page.csp_violations


def _device_to_verify(user):
    """The user's authenticator app, if their login has a second step (every
    administrator has one, set up earlier if they have none yet)."""
    from accounts.services import app_device, second_factor_required
    from tests.totp import enrolled_device

    return enrolled_device(user) if second_factor_required(user) else app_device(user)


@pytest.fixture
def login_through_form(page):
    """Log in through the form as a person does; staff with two-step verification then
    type the code their app shows (tests/e2e/test_login.py walks this way)."""

    def login(user, password=None):
        from tests.totp import code_for

        device = _device_to_verify(user)
        page.goto("/login/")
        page.get_by_label("Username").fill(user.username)
        page.get_by_label("Password").fill(password or f"pw-{user.username}")
        with page.expect_navigation():
            page.get_by_role("button", name="Log in").click()
        if device is not None:
            page.get_by_label("Code from your authenticator app").fill(code_for(device))
            with page.expect_navigation():
                page.get_by_role("button", name="Verify").click()
        return page

    return login


@pytest.fixture
def login_as(page, live_server):
    """Log in by handing the browser a signed-in session's cookie (the form itself is
    walked by test_login.py): the session has passed the second step when the user's
    login has one. Lands on the user's home page, as the form does."""

    def login(user):
        from django.conf import settings
        from django.test import Client

        from accounts.services import session_pass_second_step

        device = _device_to_verify(user)
        client = Client()
        client.force_login(user, backend=settings.AUTHENTICATION_BACKENDS[-1])
        if device is not None:
            user.refresh_from_db()
            session = client.session
            session_pass_second_step(session, user)
            session.save()
        cookie = client.cookies[settings.SESSION_COOKIE_NAME]
        page.context.add_cookies(
            [{"name": cookie.key, "value": cookie.value, "url": live_server.url}]
        )
        page.goto("/")
        return page

    return login


AXE_SCRIPT = """async (tags) => {
    const r = await axe.run(document, {runOnly: {type: 'tag', values: tags}});
    return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
}"""

# A click on a link returns before the next page has a document; injecting axe then
# fails with "Cannot read properties of null" or a destroyed execution context.
NAVIGATING = ("Cannot read properties of null", "Execution context was destroyed")


def axe_violations(page):
    from playwright.sync_api import Error

    for attempt in range(3):
        page.wait_for_load_state("load")
        try:
            page.add_script_tag(url="/static/vendor/axe-core/axe.min.js")
            return page.evaluate(AXE_SCRIPT, AXE_TAGS)
        except Error as error:
            if attempt == 2 or not any(m in str(error) for m in NAVIGATING):
                raise
            page.wait_for_timeout(200)


@pytest.fixture
def assert_accessible(page):
    def check(where=None):
        if where:
            page.goto(where)
        violations = axe_violations(page)
        assert not violations, f"axe on {page.url}: {violations}"

    return check
