"""axe-core (WCAG 2.1 A/AA) on every page each role can reach, and the keyboard.

One logged-in page, each role in turn, walks the page table of tests/test_every_page.py with the
world's real records (Django admin is exempt; PDFs, photos and POST-only URLs are not
pages). Each page is also measured at 375 px wide, where nothing may scroll sideways.
Violations of every page are collected, then reported together.

A page whose main content another role has already been shown byte for byte (the
officer sees most of the administrator's pages as they are) is not checked again: what
differs between the two is the frame (header, navigation, footer), and each role's frame
is checked on its own first page and on every page whose content is its own.
"""

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import axe_violations
from tests.test_every_page import build_world, walk_pages

NOT_PAGES = {
    "notices:document_pdf",
    "dangerous_dogs:seizure_notice",  # a redirect to the notice's PDF
    "licensing:animal_photo",
    "impound:case_photo",
    "impound:lost_report_photo",  # a download
    "impound:register_csv",
    "impound:public_records_csv",  # a CSV download
    "impound:found_photo",  # a photo
    "impound:case_notice_letter",
    "impound:case_notice_posted",
    "impound:case_notice_attempt",
    "impound:case_notice_served",
    "impound:case_notice_posting",
    "impound:case_notice_void",
    "licensing:vaccination_certificate",
    "licensing:portal_certificate",
    "licensing:application_certificate",  # the uploaded file, streamed
    "rabies:record_file",  # an uploaded file, served as a download
    "online:mailing_list",  # a PDF
    "licensing:report_expiring_notices",  # POST only: a PDF
    "licensing:report_expiring_labels",  # a PDF
    "licensing:animal_mark_deceased",
    "dangerous_dogs:classification_end",
    "licensing:kennel_document",
    "licensing:kennel_action",
    "dangerous_dogs:notice_issue",
    "dangerous_dogs:notice_served",
    "dangerous_dogs:contest_received",
    "dangerous_dogs:contest_late_decide",
    "dangerous_dogs:declaration_issue",
    "dangerous_dogs:declaration_received",
    "accounts:logout",
    "accounts:login",
    "accounts:home",
    "clinics:submission_file",  # an uploaded file, served as a download
    "clinics:batch_template",  # a CSV download
    "clinics:unlicensed_batch_pdf",  # a PDF
    "clinics:sale_receipt",  # the receipt's PDF
    "clinics:statement_pdf",  # a PDF
    "clinics:statement_csv",  # a CSV download
    "records:export_download",  # the export's ZIP, a download
    "records:import_issues",  # an import's issues, a CSV download
    "records:import_progress",  # the progress bar's fragment, polled by htmx into its page
    # The read API: JSON and YAML for other systems, not pages.
    *(
        f"api:{name}-{kind}"
        for name in ("license", "animal", "owner", "receipt")
        for kind in ("list", "detail")
    ),
    "api:schema",
}
# Pages whose useful state needs a query string: the sweep opens them filled in too.
WITH_QUERY = {
    "licensing:search": "?q=Biscuit",
    "licensing:tag_lookup": "?number=1&year=2026",
    "licensing:counter_start": "?q=Resident",
    "licensing:report_issued": "?start=2026-01-01&end=2026-12-31",
    "online:review_list": "?status=returned",
}


PHONE = {"width": 375, "height": 812}
DESK = {"width": 1280, "height": 900}
_SIDEWAYS = """() => {
    const doc = document.documentElement, over = doc.scrollWidth - doc.clientWidth;
    const scrolling = [...document.querySelectorAll('main table')]
        .filter(t => t.scrollWidth > t.clientWidth + 1).length;
    if (scrolling) return {tables_scrolling_inside: scrolling};
    if (over <= 0) return null;
    const wide = [...document.querySelectorAll('main *')]
        .filter(el => el.getBoundingClientRect().right > doc.clientWidth + 1)
        .slice(0, 3).map(el => el.tagName + (el.id ? '#' + el.id : ''));
    return {over, wide};
}"""


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


def _urls_for(user, world):
    for name, url, roles, expected in walk_pages(world):
        if name in NOT_PAGES or (roles is not None and user.primary_role not in roles):
            continue
        if expected.get("*") == 405:  # a POST-only URL (a form's target) is not a page
            continue
        yield url
        if name in WITH_QUERY:
            yield url + WITH_QUERY[name]


# Each role in turn, in the one world: building it once for the five saves a world and
# a flush per role. The administrator, who reaches the most pages, goes first.
SWEEP_ROLES = ["administrator", "clerk", "officer", "resident", "veterinarian"]

# The page's main content, as the browser holds it, without the per-session CSRF token.
_MAIN_CONTENT = """() => {
    const main = document.querySelector('main');
    return main ? main.outerHTML.replace(/name="csrfmiddlewaretoken" value="[^"]*"/g, '')
                : null;
}"""


