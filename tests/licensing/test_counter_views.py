"""Counter pages: the three-screen flow, documents, access and bounded queries."""

from datetime import date

import pytest
import time_machine

from licensing.models import License
from notices.models import IssuedDocument
from tests.licensing.factories import (
    AnimalFactory,
    OwnerFactory,
    PremisesFactory,
    RabiesVaccinationFactory,
)
from tests.licensing.license_factories import TagStockFactory
from tests.pdf import pdf_text
from tests.upload_files import pdf_bytes

TODAY = "2026-01-15 10:00 -06:00"


@pytest.fixture
def stock(north_branch, clerk):
    return TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2026, last_number=20)


@time_machine.travel(TODAY, tick=False)
def test_three_screens_from_new_owner_to_receipt_pdf(client_as, clerk, stock):
    client = client_as(clerk)
    resp = client.post(
        _url("licensing:counter_start"),
        {
            "first_name": "Dana",
            "last_name": "Berg",
            "address_line": "12 Elm Street",
            "city": "North Branch",
            "postal_code": "55056",
            "is_resident": "on",
        },
    )
    assert resp.status_code == 302
    owner_url = resp["Location"]
    resp = client.post(
        owner_url,
        {
            "action": "animal",
            "animal-species": "dog",
            "animal-name": "Scout",
            "animal-sex": "male",
            "animal-breed": "Beagle",
            "animal-color": "Tricolor",
            "animal-date_of_birth": "2023-04-01",
            "animal-acquired_on": "2023-06-01",
        },
    )
    assert resp.status_code == 302
    animal_url = resp["Location"]
    page = client.get(animal_url).content.decode()
    assert "No rabies vaccination is on file" in page and "6-61" in page
    resp = client.post(
        animal_url,
        {
            "action": "vaccination",
            "vacc-vaccinated_on": "2025-09-01",
            "vacc-duration_years": "3",
            "vacc-veterinarian_name": "Dr. Holm",
            "vacc-veterinarian_license": "MN-1",
        },
    )
    assert resp.status_code == 302
    license_pk_before = License.objects.count()
    animal = License._meta.apps.get_model("licensing", "Animal").objects.get(name="Scout")
    pay_url = _url("licensing:counter_pay", animal.pk)
    page = client.get(pay_url).content.decode()
    assert "$18.00" in page and "Demo Res." in page
    # Cash needs the amount tendered, next to its field; less than the
    # total is refused there too.
    resp = client.post(pay_url, {"method": "cash"})
    assert resp.status_code == 200
    assert "Enter the amount of cash handed over." in resp.content.decode()
    resp = client.post(pay_url, {"method": "cash", "amount_tendered": "10.00"})
    assert "is less than the total ($18.00)" in resp.content.decode()
    assert License.objects.count() == license_pk_before
    resp = client.post(pay_url, {"method": "cash", "amount_tendered": "20.00"})
    assert resp.status_code == 302, resp.content.decode()[:2000]
    assert License.objects.count() == license_pk_before + 1
    page = client.get(resp["Location"]).content.decode()
    assert "Receipt (PDF)" in page and "80 mm" in page
    assert "Cash tendered" in page and "$20.00" in page and "Change due" in page
    assert "$2.00" in page
    receipt_doc = IssuedDocument.objects.get(kind="receipt")
    pdf = client.get(_url("notices:document_pdf", receipt_doc.pk))
    assert pdf.status_code == 200
    text = pdf_text(b"".join(pdf.streaming_content) if pdf.streaming else pdf.content)
    assert "Receipt number: 1" in text and "Tag number: 1, year 2026" in text
    assert "dog licen" in text.lower() and "$18.00" in text and "Demo Res." in text
    cert = IssuedDocument.objects.get(kind="license_certificate")
    from notices.services import document_pdf

    assert "NORTH BRANCH DOG TAG" in pdf_text(document_pdf(cert))


