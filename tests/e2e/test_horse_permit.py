"""'s horse permit in a real browser (Glencoe 702; HOR-01..05, FEE-13): the
clerk enters an application for 0.6 acre and 3 horses and is refused with "at most 2 for
0.6 acre" and 702(e), keeping what was typed; with 2 horses it passes the system's
checks, the person's checks are recorded, it waits for the Council's resolution, is
issued on May 1 and shows an expiry of next April 15; the permit PDF's text carries both.
"""

import re
from datetime import date

import pytest
from playwright.sync_api import expect

from notices.services import document_pdf
from permits.models import HorsePermit, HorseStatus
from tests.pdf import pdf_text
from tests.permits.helpers import set_horse_fee


@pytest.mark.django_db(transaction=True)
@pytest.mark.clock("2026-05-01T09:00")
def test_the_clerk_takes_a_horse_permit_from_refusal_to_pdf(page, login_as, glencoe, glencoe_clerk):
    set_horse_fee(glencoe, "25.00")
    login_as(glencoe_clerk)
    page.goto("/permits/horses/new/")
    page.get_by_label("Owner of the animals").fill("Hanna Horseowner")
    page.get_by_label("Owner's address").fill("2200 Morningside Ave, Glencoe, MN")
    page.get_by_label("E-mail (for the renewal reminder)").fill("hanna@example.org")
    page.get_by_label("Legal description of the property").fill(
        "Lot 4, Block 2, Morningside Addition"
    )
    page.get_by_label("Name of the owner of the land").fill("Peter Landowner")
    page.get_by_label("Pasture area (acres)").fill("0.6")
    page.locator("#id_horses").fill("3")
    page.get_by_label("Description of the shelter").fill("Wood run-in shed, 12 by 24 feet")
    page.get_by_label("Distance from the pasture to the nearest residence (feet)").fill("45")
    page.get_by_label("Pasture fence").select_option("wood")
    page.get_by_role("button", name="Record the application").click()

    expect(page.get_by_text("at most 2 for 0.6 acre")).to_be_visible()
    expect(page.get_by_text("702(e)").first).to_be_visible()
    expect(page.get_by_label("Legal description of the property")).to_have_value(
        "Lot 4, Block 2, Morningside Addition"
    )
    assert not HorsePermit.objects.exists()

    page.locator("#id_horses").fill("2")
    page.get_by_role("button", name="Record the application").click()
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    permit = HorsePermit.objects.get()

    page.get_by_label("Shelter keeps the animals comfortable").check()
    page.get_by_label("Pasture can be used for grazing").check()
    page.get_by_label("Premises clean and sanitary").check()
    page.get_by_role("button", name="Record the checks").click()
    expect(page.get_by_text("The Council has not decided yet")).to_have_count(0)

    page.get_by_label("Council decision").select_option("approved")
    page.get_by_label("Council meeting").fill("2026-04-27")
    page.locator("#id_resolution_number").fill("Res. 2026-31")
    page.get_by_role("button", name="Record the Council's decision").click()
    expect(page.get_by_role("button", name="Issue the permit")).to_be_visible()
    permit.refresh_from_db()
    assert permit.status == HorseStatus.APPROVED

    page.get_by_role("button", name="Issue the permit").click()
    issued = page.locator("section", has=page.locator("#issue-heading"))
    expect(issued).to_contain_text(re.compile(r"May 1, 2026"))
    expect(issued).to_contain_text(re.compile(r"Apr(il|\.)? 15, 2027"))
    permit.refresh_from_db()
    assert permit.issued_on == date(2026, 5, 1) and permit.expires_on == date(2027, 4, 15)

    text = " ".join(pdf_text(document_pdf(permit.document)).split())
    assert re.search(r"Apr(il|\.)? 15, 2027", text) and "May 1, 2026" in text
    assert "Hanna Horseowner" in text and "702" in text
