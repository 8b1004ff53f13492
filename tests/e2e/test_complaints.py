"""-3 in a real browser, on a phone (375 px): the officer takes a North
Branch complaint in the field, records a dog on a 10-foot leash in a park, reads the
system's proposal (running at large, Sec. 6-28), cites instead of impounding (Sec. 6-69)
and writes the citation from the complaint; the citation PDF carries its number, the
charge class and the section."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from citations.models import Citation
from complaints.models import Complaint, Outcome
from notices.models import IssuedDocument
from notices.services import document_pdf
from tests.licensing.factories import AnimalFactory
from tests.pdf import pdf_text

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

    # The citation itself, written from the complaint (RES-06, REC-14): the dog, time and
    # place come with it; the officer names the court, the date and confirms the class.
    page.get_by_role("link", name="Write the citation").click()
    expect(page.get_by_label("Rocket", exact=False)).to_be_checked()
    expect(page.get_by_label("City")).to_have_value(str(north_branch.pk))
    page.get_by_role("combobox", name="Violation").select_option("at_large")
    page.get_by_role("textbox", name="Court").fill("Chisago County District Court")
    appearance = timezone.localdate() + timedelta(days=30)
    page.get_by_label("Appearance date").fill(appearance.isoformat())
    page.get_by_label("Charge class (the officer confirms)").select_option("petty_misdemeanor")
    page.get_by_role("button", name="Issue the citation").click()
    expect(page.get_by_role("heading", level=1)).not_to_contain_text("Issue a citation")
    citation = Citation.objects.get()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Citation {citation.number}")
    assert citation.source == complaint and citation.jurisdiction == north_branch
    text = pdf_text(document_pdf(IssuedDocument.objects.get(kind="citation")))
    assert f"Citation number {citation.number}" in " ".join(text.split())
    assert "Petty misdemeanor" in text or "petty misdemeanor" in text
    assert "Sec. 6-66" in text and "Rocket" in text