@pytest.mark.django_db(transaction=True)
def test_every_page_each_role_can_reach_passes_axe_and_fits_a_phone(request, world, page, login_as):
    """What only a browser shows, on every page: axe-core's WCAG 2.1 A/AA rules and the
    layout at 375 px. Long (a few hundred pages), and alone in its kind."""
    problems, checked = [], set()
    for persona in SWEEP_ROLES:
        # A veterinarian logs in as the world's own clinic.
        user = world.clinics.vet if persona == "veterinarian" else request.getfixturevalue(persona)
        page.context.clear_cookies()
        login_as(user)
        visited = 0
        for url in _urls_for(user, world):
            response = page.goto(url)
            visited += 1
            if response.status >= 500:
                problems.append((persona, url, response.status))
                continue
            content = page.evaluate(_MAIN_CONTENT)
            if visited > 1 and content is not None and content in checked:
                continue  # the same content in another role's frame, checked already
            checked.add(content)
            found = axe_violations(page)
            if found:
                problems.append((persona, url, found))
            # The same page at 375 px wide scrolls no way but down (wide
            # tables stack their rows: static/css/app.css, .table-stack).
            page.set_viewport_size(PHONE)
            sideways = page.evaluate(_SIDEWAYS)
            page.set_viewport_size(DESK)
            if sideways:
                problems.append((persona, url, "at 375 px", sideways))
        if not visited:
            problems.append((persona, "reached no page"))
    assert not problems, "\n".join(str(p) for p in problems)


def _focused_outline(page):
    return page.evaluate("""() => {
        const el = document.activeElement, s = getComputedStyle(el);
        return {tag: el.tagName, id: el.id, text: (el.textContent || '').trim().slice(0, 40),
                style: s.outlineStyle, width: parseFloat(s.outlineWidth) || 0};
    }""")


def _tab_to(page, matches, limit=60):
    """Press Tab until ``matches(focused)``; every element reached shows a visible outline."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = _focused_outline(page)
        if focused["tag"] != "BODY":
            assert focused["style"] != "none" and focused["width"] >= 2, focused
        if matches(focused):
            return focused
    raise AssertionError("never reached the element with Tab")


@pytest.mark.django_db(transaction=True)
def test_the_main_nav_works_with_tab_and_enter(page, login_as, clerk):
    login_as(clerk)
    page.goto("/staff/")
    _tab_to(page, lambda f: f["tag"] == "A" and f["text"] == "Skip to main content")
    _tab_to(page, lambda f: f["tag"] == "A" and f["text"] == "Find owner or animal")
    page.keyboard.press("Enter")
    page.wait_for_url("**/search/")
    expect(page.locator("h1")).to_be_visible()


@pytest.mark.django_db(transaction=True)
def test_the_counter_owner_search_works_with_the_keyboard(page, login_as, clerk, north_branch):
    from tests.licensing.factories import AnimalFactory, OwnerFactory

    owner = OwnerFactory(jurisdiction=north_branch, first_name="Rita", last_name="Resident")
    AnimalFactory(jurisdiction=north_branch, owner=owner, name="Biscuit")
    login_as(clerk)
    page.goto("/counter/")
    _tab_to(page, lambda f: f["id"] == "id_q")
    page.keyboard.type("Resident")
    page.keyboard.press("Enter")
    page.wait_for_url("**/counter/?q=Resident")
    _tab_to(page, lambda f: f["tag"] == "A" and "Rita Resident" in f["text"])
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/counter/owner/{owner.pk}/")
    expect(page.locator("main")).to_contain_text("Biscuit")


@pytest.mark.django_db(transaction=True)
def test_the_counter_new_owner_form_can_be_filled_and_sent_with_the_keyboard(page, login_as, clerk):
    login_as(clerk)
    page.goto("/counter/")
    _tab_to(page, lambda f: f["id"] == "id_first_name")
    page.keyboard.type("Dana")
    page.keyboard.press("Tab")
    page.keyboard.type("Berg")
    _tab_to(page, lambda f: f["id"] == "id_address_line")
    page.keyboard.type("12 Elm Street")
    _tab_to(page, lambda f: f["id"] == "id_city")
    page.keyboard.press("Control+A")
    page.keyboard.type("North Branch")
    _tab_to(page, lambda f: f["id"] == "id_postal_code")
    page.keyboard.type("55056")
    _tab_to(page, lambda f: f["tag"] == "BUTTON" and "Create owner" in f["text"])
    page.keyboard.press("Enter")
    page.wait_for_url("**/counter/owner/*/")
    expect(page.locator("main")).to_contain_text("Berg")
