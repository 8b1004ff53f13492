"""'s done-when in real browsers: anonymous on a 375 px phone, the found page shows
a stray taken in today with its claim-by date and section; a resident reports a lost dog
that matches it; the officer sees the match with the resident's contact; the resident's
e-mail is in the outbox; and no public page (the found pages, the public impound record
and its CSV) holds the finder's or the owner's name or address.

Rules: IMP-03, IMP-05, REC-03, REC-04 (NB Sec. 6-68; GL 701 Subds. 13, 14; Minn. Stat.
346.47 subd. 2, Appendix H MN-03)."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import requests
import time_machine
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from playwright.sync_api import expect

from impound.models import LostMatch
from impound.services.intake import case_intake
from impound.services.notices import claim_by
from tests.e2e.conftest import axe_violations
from tests.impound.factories import make_pound
from tests.licensing.factories import AnimalFactory, OwnerFactory
from tests.upload_files import png_bytes

PHONE = {"width": 375, "height": 812}
FINDER = ("Pat Quillfinder", "4417 Larkspur Lane")
OWNER = ("Olga", "Ownersby", "2290 Juniper Court")


@pytest.fixture
def phone(browser, live_server):
    context = browser.new_context(base_url=live_server.url, viewport=PHONE, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def world(north_branch, glencoe, officer, resident, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    officer.email = "olivia@nb.example.org"
    officer.save()
    resident.email = "rita@example.org"
    resident.save()
    now = datetime.now(ZoneInfo("America/Chicago")).replace(second=0, microsecond=0)
    pound = make_pound(north_branch, glencoe)
    owner = OwnerFactory(
        jurisdiction=north_branch,
        first_name=OWNER[0],
        last_name=OWNER[1],
        address_line=OWNER[2],
    )
    known = AnimalFactory(jurisdiction=north_branch, owner=owner, name="Juno", color="Brindle")
    with time_machine.travel(now, tick=True):
        stray = case_intake(
            jurisdiction=north_branch,
            pound=pound,
            actor=officer,
            ground="unlicensed_at_large",
            placed_at=now,
            seized_on=now.date(),
            seized_where=f"Back yard of {FINDER[1]}",
            found_area="300 block of Main St",
            brought_by_name=FINDER[0],
            brought_by_address=FINDER[1],
            species="dog",
            breed="Beagle",
            sex="male",
            color="Tricolor",
            approximate_age_months=24,
            photo=SimpleUploadedFile("dog.png", png_bytes(), content_type="image/png"),
        )
        owned = case_intake(
            jurisdiction=north_branch,
            pound=pound,
            actor=officer,
            ground="unlicensed_at_large",
            placed_at=now,
            seized_on=now.date(),
            seized_where=OWNER[2],
            brought_by_name=f"{OWNER[0]} {OWNER[1]}",
            brought_by_address=OWNER[2],
            species="dog",
            breed=known.breed,
            sex="female",
            color=known.color,
            approximate_age_months=48,
            animal=known,
        )
    return stray, owned


def _no_personal_data(text, where):
    for private in (*FINDER, OWNER[1], OWNER[2], f"{OWNER[0]} {OWNER[1]}"):
        assert private not in text, f"{private!r} on {where}"


@pytest.mark.django_db(transaction=True)
def test_found_page_lost_report_match_and_no_personal_data(
    world, phone, page, login_as, officer, resident, north_branch, live_server
):
    stray, owned = world

    # Anonymous on a phone: today's stray with its claim-by date and section.
    phone.goto(f"/impound/found/{north_branch.slug}/")
    card = phone.get_by_role("article", name="Tricolor Beagle")
    expect(card).to_contain_text("300 block of Main St")
    expect(card).to_contain_text("Claim by")
    expect(card).to_contain_text(claim_by(stray)["citation"])
    assert not axe_violations(phone)
    sizes = phone.evaluate(
        "() => ({scroll: document.scrollingElement.scrollWidth, width: window.innerWidth})"
    )
    assert sizes["scroll"] <= sizes["width"], sizes

    # Every public page, the CSV too: nobody's name or address.
    for url in (
        "/impound/found/",
        f"/impound/found/{north_branch.slug}/",
        f"/impound/public/{north_branch.slug}/",
    ):
        phone.goto(url)
        _no_personal_data(phone.content(), url)
    csv_text = requests.get(
        f"{live_server.url}/impound/public/{north_branch.slug}/records.csv", timeout=30
    ).text
    assert stray.number in csv_text or "Beagle" in csv_text
    _no_personal_data(csv_text, "the public record CSV")

    # The resident reports a lost dog like it.
    mail.outbox.clear()
    login_as(resident)
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Lost pets").click()
    assert not axe_violations(page)
    page.get_by_role("link", name="Report a lost animal").click()
    page.get_by_label("City where lost").select_option(label=north_branch.name)
    page.get_by_label("Species").select_option("dog")
    page.get_by_label("Breed").fill("Beagle")
    page.get_by_label("Color").fill("Tricolor")
    page.get_by_label("Sex").select_option("male")
    page.get_by_label("The animal's name").fill("Scout")
    page.get_by_label("Date lost").fill(stray.seized_on.isoformat())
    page.get_by_role("textbox", name="Where lost").fill("Main St near the park")
    assert not axe_violations(page)
    page.get_by_role("button", name="File the report").click()
    matches = page.get_by_role("region", name="Animals at the pound that may be yours")
    expect(matches).to_contain_text("Beagle")
    _no_personal_data(page.content(), "the resident's report")
    assert not axe_violations(page)

    match = LostMatch.objects.get(case=stray)
    assert match.report.reporter == resident
    to_resident = [m for m in mail.outbox if m.to == [resident.email]]
    assert len(to_resident) == 1
    _no_personal_data(to_resident[0].body, "the resident's e-mail")
    assert "300 block of Main St" in to_resident[0].body

    # The officer sees the match, with the resident's contact.
    page.context.clear_cookies()
    login_as(officer)
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Lost reports").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Lost reports and likely matches")
    report = page.get_by_role("article").filter(has_text="Scout")
    expect(report).to_contain_text(resident.email)
    expect(report.get_by_role("link", name=f"Case {stray.number}")).to_be_visible()
    assert not axe_violations(page)
