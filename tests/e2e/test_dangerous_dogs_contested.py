""", end to end in a browser: the Glencoe contested path (Subd. 15(B)-(E), (K)).

The owner received the notice of intent on Monday, November 2, 2026 and asked for a
hearing in writing on the 5th. The City Attorney refers the case; the Review Panel (two
council members and an elector, each declaring no personal interest, Minn. Stat.
347.541) finds the dog dangerous 2-1 on the 12th; the owner receives the findings on the
13th, so compliance is due the 27th (DD-10). Nothing is shown by then: the compliance
sweep marks the case for seizure once (DD-21); the officer seizes the dog on Monday the
30th into an impound case whose reclaim period is seven days (DD-23); on December 3 the
owner proves the requirements and pays the impound fees, and the dog goes home.
"""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from playwright.sync_api import expect

from base.roles import OFFICER
from dangerous_dogs.compliance_sweeps import sweep_compliance_overdue
from dangerous_dogs.models import CaseStatus
from impound.models import CaseStatus as ImpoundStatus
from ordinance.models import Event
from tests.conftest import make_user
from tests.dangerous_dogs.helpers import make_case
from tests.impound.factories import make_pound
from tests.impound.helpers import owned_dog, set_fee
from tests.pdf import pdf_text
from tests.upload_files import png_bytes

CHICAGO = ZoneInfo("America/Chicago")
START = datetime(2026, 11, 5, 9, 0, tzinfo=CHICAGO)


def again(page, login_as, user):
    """Days later: sign in afresh (the session may or may not have expired)."""
    page.context.clear_cookies()
    login_as(user)


def go(page, button):
    with page.expect_navigation():
        page.get_by_role("button", name=button).click()


