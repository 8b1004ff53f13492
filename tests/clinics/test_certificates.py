"""Certificates from clinics: recorded through vaccination_record when
matched, queued otherwise; CSV rows checked by the form; the clerk's three decisions; an
application waiting on rabies goes back to the clerk and its owner is told."""

import pytest
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile

from clinics.forms import BatchForm, CertificateForm
from clinics.models import CertificateSubmission, SubmissionStatus
from clinics.services import certificates
from kernel.kept import RecordKept
from licensing.models import Animal, OnlineApplication, RabiesVaccination
from licensing.models.online import ApplicationStatus
from licensing.services.applications import application_return, application_submit
from ordinance.refusals import Refused
from tests.clinics.helpers import cleaned, csv_text, make_clinic, make_vet, row
from tests.licensing.factories import AnimalFactory
from tests.licensing.online_helpers import (
    RENEWAL_DAY,
    at,
    certificate_fields,
    certificate_pdf,
    licensed_dog,
    stock,
)

NOW = at(RENEWAL_DAY)


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def clinic(north_branch):
    return make_clinic([north_branch])


@pytest.fixture
def vet(clinic):
    return make_vet(clinic)


@pytest.fixture
def dog(north_branch):
    dog = AnimalFactory(jurisdiction=north_branch, name="Biscuit", microchip="985112003456789")
    dog.owner.first_name, dog.owner.last_name = "Rita", "Resident"
    dog.owner.address_line = "100 Main Street"
    dog.owner.save()
    return dog


def submit(clinic, vet, city, **overrides):
    return certificates.certificate_submit(
        clinic=clinic, jurisdiction=city, actor=vet, now=NOW, **cleaned(clinic, **overrides)
    )


def test_a_matched_certificate_is_recorded_by_the_registry_service(clinic, vet, dog, north_branch):
    s = submit(clinic, vet, north_branch, microchip=dog.microchip)
    assert s.status == SubmissionStatus.MATCHED and s.animal == dog and s.score >= 70
    vaccination = RabiesVaccination.objects.get(animal=dog)
    assert s.vaccination == vaccination
    assert vaccination.clinic_name == clinic.name
    assert vaccination.veterinarian_license == "MN-4411"
    assert str(vaccination.next_due_on) == "2029-11-20"  # RAB-03: 3-year vaccine


def test_an_unmatched_certificate_waits_for_the_clerk(clinic, vet, dog, north_branch):
    s = submit(clinic, vet, north_branch, owner_last_name="Nobody", animal_name="Rex")
    assert s.status == SubmissionStatus.QUEUED and s.vaccination is None
    assert not RabiesVaccination.objects.exists()


def test_a_clinic_cannot_send_for_a_city_it_does_not_serve(clinic, vet, glencoe):
    with pytest.raises(Refused, match="not an active clinic serving Glencoe"):
        submit(clinic, vet, glencoe)


def test_the_form_refuses_a_veterinarian_not_of_the_clinic(clinic):
    form = CertificateForm(row(veterinarian_license="MN-9999"), clinic=clinic)
    assert not form.is_valid()
    assert "not the license number of a veterinarian" in form.errors["veterinarian_license"][0]


# --- CSV -----------------------------------------------------------------------------


def rows_of(clinic, text):
    return certificates.batch_rows(text, lambda data: CertificateForm(data, clinic=clinic))


def test_a_csv_with_bad_rows_records_nothing_and_says_why_in_the_forms_words(clinic):
    text = csv_text(
        [
            row(),
            row(vaccinated_on="20/11/2026"),
            row(animal_name=""),
            row(microchip="12AB"),
        ]
    )
    with pytest.raises(Refused) as refused:
        rows_of(clinic, text)
    errors = {(e.row, e.label): e.message for e in refused.value.checks}
    form = CertificateForm(row(vaccinated_on="20/11/2026"), clinic=clinic)
    form.is_valid()
    assert errors[(3, "Date vaccinated")] == form.errors["vaccinated_on"][0]
    assert errors[(4, "Animal's name")] == "This field is required."
    assert "9, 10 or 15 digits" in errors[(5, "Microchip number")]
    assert not any(r == 2 for r, _ in errors)
    assert not CertificateSubmission.objects.exists()


def test_a_good_csv_is_recorded_row_by_row(clinic, vet, dog, north_branch):
    text = "\ufeff" + csv_text(
        [row(microchip=dog.microchip), row(owner_last_name="Stranger", animal_name="Rex")]
    )
    batch = certificates.batch_submit(
        clinic=clinic, jurisdiction=north_branch, actor=vet, rows=rows_of(clinic, text), now=NOW
    )
    got = {s.row_number: s.status for s in batch.submissions.all()}
    assert got == {2: SubmissionStatus.MATCHED, 3: SubmissionStatus.QUEUED}


