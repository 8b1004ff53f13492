""", end to end in a browser: the release gates of the two cities.

North Branch (Sec. 6-96, 6-98): an officer records a bite by a vaccinated dog from the
dog's page, orders confinement at home and logs an inspection; ten days later (under
time-machine) the sweep marks the period over, and release is refused until the written
permission of the animal control officer or the Chief of Police is recorded (6-98(3)).

Glencoe (Subd. 21(B), (E)): a vaccinated dog's owner quarantine is examined after its ten
days; release is refused with the veterinarian's report received by the Animal Control
Officer alone, and succeeds once the Minnesota Board of Animal Health's receipt is
recorded too.
"""

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from playwright.sync_api import expect

from base.roles import OFFICER
from ordinance.models import Event
from rabies.models import BiteReport, Quarantine, QuarantinePlace, QuarantineStatus
from rabies.services.quarantine import quarantine_order
from rabies.sweeps_quarantine import sweep_quarantine_ended
from tests.conftest import make_user
from tests.impound.helpers import owned_dog
from tests.rabies.helpers import make_bite, vaccinate
from tests.upload_files import pdf_bytes

CENTRAL = ZoneInfo("America/Chicago")
START = datetime(2026, 12, 4, 9, 0, tzinfo=CENTRAL)  # a Friday; the bite was Thursday
PDF = pdf_bytes()


def submit(page, name):
    with page.expect_navigation():
        page.get_by_role("button", name=name).click()


@pytest.mark.django_db(transaction=True)
def test_north_branch_home_confinement_is_released_only_with_written_permission(
    settings, tmp_path, page, login_as, assert_accessible, north_branch
):
    settings.MEDIA_ROOT = tmp_path / "media"
    dog = owned_dog(north_branch, name="Biscuit", color="Tan")
    vaccinate(dog, date(2026, 6, 1))
    officer = make_user("nora", OFFICER, [north_branch], first_name="Nora", last_name="Officer")
    with time_machine.travel(START, tick=True) as traveller:
        login_as(officer)
        page.goto(dog.get_absolute_url())
        with page.expect_navigation():
            page.get_by_role("link", name="Report a bite").click()
        assert_accessible()
        page.get_by_label("Reported by").select_option("victim")
        page.get_by_label("Reporter's name").fill("Dana Reyes")
        page.get_by_label("Reported at").fill("2026-12-03T19:00")
        page.get_by_label("Date and time of the bite").fill("2026-12-03T17:30")
        page.locator("#id_bitten_where").fill("Sidewalk, 400 block of Main St")
        page.get_by_label("A person").check()
        page.get_by_label("Victim's name").fill("Dana Reyes")
        page.get_by_label("A registered animal").check()
        submit(page, "Record the bite report")
        bite = BiteReport.objects.get(animal=dog)
        expect(page.get_by_role("heading", level=1)).to_contain_text(bite.number)
        assert bite.vaccination is not None

        with page.expect_navigation():
            page.get_by_role("link", name="Order confinement").click()
        assert_accessible()
        page.get_by_label("At the owner's residence").check()
        page.get_by_label("Confinement at home authorized by (officer)").fill("Nora Officer")
        page.get_by_label("Authorized on").fill("2026-12-04")
        page.get_by_label("Place of confinement").fill(dog.owner.address)
        submit(page, "Order confinement and issue the order")
        quarantine = Quarantine.objects.get(bite_report=bite)
        assert quarantine.status == QuarantineStatus.HOME
        assert quarantine.ends_on == date(2026, 12, 13)  # ten days from the bite (6-98)
        expect(page.get_by_text("North Branch Sec. 6-98").first).to_be_visible()
        assert_accessible()

        with page.expect_navigation():
            page.get_by_role("link", name="Log an inspection or the owner's report").click()
        page.get_by_label("Date and time").fill("2026-12-04T08:30")
        page.get_by_label("Inspected or reported by").fill("Nora Officer")
        for box in page.get_by_role("checkbox").all():
            box.check()
        page.get_by_role("radio", name="Yes").check()
        submit(page, "Record")
        errors = page.locator("main").inner_text()
        assert quarantine.inspections.filter(compliant=True).exists(), errors

        # The ten days pass; the sweep marks the period over, once.
        traveller.move_to(datetime(2026, 12, 14, 9, 0, tzinfo=CENTRAL))
        now = datetime.now(tz=CENTRAL)
        sweep_quarantine_ended(now=now)
        sweep_quarantine_ended(now=now)
        quarantine.refresh_from_db()
        assert quarantine.status == QuarantineStatus.ENDED
        ended = Event.objects.for_object(quarantine).filter(action__endswith="ended")
        assert ended.count() == 1

        page.goto(quarantine.get_absolute_url())
        with page.expect_navigation():
            page.get_by_role("link", name="Release from quarantine").click()
        submit(page, "Release from quarantine")
        expect(page.get_by_role("alert")).to_contain_text("Sec. 6-98(3)")
        quarantine.refresh_from_db()
        assert quarantine.status == QuarantineStatus.ENDED

        page.goto(quarantine.get_absolute_url())
        with page.expect_navigation():
            page.get_by_role("link", name="Record the written permission").click()
        page.get_by_label("Signed by").fill("Nora Officer")
        page.get_by_role("radio", name="Animal control officer").check()
        page.get_by_label("Dated").fill("2026-12-14")
        page.get_by_label("Reason").fill("Ten days over; the dog shows no sign of illness.")
        submit(page, "Record and issue")
        with page.expect_navigation():
            page.get_by_role("link", name="Release from quarantine").click()
        submit(page, "Release from quarantine")
        quarantine.refresh_from_db()
        assert quarantine.status == QuarantineStatus.RELEASED
        assert quarantine.permission_document is not None
        assert_accessible()


