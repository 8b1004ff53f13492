"""in a real browser (Glencoe 701 Subd. 5; RES-07, RES-08, REC-05): an
identified neighbour's barking complaint at an address with a barking complaint two days
earlier; the officer logs a failed contact attempt; the checklist refuses with six
conditions and accepts with seven; the seizure notice PDF names the address and the
time; the dog is on the pound board."""

from datetime import timedelta

import pytest
from django.utils import dateformat, timezone
from playwright.sync_api import expect

from complaints.models import Complaint
from complaints.seizure_models import BarkingSeizure
from complaints.services import complaint_intake
from tests.impound.factories import make_pound
from tests.licensing.factories import AnimalFactory
from tests.pdf import pdf_text

PHONE = {"width": 375, "height": 812}


@pytest.mark.django_db(transaction=True)
def test_officer_seizes_a_barking_dog_with_all_seven_conditions(
    page, login_as, officer, glencoe, assert_accessible
):
    dog = AnimalFactory(jurisdiction=glencoe, name="Howler", owner__address_line="12 Elm Street")
    make_pound(glencoe, name="Glencoe Pound")
    two_days_ago = timezone.now() - timedelta(days=2)
    earlier = complaint_intake(
        jurisdiction=glencoe,
        actor=officer,
        kind="barking",
        channel="field",
        address_line="12 Elm St.",
        occurred_at=two_days_ago,
        received_at=two_days_ago,
        narrative="Barking half the night.",
        complainant_name="Nora Neighbour",
        complainant_phone="320-555-0100",
    )

    page.set_viewport_size(PHONE)
    login_as(officer)
    page.goto("/complaints/new/")
    page.get_by_label("City").select_option(label=glencoe.name)
    page.get_by_label("Kind").select_option("barking")
    page.get_by_label("Street address").fill("12 Elm Street")
    page.get_by_role("button", name="Check the address").click()
    repeats = page.locator("section", has=page.locator("#repeats-heading"))
    expect(repeats).to_contain_text("Barking")
    page.get_by_label("Howler", exact=False).check()
    page.get_by_label("Complainant's name").fill("Nora Neighbour")
    page.get_by_label("Complainant's phone").fill("320-555-0100")
    page.get_by_label("What happened").fill("The dog next door has barked for twenty minutes.")
    page.get_by_role("button", name="Record the complaint").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Barking")
    complaint = Complaint.objects.exclude(pk=earlier.pk).get()
    assert complaint.animal == dog

    page.get_by_role("link", name="Seizure checklist").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Seizure of a barking dog")
    expect(page.get_by_text("Shown by the complaint history.")).to_be_visible()
    assert_accessible()

    # Condition 4: the attempt, logged as its own row.
    page.get_by_label("Means of contact").select_option("door")
    page.get_by_label("Who was tried").fill("Owner, front door")
    page.get_by_label("Result").select_option("no_answer")
    page.get_by_role("button", name="Log the attempt").click()
    expect(page.get_by_text("Contact attempt recorded.")).to_be_visible()

    # Six conditions (the seventh, the notice, left out): refused, next to its field.
    page.get_by_label("1. The identified complainant", exact=False).check()
    page.get_by_label("2. I reasonably believe", exact=False).check()
    page.get_by_label("4. The reasonable attempts", exact=False).check()
    page.get_by_label("5. The seizure will not involve", exact=False).check()
    page.get_by_label("How the dog will be reached").select_option("no_residence")
    page.get_by_label("6. No less intrusive means", exact=False).check()
    page.get_by_label("Less intrusive means tried or considered").fill(
        "Knocked and phoned; nobody home, dog still barking."
    )
    page.get_by_label("Pound").select_option(label="Glencoe Pound")
    page.get_by_role("button", name="Seize the dog").click()
    expect(page.get_by_text("Say the conspicuous place", exact=False)).to_be_visible()
    expect(page.get_by_label("Less intrusive means tried or considered")).to_have_value(
        "Knocked and phoned; nobody home, dog still barking."
    )
    expect(page.get_by_label("2. I reasonably believe", exact=False)).to_be_checked()
    assert not BarkingSeizure.objects.exists()
    assert_accessible()

    # The seventh: accepted.
    page.get_by_label("7. Where the written notice", exact=False).fill("Front door")
    page.get_by_role("button", name="Seize the dog").click()
    expect(page.get_by_text("Dog seized;", exact=False)).to_be_visible()
    seizure = BarkingSeizure.objects.get()
    case = seizure.impound_case
    assert case.ground == "barking_seizure" and case.animal == dog

    href = page.get_by_role("link", name="Seizure notice (PDF)").get_attribute("href")
    response = page.request.get(href)
    assert response.ok and response.headers["content-type"] == "application/pdf"
    text = pdf_text(response.body())
    seized = timezone.localtime(seizure.seized_at)
    assert "12 Elm Street" in text
    assert dateformat.format(seized, "l, F j, Y") in text
    assert dateformat.time_format(seized, "g:i a") in text

    page.goto("/impound/")
    board = page.get_by_role("row", name=case.number)
    expect(board).to_contain_text("Barking dog seized")
    expect(board).to_contain_text(dog.owner.name)
    sideways = page.evaluate("document.documentElement.scrollWidth - innerWidth")
    assert sideways <= 0