@pytest.mark.django_db(transaction=True)
def test_a_contested_glencoe_case_from_hearing_to_seizure_and_reclaim(
    settings, tmp_path, page, login_as, assert_accessible, glencoe
):
    settings.MEDIA_ROOT = tmp_path / "media"
    make_pound(glencoe, name="McLeod County Pound")
    set_fee(glencoe, "boarding_daily", "10.00", "Animal boarding (per day)")
    set_fee(glencoe, "immunization", "20.00", "Immunization")
    officer = make_user("gwen", OFFICER, [glencoe], first_name="Gwen", last_name="Officer")
    dog = owned_dog(glencoe, name="Brutus", color="Brindle")
    with time_machine.travel(START, tick=True) as traveller:
        case = make_case(
            glencoe,
            officer,
            animal=dog,
            status=CaseStatus.NOTICE_SERVED,
            notice_received_on=START.date() - timedelta(days=3),
            contest_deadline=START.date() + timedelta(days=11),
            contest_citation="Glencoe 701 Subd. 15(B), (J)",
        )
        login_as(officer)

        # The owner's written request, in time.
        page.goto(case.get_absolute_url())
        page.get_by_label("Written request received on").fill("2026-11-05")
        page.get_by_label("Delivered to").select_option(index=0)
        go(page, "Record the request")
        case.refresh_from_db()
        assert case.status == CaseStatus.CONTESTED

        # The City Attorney refers it to the Review Panel.
        page.goto(f"/dangerous-dogs/cases/{case.pk}/hearing/")
        assert_accessible()
        page.get_by_label("Refer to the Review Panel", exact=False).check()
        page.get_by_label("City Attorney").fill("Alex Attorney")
        page.get_by_label("Decided on").fill("2026-11-05")
        page.get_by_label("Evidence reviewed").fill("The bite report and two witness statements.")
        page.get_by_label("Reasons").fill("The panel could find substantial bodily harm.")
        go(page, "Record the review")
        case.refresh_from_db()
        assert case.status == CaseStatus.HEARING

        # The hearing is scheduled with its panel and its notice issued.
        page.goto(f"/dangerous-dogs/cases/{case.pk}/hearing/")
        page.get_by_label("Hearing date and time").fill("2026-11-12T10:00")
        page.locator("#id_schedule-place").fill("Glencoe City Center, Council Chambers")
        members = [
            ("council", "Cora Council"),
            ("council", "Carl Council"),
            ("elector", "Ellen Elector"),
        ]
        for n, (seat, name) in enumerate(members, start=1):
            member = page.get_by_role("group", name=f"Member {n}")
            member.get_by_label("Seat").select_option(seat)
            member.get_by_label("Name").fill(name)
            member.get_by_label("Declared no personal interest in the outcome").check()
        go(page, "Schedule and issue the hearing notice")
        expect(page.get_by_text("Cora Council").first).to_be_visible()

        # The hearing: 2-1 dangerous; the written findings.
        traveller.move_to(datetime(2026, 11, 12, 14, 0, tzinfo=CHICAGO))
        again(page, login_as, officer)
        page.goto(f"/dangerous-dogs/cases/{case.pk}/hearing/")
        page.get_by_label("Held on").fill("2026-11-12")
        page.get_by_label("Vote of Cora Council", exact=False).select_option("dangerous")
        page.get_by_label("Vote of Carl Council", exact=False).select_option("dangerous")
        page.get_by_label("Vote of Ellen Elector", exact=False).select_option("not_upheld")
        page.get_by_label("Reasons for the finding").fill(
            "The dog bit a passer-by on the sidewalk without provocation; stitches were needed."
        )
        go(page, "Record the hearing and issue the findings")
        case.refresh_from_db()
        assert case.status == CaseStatus.DECLARED and case.declared_by == "panel"
        assert case.appeal_deadline.isoformat() == "2026-11-26"
        page.goto(case.get_absolute_url())
        assert_accessible()
        expect(
            page.get_by_text("2 dangerous, 0 potentially dangerous, 1 not upheld")
        ).to_be_visible()
        href = page.get_by_role("link", name="Findings (PDF)").get_attribute("href")
        findings = pdf_text(page.request.get(href).body())
        assert "Brutus" in findings and "Subd. 15(H)" in findings

        # Copies to the officer, the police and the owner that afternoon; the owner's receipt.
        traveller.move_to(datetime(2026, 11, 12, 15, 0, tzinfo=CHICAGO))
        page.goto(f"/dangerous-dogs/cases/{case.pk}/hearing/")
        for who in ("Animal control officer", "Police Department", "Dog owner"):
            page.get_by_label(f"{who}: delivered by").select_option("personal")
            page.get_by_label(f"{who}: delivered at").fill("2026-11-12T14:30")
        page.get_by_label("Owner received the findings on").fill("2026-11-12")
        go(page, "Record the copies")
        case.refresh_from_db()
        assert case.compliance_deadline.isoformat() == "2026-11-26"

        # Nothing shown by the deadline: the sweep marks the case for seizure, once.
        traveller.move_to(datetime(2026, 11, 30, 8, 0, tzinfo=CHICAGO))
        sweep_compliance_overdue(now=datetime.now(tz=CHICAGO))
        sweep_compliance_overdue(now=datetime.now(tz=CHICAGO))
        case.refresh_from_db()
        assert case.seizure_due_on is not None and "Subd. 15(K)(1)" in case.attention
        assert (
            Event.objects.filter(
                action="dangerous_dogs.case.flagged", subject_id=str(case.pk)
            ).count()
            == 1
        )

        # The officer seizes the dog into an impound case with a seven-day reclaim period.
        traveller.move_to(datetime(2026, 11, 30, 10, 0, tzinfo=CHICAGO))
        again(page, login_as, officer)
        page.goto(case.get_absolute_url())
        with page.expect_navigation():
            page.get_by_role("link", name="Seize the dog").click()
        assert_accessible()
        page.get_by_label("The compliance deadline passed", exact=False).check()
        page.get_by_label("Placed in the pound at").fill("2026-11-30T10:00")
        page.get_by_label("Where seized").fill("1107 Hennepin Avenue")
        go(page, "Record the seizure and open the impound case")
        case.refresh_from_db()
        assert case.status == CaseStatus.SEIZED
        impound = case.impound_case
        assert impound.hold_ends_on.isoformat() == "2026-12-07"
        expect(page.get_by_text("Impound case").first).to_be_visible()

        # December 3: the owner proves the requirements and pays; the dog goes home.
        traveller.move_to(datetime(2026, 12, 3, 11, 0, tzinfo=CHICAGO))
        again(page, login_as, officer)
        page.goto(f"/dangerous-dogs/cases/{case.pk}/compliance/enclosure/")
        page.get_by_label("Verified on").fill("2026-12-03")
        page.get_by_label("The proper enclosure and the warning sign", exact=False).fill(
            "Six-foot chain-link run, locked; the warning sign with the symbol on the gate."
        )
        page.get_by_label("Photo of the enclosure and the sign").set_input_files(
            {"name": "run.png", "mimeType": "image/png", "buffer": png_bytes()}
        )
        go(page, "Record as verified")
        page.goto(f"/dangerous-dogs/cases/{case.pk}/compliance/coverage/")
        page.get_by_label("Verified on").fill("2026-12-03")
        page.get_by_label("Liability insurance policy").check()
        page.get_by_label("Surety or insurer").fill("North Star Mutual")
        page.get_by_label("Bond or policy number").fill("HP-5512")
        page.get_by_label("Amount ($)").fill("300000")
        page.get_by_label("Expires on").fill("2027-12-03")
        go(page, "Record as verified")
        page.goto(f"/dangerous-dogs/cases/{case.pk}/compliance/microchip/")
        page.get_by_label("Verified on").fill("2026-12-03")
        page.get_by_label("Microchip number").fill("985112003456789")
        page.get_by_label("Manufacturer").fill("HomeAgain")
        page.get_by_label("Implanted on").fill("2026-12-02")
        page.get_by_label("Implanted by (veterinarian)").fill("Dr. Lee, Glencoe Animal Clinic")
        go(page, "Record as verified")

        page.goto(case.get_absolute_url())
        with page.expect_navigation():
            page.get_by_role("link", name="Record the reclaim: proofs and fees").click()
        assert_accessible()
        page.get_by_label("Yes", exact=True).check()  # licensed (Glencoe issues none)
        page.get_by_label("Payment method").select_option("cash")
        page.get_by_label("Amount tendered").fill("1000.00")
        go(page, "Take payment and release")
        case.refresh_from_db()
        impound.refresh_from_db()
        assert impound.status == ImpoundStatus.REDEEMED
        assert case.status == CaseStatus.DECLARED  # the certificate of registration is next
        assert not impound.gates.get().is_open