def _url(name, *args):
    from django.urls import reverse

    return reverse(name, args=args)


@time_machine.travel(TODAY, tick=False)
def test_glencoe_counter_says_licensing_is_deleted(client_as, glencoe_clerk, glencoe):
    owner = OwnerFactory(jurisdiction=glencoe)
    page = client_as(glencoe_clerk).get(_url("licensing:counter_animal", owner.pk)).content.decode()
    assert "does not issue dog licenses" in page and "701 Subd. 2(D)" in page


def test_other_city_gets_404_wrong_role_403(
    client_as, glencoe_clerk, officer, north_branch, resident
):
    owner = OwnerFactory(jurisdiction=north_branch)
    dog = AnimalFactory(
        jurisdiction=north_branch, owner=owner, premises=PremisesFactory(jurisdiction=north_branch)
    )
    client = client_as(glencoe_clerk)
    assert client.get(_url("licensing:counter_animal", owner.pk)).status_code == 404
    assert client.get(_url("licensing:counter_pay", dog.pk)).status_code == 404
    assert client_as(officer).get(_url("licensing:counter_pay", dog.pk)).status_code == 403
    assert client_as(resident).get(_url("licensing:counter_start")).status_code == 403


@time_machine.travel(TODAY, tick=False)
def test_counter_pages_make_bounded_queries(
    client_as, clerk, north_branch, stock, django_assert_max_num_queries
):
    owner = OwnerFactory(jurisdiction=north_branch, last_name="Many")
    premises = PremisesFactory(jurisdiction=north_branch, address_line=owner.address_line)
    dogs = [
        AnimalFactory(jurisdiction=north_branch, owner=owner, premises=premises) for _ in range(5)
    ]
    others = AnimalFactory.create_batch(300, jurisdiction=north_branch)
    for dog in dogs[:1] + others[:50]:
        RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))
    client = client_as(clerk)
    with django_assert_max_num_queries(30):
        assert client.get(_url("licensing:counter_start"), {"q": "a"}).status_code == 200
    with django_assert_max_num_queries(30):
        assert (
            client.get(
                _url("licensing:counter_animal", owner.pk), {"animal": dogs[0].pk}
            ).status_code
            == 200
        )
    with django_assert_max_num_queries(30):
        assert client.get(_url("licensing:counter_pay", dogs[0].pk)).status_code == 200
    with django_assert_max_num_queries(30):
        assert client.get(_url("licensing:tag_stock")).status_code == 200


def test_bad_input_is_not_a_500(client_as, clerk, north_branch, stock):
    client = client_as(clerk)
    owner = OwnerFactory(jurisdiction=north_branch)
    response = client.get(_url("licensing:counter_animal", owner.pk), {"animal": "abc"})
    assert response.status_code == 200
    resp = client.post(
        _url("licensing:tag_stock"),
        {"year": "2026", "first_number": "9", "last_number": "3", "received_on": "bad"},
    )
    assert resp.status_code == 200 and b"last number" in resp.content.lower()


# --- Step 2 of the counter uses the registry services (one implementation per rule) ----


