""", end to end in a browser: the Glencoe default path (Subd. 15(A), (B), (J)).

An officer opens a case from the dog's page, issues the notice of intent and records the
owner's receipt; fifteen days pass under time-machine; the default sweep runs twice and
records one default; the officer issues the declaration, whose PDF names the dog and
Subd. 15(J). An exemption found at investigation stops the notice, the reason shown.
"""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from playwright.sync_api import expect

from base.roles import OFFICER
from dangerous_dogs.models import CaseStatus, DesignationCase
from dangerous_dogs.sweeps import sweep_contest_default
from ordinance.models import Event
from tests.conftest import make_user
from tests.impound.helpers import owned_dog
from tests.pdf import pdf_text

START = datetime(2026, 11, 2, 9, 0, tzinfo=ZoneInfo("America/Chicago"))


def fill_investigation(page, *, exempt=False):
    page.get_by_label("What happened").select_option("bite_human")
    page.get_by_label("When it happened").fill("2026-10-30T17:30")
    page.get_by_label("Where it happened").fill("Greeley Ave and 11th St")
    page.get_by_label("Person or animal harmed or threatened").fill("Dana Reyes, a passer-by")
    page.get_by_label("Injuries").fill("Puncture wounds needing stitches")
    page.get_by_label("Definition met (Subd. 1)").select_option("substantial_harm")
    page.get_by_label("Designation intended").select_option("dangerous")
    if exempt:
        page.get_by_label("the person provoked", exact=False).check()
    page.get_by_label("Why each exemption does or does not apply").fill(
        "The victim says she teased the dog through the fence." if exempt else "No exemption."
    )
    page.get_by_label("Investigated by").fill("Gwen Officer")
    page.get_by_label("Investigation completed on").fill("2026-11-01")
    with page.expect_navigation():
        page.get_by_role("button", name="Record the investigation").click()


@pytest.mark.django_db(transaction=True)
def test_a_glencoe_dog_is_declared_dangerous_by_default(
    settings, tmp_path, page, login_as, assert_accessible, glencoe
):
    settings.MEDIA_ROOT = tmp_path / "media"
    dog = owned_dog(glencoe, name="Brutus", color="Brindle")
    officer = make_user("gwen", OFFICER, [glencoe], first_name="Gwen", last_name="Officer")
    with time_machine.travel(START, tick=True) as traveller:
        login_as(officer)
        page.goto(dog.get_absolute_url())
        with page.expect_navigation():
            page.get_by_role("link", name="Open a dangerous-dog case").click()
        assert_accessible()
        fill_investigation(page)
        case = DesignationCase.objects.get(animal=dog)
        assert case.status == CaseStatus.DETERMINED
        with page.expect_navigation():
            page.get_by_role("button", name="Issue the notice of intent").click()
        expect(
            page.get_by_text("No clock runs until the owner's receipt is recorded")
        ).to_be_visible()
        assert_accessible()
        page.get_by_label("How it was served").select_option("personal")
        page.get_by_label("Owner received it on (blank if not reached)").fill("2026-11-02")
        with page.expect_navigation():
            page.get_by_role("button", name="Record service").click()
        case.refresh_from_db()
        assert case.status == CaseStatus.NOTICE_SERVED
        assert case.contest_deadline.isoformat() == "2026-11-16"
        expect(page.get_by_text("Glencoe 701 Subd. 15(B), (J)").first).to_be_visible()

        # Fifteen days pass with no written request: the sweep defaults the case once.
        traveller.move_to(START + timedelta(days=15))
        sweep_contest_default(now=datetime.now(tz=START.tzinfo))
        sweep_contest_default(now=datetime.now(tz=START.tzinfo))
        assert Event.objects.filter(action="dangerous_dogs.case.defaulted").count() == 1
        case.refresh_from_db()
        assert case.status == CaseStatus.DEFAULTED

        login_as(officer)  # the session of fifteen days ago has expired
        page.goto(case.get_absolute_url())
        expect(page.get_by_text("no appeal to the City Council from a default")).to_be_visible()
        with page.expect_navigation():
            page.get_by_role("button", name="Issue the declaration").click()
        case.refresh_from_db()
        assert case.status == CaseStatus.DECLARED and case.declared_by == "default"
        assert_accessible()
        href = (
            page.locator("#declaration-heading")
            .locator("..")
            .get_by_role("link", name="PDF")
            .get_attribute("href")
        )
        response = page.request.get(href)
        assert response.status == 200 and response.headers["content-type"] == "application/pdf"
        text = pdf_text(response.body())
        assert "Brutus" in text and "Subd. 15(J)" in text
        assert "Minn. Stat. 347.51 subd. 2" in text


@pytest.mark.django_db(transaction=True)
def test_an_exemption_at_investigation_stops_the_notice(
    settings, tmp_path, page, login_as, glencoe
):
    settings.MEDIA_ROOT = tmp_path / "media"
    dog = owned_dog(glencoe, name="Daisy")
    officer = make_user("gwen", OFFICER, [glencoe], first_name="Gwen", last_name="Officer")
    with time_machine.travel(START, tick=True):
        login_as(officer)
        page.goto(f"/dangerous-dogs/animals/{dog.pk}/open/")
        fill_investigation(page, exempt=True)
        case = DesignationCase.objects.get(animal=dog)
        assert case.status == CaseStatus.EXEMPT
        expect(page.get_by_text("No notice of intent can be issued.")).to_be_visible()
        expect(page.get_by_text("Glencoe 701 Subd. 15(L)").first).to_be_visible()
        expect(page.get_by_role("button", name="Issue the notice of intent")).to_have_count(0)
