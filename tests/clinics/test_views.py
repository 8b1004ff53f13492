"""The clinic pages with each role: a clinic sees only its own
certificates (404 for another clinic's), gets 403 on the clerk's and the
administrator's pages; another city's clerk gets 404; the pages stay within the query
budget with hundreds of rows; the administrator invites and deactivates."""

import pytest
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from base.roles import ADMINISTRATOR
from clinics.models import CertificateSubmission, ClinicMember, SubmissionStatus
from clinics.services import certificates
from tests.clinics.helpers import cleaned, csv_text, make_clinic, make_vet, row
from tests.conftest import make_user
from tests.licensing.factories import AnimalFactory
from tests.upload_files import pdf_bytes

QUERY_BUDGET = 10


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
    dog.owner.last_name = "Resident"
    dog.owner.save()
    return dog


def send(clinic, vet, city, **overrides):
    return certificates.certificate_submit(
        clinic=clinic,
        jurisdiction=city,
        actor=vet,
        certificate=SimpleUploadedFile("c.pdf", pdf_bytes(), content_type="application/pdf"),
        **cleaned(clinic, **overrides),
    )


def test_a_clinic_sees_only_its_own_certificates(client, clinic, vet, north_branch, dog):
    other = make_clinic([north_branch], name="Other Clinic", license_number="MN-7")
    theirs = send(other, make_vet(other, "olga"), north_branch, veterinarian_license="MN-7")
    mine = send(clinic, vet, north_branch, microchip=dog.microchip)
    client.force_login(vet)
    page = client.get(reverse("clinics:home")).content.decode()
    assert reverse("clinics:submission_detail", args=[mine.pk]) in page
    assert reverse("clinics:submission_detail", args=[theirs.pk]) not in page
    detail = client.get(reverse("clinics:submission_detail", args=[mine.pk]))
    assert detail.status_code == 200 and "Biscuit" in detail.content.decode()
    for name in ("clinics:submission_detail", "clinics:submission_file"):
        assert client.get(reverse(name, args=[theirs.pk])).status_code == 404
    for name, args in (
        ("clinics:queue", []),
        ("clinics:review", [theirs.pk]),
        ("clinics:clinic_list", []),
        ("licensing:animal_detail", [dog.pk]),
    ):
        assert client.get(reverse(name, args=args)).status_code == 403, name


def test_a_deactivated_clinic_login_sees_nothing(client, clinic, vet):
    ClinicMember.objects.filter(user=vet).update(deactivated_at="2026-01-01T00:00Z")
    client.force_login(vet)
    assert client.get(reverse("clinics:home")).status_code == 404


def test_another_citys_clerk_gets_404(client, clinic, vet, north_branch, glencoe_clerk):
    queued = send(clinic, vet, north_branch, owner_last_name="Nobody")
    client.force_login(glencoe_clerk)
    assert client.get(reverse("clinics:review", args=[queued.pk])).status_code == 404
    assert client.get(reverse("clinics:submission_file", args=[queued.pk])).status_code == 404
    for name in ("clinics:confirm", "clinics:reject", "clinics:register"):
        assert client.post(reverse(name, args=[queued.pk]), {}).status_code == 404
    assert "Nobody" not in client.get(reverse("clinics:queue")).content.decode()


def test_the_clerk_confirms_from_the_queue_and_the_animal_page_says_submitted_by(
    client, clinic, vet, north_branch, clerk, dog
):
    queued = send(clinic, vet, north_branch, animal_name="Biscuit", owner_last_name="Else")
    assert queued.status == SubmissionStatus.QUEUED
    client.force_login(clerk)
    review = client.get(reverse("clinics:review", args=[queued.pk])).content.decode()
    assert "Biscuit" in review
    response = client.post(reverse("clinics:confirm", args=[queued.pk]), {"animal": dog.pk})
    assert response.status_code == 302
    page = client.get(reverse("licensing:animal_detail", args=[dog.pk])).content.decode()
    assert f"submitted by {clinic.name}" in page
    assert reverse("clinics:submission_file", args=[queued.pk]) in page
    download = client.get(reverse("clinics:submission_file", args=[queued.pk]))
    assert download["Content-Type"] == "application/pdf"


