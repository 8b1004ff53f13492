"""'s first done-when in a real browser: a clinic uploads a 200-row CSV of
certificates with 5 bad rows (nothing is recorded, each row's error in the form's words),
fixes them and sends the file again; 180 rows match and are recorded, the 20 unmatched
wait for the clerk, who confirms the animal of those whose owner moved and registers the
newcomers; a North Branch dog whose application waited on
rabies goes back to the clerk and its owner's e-mail is in the outbox. axe passes on
the new pages.

Rules: RAB-01, RAB-05 (a licensed veterinarian of the clinic), LIC-04."""

import pytest
import time_machine
from django.core import mail
from playwright.sync_api import expect

from clinics.models import CertificateSubmission, SubmissionStatus
from licensing.models import OnlineApplication
from licensing.models.online import ApplicationStatus
from licensing.services.applications import application_return, application_submit
from tests.clinics.helpers import csv_text, make_clinic, make_vet, row
from tests.e2e.conftest import axe_violations
from tests.licensing.factories import AnimalFactory
from tests.licensing.online_helpers import (
    RENEWAL_DAY,
    at,
    certificate_fields,
    certificate_pdf,
    licensed_dog,
    stock,
)

ROWS = 200
UPLOAD_TIMEOUT_MS = 180_000
BAD_ROWS = 5
NEWCOMERS = 12  # owners the registry does not know: the clerk registers them
MOVERS = 8  # known dogs whose owners moved: too weak a match, the clerk confirms them
UNMATCHED = NEWCOMERS + MOVERS
MATCHED = ROWS - UNMATCHED - 1  # matched by chip, owner and address; and Biscuit


@pytest.fixture
def world(north_branch, resident, clerk, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    with time_machine.travel(at(RENEWAL_DAY), tick=True):
        stock(north_branch, clerk)
        biscuit = licensed_dog(north_branch, resident, clerk)
        application = application_submit(
            animal=biscuit,
            actor=resident,
            on=RENEWAL_DAY,
            now=at(RENEWAL_DAY),
            certificate=certificate_pdf(),
            **certificate_fields(),
        )
        application_return(application, actor=clerk, reason="The certificate is not signed.")
        dogs = [
            AnimalFactory(jurisdiction=north_branch, microchip=f"9851120000{i:05d}")
            for i in range(MATCHED)
        ]
        movers = []
        for i in range(MOVERS):
            dog = AnimalFactory(jurisdiction=north_branch, name=f"Rover{i}")
            dog.owner.last_name = f"Mover{i}"
            dog.owner.save()
            movers.append(dog)
        clinic = make_clinic([north_branch])
        vet = make_vet(clinic)
        yield biscuit, application, dogs + movers, vet


def _rows(biscuit, animals, *, bad: bool) -> list[dict]:
    dogs, movers = animals[:MATCHED], animals[MATCHED:]
    rows = [
        row(
            microchip=d.microchip,
            owner_first_name=d.owner.first_name,
            owner_last_name=d.owner.last_name,
            owner_address=d.owner.address_line,
            animal_name=d.name,
            vaccinated_on=str(RENEWAL_DAY),
        )
        for d in dogs
    ]
    rows.append(
        row(
            rabies_tag_number=biscuit.vaccinations.get().rabies_tag_number,
            owner_first_name=biscuit.owner.first_name,
            owner_last_name=biscuit.owner.last_name,
            owner_address=biscuit.owner.address_line,
            animal_name=biscuit.name,
            vaccinated_on=str(RENEWAL_DAY),
        )
    )
    rows += [
        row(owner_last_name=f"Newcomer{i}", animal_name=f"Stray{i}", vaccinated_on=str(RENEWAL_DAY))
        for i in range(NEWCOMERS)
    ]
    rows += [
        row(
            owner_last_name=m.owner.last_name,
            owner_address=f"{900 + i} New Home Road",
            animal_name=m.name,
            vaccinated_on=str(RENEWAL_DAY),
        )
        for i, m in enumerate(movers)
    ]
    assert len(rows) == ROWS
    if bad:
        rows[1]["vaccinated_on"] = "12/05/2026x"
        rows[2]["veterinarian_license"] = "MN-0000"
        rows[3]["animal_name"] = ""
        rows[50]["duration_years"] = "2"
        rows[150]["species"] = "lizard"
    return rows


def _upload(page, text: str, tmp_path, name):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    page.goto("/vets/certificates/batch/")
    page.get_by_label("CSV file of certificates").set_input_files(str(path))
    # 200 rows are matched and recorded in the request: on a loaded two-core CI machine
    # that can take longer than the default 10 seconds.
    with page.expect_navigation(timeout=UPLOAD_TIMEOUT_MS):
        page.get_by_role("button", name="Send the file").click(timeout=UPLOAD_TIMEOUT_MS)


@pytest.mark.django_db(transaction=True)
def test_a_clinic_fixes_its_csv_and_the_clerk_resolves_the_unmatched(
    world, page, login_as, clerk, tmp_path
):
    biscuit, application, dogs, vet = world
    login_as(vet)
    _upload(page, csv_text(_rows(biscuit, dogs, bad=True)), tmp_path, "bad.csv")
    errors = page.locator("#row-errors")
    expect(errors).to_contain_text(f"{BAD_ROWS} errors: nothing was recorded.")
    expect(errors).to_contain_text("Enter a valid date.")
    expect(errors).to_contain_text("not the license number of a veterinarian")
    assert not axe_violations(page)
    assert not CertificateSubmission.objects.exists()

    _upload(page, csv_text(_rows(biscuit, dogs, bad=False)), tmp_path, "fixed.csv")
    expect(page.locator("main")).to_contain_text(f"{MATCHED + 1 + UNMATCHED}")
    assert not axe_violations(page)
    statuses = list(CertificateSubmission.objects.values_list("status", flat=True))
    assert statuses.count(SubmissionStatus.MATCHED) == MATCHED + 1
    assert statuses.count(SubmissionStatus.QUEUED) == UNMATCHED

    application = OnlineApplication.objects.get(pk=application.pk)
    assert application.status == ApplicationStatus.SUBMITTED  # back with the clerk
    assert any(m.to == ["rita@example.org"] and "arrived" in m.subject for m in mail.outbox)

    page.context.clear_cookies()
    login_as(clerk)
    page.goto("/vets/queue/")
    assert not axe_violations(page)
    for turn in range(UNMATCHED):
        page.goto("/vets/queue/")
        with page.expect_navigation():
            page.locator("main table tbody a").first.click()
        if turn in (0, UNMATCHED - 1):
            assert not axe_violations(page)
        known = page.get_by_role("button", name="This is the animal")
        register = "Register the owner and animal as the certificate names them"
        with page.expect_navigation():
            if known.count():
                known.first.click()
            else:
                page.get_by_role("button", name=register).click()
    expect(page.locator("main")).to_contain_text("Nothing waiting.")
    assert not CertificateSubmission.objects.filter(status=SubmissionStatus.QUEUED).exists()
    done = list(CertificateSubmission.objects.values_list("status", flat=True))
    assert done.count(SubmissionStatus.CONFIRMED) == MOVERS
    assert done.count(SubmissionStatus.REGISTERED) == NEWCOMERS
    movers = CertificateSubmission.objects.filter(status=SubmissionStatus.CONFIRMED)
    assert all(s.animal.owner.last_name == s.owner_last_name for s in movers)

    page.goto(f"/animals/{biscuit.pk}/")
    expect(page.locator("main")).to_contain_text("submitted by Lakes Veterinary Clinic")