def test_counter_vaccination_takes_the_certificate_upload_with_the_registry_checks(
    client_as, clerk, north_branch, settings, tmp_path
):
    """The counter's certificate upload is checked like the registry's (type by content,
    size against UPLOAD_MAX_BYTES), and stored when it is a real PDF (RAB-05)."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from licensing.models import RabiesVaccination

    settings.MEDIA_ROOT = str(tmp_path)
    owner = OwnerFactory(jurisdiction=north_branch)
    dog = AnimalFactory(jurisdiction=north_branch, owner=owner)
    url = _url("licensing:counter_animal", owner.pk) + f"?animal={dog.pk}"
    client = client_as(clerk)
    post = {
        "action": "vaccination",
        "vacc-vaccinated_on": "2025-09-01",
        "vacc-duration_years": "3",
        "vacc-veterinarian_name": "Dr. Holm",
        "vacc-veterinarian_license": "MN-1",
    }
    fake = SimpleUploadedFile("cert.pdf", b"MZ not a pdf", content_type="application/pdf")
    resp = client.post(url, {**post, "vacc-certificate": fake})
    assert resp.status_code == 200
    page = resp.content.decode()
    assert "This file is not a PDF" in page and 'value="Dr. Holm"' in page
    assert not RabiesVaccination.objects.filter(animal=dog).exists()

    real = SimpleUploadedFile("cert.pdf", pdf_bytes(), content_type="application/pdf")
    resp = client.post(url, {**post, "vacc-certificate": real})
    assert resp.status_code == 302
    vaccination = RabiesVaccination.objects.get(animal=dog)
    assert vaccination.certificate.name.endswith(".pdf")
    assert vaccination.recorded_by == clerk


def test_counter_refuses_a_vaccination_without_the_veterinarians_license(
    client_as, clerk, north_branch
):
    """RAB-05 through the one registry service: the counter shows its error at the field."""
    owner = OwnerFactory(jurisdiction=north_branch)
    dog = AnimalFactory(jurisdiction=north_branch, owner=owner)
    url = _url("licensing:counter_animal", owner.pk) + f"?animal={dog.pk}"
    resp = client_as(clerk).post(
        url,
        {
            "action": "vaccination",
            "vacc-vaccinated_on": "2999-01-01",
            "vacc-duration_years": "1",
            "vacc-veterinarian_name": "Dr. Holm",
            "vacc-veterinarian_license": "MN-1",
        },
    )
    assert resp.status_code == 200
    assert "date cannot be in the future" in resp.content.decode()  # the form, first


def test_counter_animal_dates_are_checked_by_the_registry_service(client_as, clerk, north_branch):
    owner = OwnerFactory(jurisdiction=north_branch)
    resp = client_as(clerk).post(
        _url("licensing:counter_animal", owner.pk),
        {
            "action": "animal",
            "animal-species": "dog",
            "animal-name": "Ghost",
            "animal-breed": "Husky",  # what the application states (LIC-04)
            "animal-color": "White",
            "animal-sex": "male",
            "animal-date_of_birth": "2024-04-01",
            "animal-acquired_on": "2023-06-01",
        },
    )
    assert resp.status_code == 200
    page = resp.content.decode()
    assert "cannot be before the date of birth" in page and 'value="Ghost"' in page
    assert not owner.animals.exists()


def test_counter_new_owner_and_animal_share_the_registry_premises_and_history(
    client_as, clerk, north_branch
):
    """Counter and registry write the same rows: one Premises per address, a first
    Ownership, history stamped with the clerk, and the registry's events."""
    from licensing.models import Owner, Premises
    from ordinance.models import Event

    client = client_as(clerk)
    resp = client.post(
        _url("licensing:counter_start"),
        {
            "first_name": "Ada",
            "last_name": "Lind",
            "address_line": "5 Elm St",
            "city": "North Branch",
            "postal_code": "55056",
        },
    )
    owner = Owner.objects.get(last_name="Lind")
    assert resp.status_code == 302 and owner.jurisdiction == north_branch
    assert owner.history.first().history_user == clerk
    client.post(
        resp["Location"],
        {
            "action": "animal",
            "animal-species": "dog",
            "animal-name": "Pip",
            "animal-sex": "female",
            # What North Branch's application states (LIC-04, NB Sec. 6-61).
            "animal-breed": "Beagle",
            "animal-color": "Tricolor",
            "animal-date_of_birth": "2024-04-01",
        },
    )
    animal = owner.animals.get()
    assert animal.premises == Premises.objects.get(address_line="5 Elm St")
    assert animal.ownerships.get().note
    assert set(
        Event.objects.filter(action__startswith="licensing.").values_list("action", flat=True)
    ) >= {"licensing.owner.created", "licensing.animal.registered"}