def test_the_csv_page_lists_row_errors_and_records_a_fixed_file(client, clinic, vet):
    client.force_login(vet)
    bad = csv_text([row(), row(vaccinated_on="yesterday")]).encode()
    response = client.post(reverse("clinics:batch_new"), {"file": SimpleUploadedFile("c.csv", bad)})
    text = response.content.decode()
    assert response.status_code == 200 and "Enter a valid date." in text
    assert not CertificateSubmission.objects.exists()
    good = csv_text([row(), row(animal_name="Maple")]).encode()
    response = client.post(
        reverse("clinics:batch_new"), {"file": SimpleUploadedFile("c.csv", good)}
    )
    assert response.status_code == 302
    assert CertificateSubmission.objects.count() == 2
    template = client.get(reverse("clinics:batch_template"))
    assert template.content.decode("utf-8-sig").startswith("owner_first_name,")


def test_the_certificate_form_refuses_a_renamed_executable(client, clinic, vet):
    client.force_login(vet)
    fake = SimpleUploadedFile("signed.pdf", b"MZ\x90\x00\x03" + b"\x00" * 64)
    response = client.post(reverse("clinics:certificate_new"), {**row(), "certificate": fake})
    assert response.status_code == 200 and not CertificateSubmission.objects.exists()
    assert "is not a PDF" in response.content.decode()


def test_the_administrator_invites_and_deactivates(
    client, clinic, administrator, django_capture_on_commit_callbacks
):
    client.force_login(administrator)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("clinics:member_invite", args=[clinic.pk]),
            {"email": "Nina@Clinic.example", "first_name": "Nina", "last_name": "Vet"},
        )
    assert response.status_code == 302
    member = ClinicMember.objects.get(user__email="nina@clinic.example")
    assert member.user.has_role("veterinarian") and not member.user.has_usable_password()
    (message,) = mail.outbox
    assert message.to == ["nina@clinic.example"] and "/account/password/reset/key/" in message.body
    client.post(reverse("clinics:member_deactivate", args=[member.pk]), {"reason": "Left"})
    member.refresh_from_db()
    assert member.deactivated_at and not member.user.is_active


def test_a_deactivation_reason_it_cannot_store_is_refused_beside_the_field(
    client, clinic, administrator, vet
):
    client.force_login(administrator)
    member = ClinicMember.objects.get(user=vet)
    url = reverse("clinics:member_deactivate", args=[member.pk])
    response = client.post(url, {"reason": "left\x00for good"})
    assert response.status_code == 400
    assert f'aria-describedby="reason-{member.pk}-error"' in response.content.decode()
    response = client.post(url, {"reason": "x" * 201})
    assert "at most 200 characters" in response.content.decode()
    member.refresh_from_db()
    assert member.deactivated_at is None and member.user.is_active


def test_an_administrator_of_another_city_gets_404(client, clinic, vet, glencoe):
    admin = make_user("gladys", ADMINISTRATOR, [glencoe])
    client.force_login(admin)
    member = ClinicMember.objects.get(user=vet)
    assert client.get(reverse("clinics:clinic_detail", args=[clinic.pk])).status_code == 404
    assert client.post(reverse("clinics:member_deactivate", args=[member.pk])).status_code == 404
    assert clinic.name not in client.get(reverse("clinics:clinic_list")).content.decode()


def test_the_pages_stay_within_the_query_budget_with_hundreds_of_rows(
    client, clinic, vet, north_branch, clerk, django_assert_max_num_queries
):
    CertificateSubmission.objects.bulk_create(
        CertificateSubmission(
            clinic=clinic,
            jurisdiction=north_branch,
            submitted_by=vet,
            submitted_at="2026-11-20T10:00Z",
            status=SubmissionStatus.QUEUED,
            owner_last_name=f"Owner{i}",
            owner_address=f"{i} Main Street",
            animal_name="Rex",
            species="dog",
            vaccinated_on="2026-11-20",
            duration_years=1,
            veterinarian_name="Dr. Ada Lind",
            veterinarian_license="MN-4411",
        )
        for i in range(320)
    )
    one = CertificateSubmission.objects.first()
    for user, urls in (
        (vet, [reverse("clinics:home"), reverse("clinics:submission_detail", args=[one.pk])]),
        (clerk, [reverse("clinics:queue"), reverse("clinics:review", args=[one.pk])]),
    ):
        client.force_login(user)
        client.get(urls[0])  # the user's roles and cities come from the cache afterwards
        for url in urls:
            with django_assert_max_num_queries(QUERY_BUDGET):
                assert client.get(url).status_code == 200
