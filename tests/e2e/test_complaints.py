"""Issue 16 items 1-3 in a real browser, on a phone (375 px): the officer takes a North
Branch complaint in the field, records a dog on a 10-foot leash in a park, reads the
system's proposal (running at large, Sec. 6-28) and cites instead of impounding
(Sec. 6-69). The citation document itself is the citations app's (issue 16, item 5)."""

import pytest
from playwright.sync_api import expect

from complaints.models import Complaint, Outcome
from tests.licensing.factories import AnimalFactory

PHONE = {"width": 375, "height": 812}


@pytest.mark.django_db(transaction=True)
def test_officer_takes_a_complaint_reads_the_leash_rule_and_cites(
    page, login_as, officer, north_branch
):
    dog = AnimalFactory(
        jurisdiction=north_branch, name="Rocket", owner__address_line="77 Park Avenue"
    )
    page.set_viewport_size(PHONE)
    login_as(officer)
    page.goto("/complaints/new/")
    page.get_by_label("City").select_option(label=north_branch.name)
    page.get_by_label("Kind").select_option("running_at_large")
    page.get_by_label("Street address").fill("77 Park Ave")
    page.get_by_role("button", name="Check the address").click()
    page.get_by_label("Rocket", exact=False).check()
    page.get_by_label("Where exactly").fill("In Central Park")
    page.get_by_label("Complainant's name").fill("Nora Neighbour")
    page.get_by_label("Complainant's phone").fill("651-555-0100")
    page.get_by_label("What happened").fill("Dog on a long leash chasing geese.")
    page.get_by_role("button", name="Record the complaint").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Running at large")
    complaint = Complaint.objects.get()
    assert complaint.animal == dog and complaint.channel == "field"

    page.get_by_role("link", name="Record the facts").click()
    page.get_by_label("Where the dog was").select_option("park")
    page.get_by_label("How restrained").select_option("leash_held")
    page.get_by_label("Leash length (feet)").fill("10")
    page.get_by_role("button", name="Record").click()
    reading = page.locator("section", has=page.locator("#reading-heading"))
    expect(reading).to_contain_text("The facts meet the ordinance's test")
    expect(reading).to_contain_text("North Branch Sec. 6-28")

    page.get_by_role("link", name="Record the outcome").click()
    expect(page.get_by_text("North Branch Sec. 6-69").first).to_be_visible()
    page.get_by_label("Citation").check()
    page.get_by_role("button", name="Record").click()
    outcome = page.locator("section", has=page.locator("#outcome-heading"))
    expect(outcome).to_contain_text("Citation (North Branch Sec. 6-69)")
    complaint.refresh_from_db()
    assert complaint.outcome == Outcome.CITATION and complaint.impound_case is None
    sideways = page.evaluate("document.documentElement.scrollWidth - innerWidth")
    assert sideways <= 0
