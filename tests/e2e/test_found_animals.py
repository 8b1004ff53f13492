"""Anonymous on a 375 px phone: the found page shows a stray taken in
today with its photo and claim-by date and section, passes axe, never scrolls sideways,
and names no finder."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.files.uploadedfile import SimpleUploadedFile
from playwright.sync_api import expect

from impound.services.intake import case_intake
from impound.services.notices import claim_by
from tests.e2e.conftest import axe_violations
from tests.impound.factories import make_pound
from tests.upload_files import png_bytes

PHONE = {"width": 375, "height": 812}


@pytest.fixture
def phone(browser, live_server):
    context = browser.new_context(base_url=live_server.url, viewport=PHONE, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.mark.django_db(transaction=True)
def test_an_anonymous_phone_sees_todays_stray_with_its_claim_by_date(
    north_branch, glencoe, officer, phone, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path / "media"
    now = datetime.now(ZoneInfo("America/Chicago")).replace(second=0, microsecond=0)
    with time_machine.travel(now, tick=True):
        case = case_intake(
            jurisdiction=north_branch,
            pound=make_pound(north_branch, glencoe),
            actor=officer,
            ground="unlicensed_at_large",
            placed_at=now,
            seized_on=now.date(),
            seized_where="Front yard of 12 Elm St",
            found_area="300 block of Main St",
            brought_by_name="Pat Finder",
            brought_by_address="12 Elm St",
            species="dog",
            breed="Beagle",
            color="Tricolor",
            approximate_age_months=24,
            photo=SimpleUploadedFile("dog.png", png_bytes(), content_type="image/png"),
        )
    phone.goto(f"/impound/found/{north_branch.slug}/")
    card = phone.get_by_role("article", name="Tricolor Beagle")
    expect(card).to_contain_text("300 block of Main St")
    expect(card).to_contain_text("Claim by")
    expect(card).to_contain_text(claim_by(case)["citation"])
    photo = card.get_by_role("img")
    expect(photo).to_be_visible()
    assert phone.evaluate("(img) => img.naturalWidth", photo.element_handle()) > 0
    text = phone.content()
    for private in ("Pat Finder", "12 Elm St"):
        assert private not in text
    sizes = phone.evaluate(
        "() => ({scroll: document.scrollingElement.scrollWidth, width: window.innerWidth})"
    )
    assert sizes["scroll"] <= sizes["width"], sizes
    assert not axe_violations(phone)