def test_a_csv_without_the_header_is_refused(clinic):
    with pytest.raises(Refused) as refused:
        rows_of(clinic, "Rita,Resident\n")
    assert "download the template" in refused.value.checks[0].message


@pytest.mark.parametrize(
    "data, words",
    [
        (b"MZ\x90\x00\x03\x00\x00\x00\x04\x00", "not a CSV text file"),  # an .exe renamed
        (b"\xff\xfe\xfa bad", "not a CSV text file"),
        (b"", "empty"),
    ],
)
def test_the_csv_upload_is_checked_whole(data, words):
    form = BatchForm(files={"file": SimpleUploadedFile("certs.csv", data)})
    assert not form.is_valid()
    assert words in form.errors["file"][0]


def test_an_oversize_csv_is_refused(settings):
    settings.UPLOAD_MAX_BYTES = 100
    form = BatchForm(files={"file": SimpleUploadedFile("certs.csv", b"a," * 100)})
    assert not form.is_valid() and "largest accepted" in form.errors["file"][0]


def test_the_signed_certificate_is_checked_whole(clinic):
    fake = SimpleUploadedFile("certificate.pdf", b"MZ\x90\x00 not a pdf")
    form = CertificateForm(row(), {"certificate": fake}, clinic=clinic, with_file=True)
    assert not form.is_valid() and "certificate" in form.errors
    form = CertificateForm(row(), {"certificate": certificate_pdf()}, clinic=clinic, with_file=True)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["certificate"].name.endswith(".pdf")


# --- The clerk's queue ---------------------------------------------------------------


def test_the_clerk_confirms_rejects_or_registers(clinic, vet, dog, clerk, north_branch):
    a = submit(clinic, vet, north_branch, animal_name="Biscuit", owner_last_name="Other")
    b = submit(clinic, vet, north_branch, owner_last_name="Nobody", animal_name="Rex")
    c = submit(clinic, vet, north_branch, owner_last_name="Newcomer", animal_name="Juno")
    certificates.certificate_confirm(submission=a, animal=dog, actor=clerk, now=NOW)
    with pytest.raises(Refused):
        certificates.certificate_reject(submission=b, actor=clerk, reason=" ", now=NOW)
    certificates.certificate_reject(submission=b, actor=clerk, reason="Duplicate", now=NOW)
    certificates.certificate_register(submission=c, actor=clerk, now=NOW)
    a.refresh_from_db(), b.refresh_from_db(), c.refresh_from_db()
    assert a.status == SubmissionStatus.CONFIRMED and a.vaccination.animal == dog
    assert b.status == SubmissionStatus.REJECTED and b.reject_reason == "Duplicate"
    juno = Animal.objects.get(name="Juno")
    assert c.status == SubmissionStatus.REGISTERED and c.animal == juno
    assert juno.owner.last_name == "Newcomer" and juno.vaccinations.count() == 1
    with pytest.raises(Refused):  # decided once
        certificates.certificate_reject(submission=a, actor=clerk, reason="Oops", now=NOW)


def test_a_clerk_of_another_city_cannot_decide(clinic, vet, dog, glencoe_clerk, north_branch):
    s = submit(clinic, vet, north_branch, owner_last_name="Nobody")
    with pytest.raises(Refused, match="You do not serve"):
        certificates.certificate_reject(submission=s, actor=glencoe_clerk, reason="x", now=NOW)


def test_a_rejected_certificate_is_never_deleted(clinic, vet, north_branch):
    s = submit(clinic, vet, north_branch, owner_last_name="Nobody")
    with pytest.raises(RecordKept, match="never deleted. Reject a certificate instead."):
        s.delete()


# --- The application waiting on rabies ---------------------------------------------------


def test_the_waiting_application_becomes_ready_and_the_owner_is_told(
    north_branch, resident, clerk, clinic, vet, django_capture_on_commit_callbacks
):
    stock(north_branch, clerk)
    dog = licensed_dog(north_branch, resident, clerk)
    application = application_submit(
        animal=dog,
        actor=resident,
        on=RENEWAL_DAY,
        now=NOW,
        certificate=certificate_pdf(),
        **certificate_fields(),
    )
    application_return(application, actor=clerk, reason="The certificate is not signed.")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        s = submit(
            clinic,
            vet,
            north_branch,
            rabies_tag_number=dog.vaccinations.get().rabies_tag_number,
            owner_first_name=dog.owner.first_name,
            owner_last_name=dog.owner.last_name,
            owner_address=dog.owner.address_line,
            animal_name=dog.name,
        )
    assert s.status == SubmissionStatus.MATCHED
    application = OnlineApplication.objects.get(pk=application.pk)
    assert application.status == ApplicationStatus.SUBMITTED  # back with the clerk
    assert application.uses_vaccination == s.vaccination
    (message,) = mail.outbox
    assert message.to == ["rita@example.org"]
    assert "arrived from the clinic" in message.subject and "Biscuit" in message.body