@pytest.mark.django_db(transaction=True)
def test_glencoe_quarantine_is_released_only_when_the_officer_and_the_board_have_the_report(
    settings, tmp_path, page, login_as, assert_accessible, glencoe
):
    settings.MEDIA_ROOT = tmp_path / "media"
    dog = owned_dog(glencoe, name="Fritz", color="Black")
    vaccinate(dog, date(2026, 6, 1))
    officer = make_user("gwen", OFFICER, [glencoe], first_name="Gwen", last_name="Officer")
    with time_machine.travel(START, tick=True) as traveller:
        bite = make_bite(
            glencoe,
            officer,
            animal=dog,
            bitten_at=datetime(2026, 12, 3, 17, 30, tzinfo=CENTRAL),
            reported_at=datetime(2026, 12, 3, 19, 0, tzinfo=CENTRAL),
            suspect=True,
        )
        quarantine = quarantine_order(
            bite,
            place=QuarantinePlace.HOME,
            actor=officer,
            consent_by_name="Gwen Officer",
            consent_on=date(2026, 12, 4),
            home_address=dog.owner.address,
        )
        assert quarantine.ends_on == date(2026, 12, 13)
        traveller.move_to(datetime(2026, 12, 14, 9, 0, tzinfo=CENTRAL))
        sweep_quarantine_ended(now=datetime.now(tz=CENTRAL))
        login_as(officer)
        page.goto(quarantine.get_absolute_url())
        assert_accessible()

        with page.expect_navigation():
            page.get_by_role("link", name="Record the examination").click()
        page.get_by_label("Examined on").fill("2026-12-14")
        page.get_by_label("Examined by").fill("Dr. Vera Vet")
        page.get_by_role("radio", name="Veterinarian").check()
        page.get_by_role("radio", name="No").check()
        submit(page, "Record")

        with page.expect_navigation():
            page.get_by_role("link", name="Record the veterinarian's report").click()
        page.get_by_label("Veterinarian").fill("Dr. Vera Vet")
        page.get_by_label("Inspected on").fill("2026-12-14")
        page.get_by_label("The report states that no signs of rabies were observed").check()
        page.get_by_label("The written report").set_input_files(
            {"name": "report.pdf", "mimeType": "application/pdf", "buffer": PDF}
        )
        page.get_by_label("Received by Animal Control Officer on").fill("2026-12-14")
        submit(page, "Record")

        page.goto(quarantine.get_absolute_url())
        with page.expect_navigation():
            page.get_by_role("link", name="Release from quarantine").click()
        submit(page, "Release from quarantine")
        expect(page.get_by_role("alert")).to_contain_text("Minnesota Board of Animal Health")
        quarantine.refresh_from_db()
        assert quarantine.status == QuarantineStatus.ENDED

        traveller.move_to(datetime(2026, 12, 16, 9, 0, tzinfo=CENTRAL))
        page.goto(quarantine.get_absolute_url())
        with page.expect_navigation():
            page.get_by_role("link", name="Record the veterinarian's report").click()
        page.get_by_label("Received by Minnesota Board of Animal Health on").fill("2026-12-15")
        submit(page, "Record")
        with page.expect_navigation():
            page.get_by_role("link", name="Release from quarantine").click()
        submit(page, "Release from quarantine")
        quarantine.refresh_from_db()
        assert quarantine.status == QuarantineStatus.RELEASED
        assert quarantine.report_received_by_officer_on == date(2026, 12, 14)
        assert quarantine.report_received_by_board_on == date(2026, 12, 15)
        expect(page.get_by_text("Glencoe 701 Subd. 21(E), 22(E)").first).to_be_visible()
        _ = timedelta
