"""Registry pages: personas, city scoping (404), roles (403), uploads, query counts."""

import io
import re
from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from licensing.models import Animal, Owner, Premises, RabiesVaccination
from ordinance.models import Event
from tests.licensing.factories import (
    AnimalFactory,
    OwnerFactory,
    PremisesFactory,
    RabiesVaccinationFactory,
)
from tests.upload_files import pdf_bytes, png_bytes

PDF = pdf_bytes()


PNG = png_bytes()


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


@pytest.fixture
def nb_dog(north_branch):
    owner = OwnerFactory(
        jurisdiction=north_branch,
        first_name="Ingrid",
        last_name="Halvorson",
        phone="(651) 555-0147",
    )
    return AnimalFactory(
        jurisdiction=north_branch, owner=owner, name="Biscuit", microchip="985112003344556"
    )


@pytest.fixture
def gl_dog(glencoe):
    owner = OwnerFactory(
        jurisdiction=glencoe, first_name="Gerhard", last_name="Schmidt", postal_code="55336"
    )
    return AnimalFactory(jurisdiction=glencoe, owner=owner, name="Fritz")


def owner_post(**overrides):
    data = {
        "kind": "person",
        "first_name": "Solveig",
        "last_name": "Lindgren",
        "organization_name": "",
        "address_line": "38520 Grand Avenue",
        "unit": "",
        "city": "North Branch",
        "state": "mn",
        "postal_code": "55056",
        "phone": "651-555-0111",
        "email": "",
        "is_resident": "on",
    }
    data.update(overrides)
    return data


def animal_post(**overrides):
    data = {
        "species": "dog",
        "name": "Tova",
        "breed": "Beagle",
        "color": "Tricolor",
        "sex": "female",
        "date_of_birth": "2023-04-02",
        "microchip": "985 1120 0999 9111",
        "distinguishing_traits": "",
        "acquired_on": "2023-06-01",
    }
    data.update(overrides)
    return data


def vaccination_post(**overrides):
    data = {
        "vaccinated_on": "2025-05-01",
        "duration_years": "3",
        "next_due_on": "",
        "rabies_tag_number": "NBVC-2025-0412",
        "veterinarian_name": "Dr. Karen Lindahl",
        "veterinarian_license": "MN-11873",
        "clinic_name": "Sunrise River Veterinary Clinic",
        "clinic_address": "",
        "manufacturer": "Zoetis",
        "product": "Defensor 3",
        "lot_number": "A123",
        "lot_expires_on": "",
    }
    data.update(overrides)
    return data


@pytest.mark.parametrize("persona", ["clerk", "officer", "administrator"])
def test_each_staff_persona_sees_an_owner_and_an_animal_of_their_city(
    request, persona, client_as, nb_dog
):
    client = client_as(request.getfixturevalue(persona))
    assert client.get(reverse("licensing:owner_detail", args=[nb_dog.owner.pk])).status_code == 200
    page = client.get(reverse("licensing:animal_detail", args=[nb_dog.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Biscuit" in text and "No licenses" in text and "None recorded" in text


@pytest.mark.parametrize(
    "name", ["licensing:owner_detail", "licensing:owner_edit", "licensing:animal_create"]
)
def test_a_clerk_gets_404_for_another_citys_owner(client_as, clerk, gl_dog, name):
    assert client_as(clerk).get(reverse(name, args=[gl_dog.owner.pk])).status_code == 404


@pytest.mark.parametrize(
    "name",
    [
        "licensing:animal_detail",
        "licensing:animal_edit",
        "licensing:vaccination_create",
        "licensing:animal_photo",
    ],
)
def test_a_clerk_gets_404_for_another_citys_animal(client_as, clerk, gl_dog, name):
    assert client_as(clerk).get(reverse(name, args=[gl_dog.pk])).status_code == 404


def test_a_clerk_cannot_mark_another_citys_animal_deceased(client_as, clerk, gl_dog):
    url = reverse("licensing:animal_mark_deceased", args=[gl_dog.pk])
    data = {"died_on": "2025-01-02", "note": "Owner called", "confirmed": "on"}
    assert client_as(clerk).post(url, data).status_code == 404
    gl_dog.refresh_from_db()
    assert gl_dog.is_alive()


@pytest.mark.parametrize(
    "name,arg",
    [
        ("licensing:search", None),
        ("licensing:owner_create", None),
        ("licensing:owner_detail", "owner"),
        ("licensing:animal_detail", "animal"),
    ],
)
def test_residents_get_403_even_for_their_own_records(client_as, resident, nb_dog, name, arg):
    nb_dog.owner.user = resident
    nb_dog.owner.save()
    args = {"owner": [nb_dog.owner.pk], "animal": [nb_dog.pk], None: []}[arg]
    assert client_as(resident).get(reverse(name, args=args)).status_code == 403


def test_anonymous_is_sent_to_login(client, nb_dog):
    response = client.get(reverse("licensing:animal_detail", args=[nb_dog.pk]))
    assert response.status_code == 302 and "/login/" in response.url


def test_a_single_city_clerk_registers_an_owner_without_choosing_a_city(
    client_as, clerk, north_branch
):
    client = client_as(clerk)
    page = client.get(reverse("licensing:owner_create"))
    assert 'name="jurisdiction"' not in page.content.decode()
    response = client.post(reverse("licensing:owner_create"), owner_post())
    owner = Owner.objects.get(last_name="Lindgren")
    assert response.status_code == 302 and response.url == owner.get_absolute_url()
    assert owner.jurisdiction == north_branch and owner.state == "MN"
    assert (
        Premises.objects.filter(
            jurisdiction=north_branch, address_line="38520 Grand Avenue"
        ).count()
        == 1
    )
    assert Event.objects.for_object(owner).filter(action="licensing.owner.created").exists()
    assert owner.history.first().history_user == clerk


def test_an_officer_serving_two_cities_must_choose_one_of_theirs(
    client_as, officer, glencoe, cities
):
    from ordinance.models import Jurisdiction

    elsewhere = Jurisdiction.objects.create(
        slug="cambridge",
        name="City of Cambridge",
        short_name="Cambridge",
        profile_key="north_branch",
    )
    client = client_as(officer)
    page = client.get(reverse("licensing:owner_create")).content.decode()
    assert 'name="jurisdiction"' in page and "Cambridge" not in page
    missing = client.post(reverse("licensing:owner_create"), owner_post())
    assert missing.status_code == 200 and "This field is required" in missing.content.decode()
    assert "Lindgren" in missing.content.decode()  # nothing typed is lost
    foreign = client.post(reverse("licensing:owner_create"), owner_post(jurisdiction=elsewhere.pk))
    assert foreign.status_code == 200 and not Owner.objects.exists()
    client.post(
        reverse("licensing:owner_create"),
        owner_post(jurisdiction=glencoe.pk, city="Glencoe", postal_code="55336"),
    )
    assert Owner.objects.get().jurisdiction == glencoe


def test_owner_form_errors_are_shown_next_to_the_fields(client_as, clerk, north_branch):
    response = client_as(clerk).post(
        reverse("licensing:owner_create"),
        owner_post(last_name="", postal_code="5505", phone="call me"),
    )
    text = response.content.decode()
    assert response.status_code == 200
    assert "Enter the owner&#x27;s last name." in text
    assert "Enter a ZIP code such as 55056" in text and "Enter a phone number" in text
    assert "38520 Grand Avenue" in text
    assert not Owner.objects.exists()


def test_editing_the_address_moves_living_animals_to_the_new_premises(client_as, clerk, nb_dog):
    client = client_as(clerk)
    owner = nb_dog.owner
    response = client.post(
        reverse("licensing:owner_edit", args=[owner.pk]),
        owner_post(
            first_name=owner.first_name, last_name=owner.last_name, address_line="6210 Main Street"
        ),
    )
    assert response.status_code == 302
    nb_dog.refresh_from_db()
    assert nb_dog.premises.address_line == "6210 Main Street"
    event = Event.objects.get(action="licensing.owner.updated")
    assert event.data["animals_moved"] == 1 and "address_line" in event.data["changes"]


def test_registering_an_animal_creates_its_first_ownership(client_as, clerk, nb_dog):
    owner = nb_dog.owner
    response = client_as(clerk).post(
        reverse("licensing:animal_create", args=[owner.pk]), animal_post()
    )
    animal = Animal.objects.get(name="Tova")
    assert response.status_code == 302 and response.url == animal.get_absolute_url()
    assert animal.microchip == "985112009999111"
    assert animal.premises == nb_dog.premises  # the owner's address
    ownership = animal.ownerships.get()
    assert ownership.owner == owner and ownership.started_on == date(2023, 6, 1)


@pytest.mark.parametrize("chip", ["12345678", "98511200999911", "98511200999911X"])
def test_a_bad_microchip_is_refused_next_to_the_field(client_as, clerk, nb_dog, chip):
    response = client_as(clerk).post(
        reverse("licensing:animal_create", args=[nb_dog.owner.pk]), animal_post(microchip=chip)
    )
    text = response.content.decode()
    assert response.status_code == 200 and "9, 10 or 15 digits" in text
    assert 'value="Tova"' in text
    assert not Animal.objects.filter(name="Tova").exists()


def test_a_future_date_of_birth_is_refused(client_as, clerk, nb_dog):
    response = client_as(clerk).post(
        reverse("licensing:animal_create", args=[nb_dog.owner.pk]),
        animal_post(date_of_birth="2999-01-01", acquired_on=""),
    )
    assert "date of birth cannot be in the future" in response.content.decode()
    assert not Animal.objects.filter(name="Tova").exists()


def test_a_photo_is_checked_and_served_only_through_the_access_checked_view(
    client_as, clerk, glencoe_clerk, nb_dog
):
    client = client_as(clerk)
    url = reverse("licensing:animal_edit", args=[nb_dog.pk])
    fake = SimpleUploadedFile("dog.png", PDF, content_type="image/png")
    refused = client.post(url, animal_post(name="Biscuit", photo=fake))
    assert refused.status_code == 200 and "Upload a valid image" in refused.content.decode()
    photo = SimpleUploadedFile("dog.png", PNG, content_type="image/png")
    assert client.post(url, animal_post(name="Biscuit", photo=photo)).status_code == 302
    served = client.get(reverse("licensing:animal_photo", args=[nb_dog.pk]))
    assert served.status_code == 200 and served["Content-Type"] == "image/png"
    assert served["X-Content-Type-Options"] == "nosniff"
    assert served["Content-Disposition"] == f'attachment; filename="animal-{nb_dog.pk}-photo.png"'
    # Our re-encoded copy: the same picture, not the same bytes.
    with Image.open(io.BytesIO(b"".join(served.streaming_content))) as image:
        assert image.size == (4, 4) and image.getpixel((0, 0)) == (200, 150, 80)
    other = client_as(glencoe_clerk).get(reverse("licensing:animal_photo", args=[nb_dog.pk]))
    assert other.status_code == 404


def test_recording_a_vaccination_with_a_certificate(client_as, clerk, glencoe_clerk, nb_dog):
    client = client_as(clerk)
    certificate = SimpleUploadedFile("cert.pdf", PDF, content_type="application/pdf")
    response = client.post(
        reverse("licensing:vaccination_create", args=[nb_dog.pk]),
        vaccination_post(certificate=certificate),
    )
    assert response.status_code == 302
    vaccination = RabiesVaccination.objects.get(rabies_tag_number="NBVC-2025-0412")
    assert vaccination.next_due_on == date(2028, 5, 1)  # RAB-03: given + labelled duration
    assert vaccination.recorded_by == clerk
    url = reverse("licensing:vaccination_certificate", args=[vaccination.pk])
    download = client.get(url)
    assert download.status_code == 200 and download["Content-Type"] == "application/pdf"
    assert "attachment" in download["Content-Disposition"]
    assert client_as(glencoe_clerk).get(url).status_code == 404


@pytest.mark.parametrize(
    "content,name,message",
    [
        (b"MZ\x90\x00 not really a pdf", "cert.pdf", "is not a PDF or JPEG or PNG file"),
        (b"GIF89a....", "cert.gif", "is not a PDF or JPEG or PNG file"),
    ],
)
def test_a_certificate_of_the_wrong_type_is_refused_and_nothing_is_lost(
    client_as, clerk, nb_dog, content, name, message
):
    upload = SimpleUploadedFile(name, content, content_type="application/pdf")
    response = client_as(clerk).post(
        reverse("licensing:vaccination_create", args=[nb_dog.pk]),
        vaccination_post(certificate=upload),
    )
    text = response.content.decode()
    assert response.status_code == 200 and message in text
    assert "NBVC-2025-0412" in text and "Dr. Karen Lindahl" in text
    assert not RabiesVaccination.objects.exists()


def test_a_certificate_over_the_size_limit_is_refused(client_as, clerk, nb_dog, settings):
    settings.UPLOAD_MAX_BYTES = 100
    upload = SimpleUploadedFile("cert.pdf", PDF + b"0" * 200, content_type="application/pdf")
    response = client_as(clerk).post(
        reverse("licensing:vaccination_create", args=[nb_dog.pk]),
        vaccination_post(certificate=upload),
    )
    assert response.status_code == 200
    assert "the largest accepted is 100" in response.content.decode()
    assert not RabiesVaccination.objects.exists()


@pytest.mark.parametrize(
    "overrides,field_message",
    [
        ({"vaccinated_on": "2999-01-01"}, "date cannot be in the future"),  # the form refuses it
        ({"next_due_on": "2025-05-01"}, "next due date must be after the vaccination date"),
        ({"vaccinated_on": "not a date"}, "Enter a valid date"),
    ],
)
def test_bad_vaccination_dates_are_refused_with_a_message(
    client_as, clerk, nb_dog, overrides, field_message
):
    response = client_as(clerk).post(
        reverse("licensing:vaccination_create", args=[nb_dog.pk]), vaccination_post(**overrides)
    )
    assert response.status_code == 200 and field_message in response.content.decode()
    assert not RabiesVaccination.objects.exists()


def test_marking_an_animal_deceased(client_as, clerk, nb_dog):
    client = client_as(clerk)
    url = reverse("licensing:animal_mark_deceased", args=[nb_dog.pk])
    assert client.get(url).status_code == 405
    data = {"died_on": "2025-03-04", "note": "Old age"}
    # First the confirmation step: nothing recorded yet, the choices kept.
    page = client.post(url, data)
    assert page.status_code == 200 and "Please confirm" in page.content.decode()
    assert 'name="died_on" value="2025-03-04"' in page.content.decode()
    nb_dog.refresh_from_db()
    assert nb_dog.is_alive()
    response = client.post(url, {**data, "confirmed": "on"})
    assert response.status_code == 302
    nb_dog.refresh_from_db()
    assert nb_dog.status == "deceased" and nb_dog.status_changed_on == date(2025, 3, 4)
    again = client.post(url, {**data, "confirmed": "on"})
    assert "already recorded as deceased" in again.content.decode()


def test_pages_make_a_bounded_number_of_queries(
    client_as, officer, north_branch, glencoe, django_assert_max_num_queries
):
    owner = OwnerFactory(jurisdiction=north_branch, last_name="Manydogs")
    premises = PremisesFactory(jurisdiction=north_branch, address_line=owner.address_line)
    animals = [
        AnimalFactory(jurisdiction=north_branch, owner=owner, premises=premises) for _ in range(30)
    ]
    for animal in animals[:10]:
        RabiesVaccinationFactory(animal=animal)
        RabiesVaccinationFactory(animal=animal, vaccinated_on=date(2024, 5, 1))
    client = client_as(officer)
    # 15 + the premises' animal-limit status (KEN-01): its rules and the premises' count,
    # two queries whatever the number of animals (tests/licensing/test_limit_status_pages).
    with django_assert_max_num_queries(17):
        assert client.get(reverse("licensing:owner_detail", args=[owner.pk])).status_code == 200
    # 15 + the limit status and whether a license is required, each a constant cost,
    # + the impound section's cases, one query.
    with django_assert_max_num_queries(18):
        assert (
            client.get(reverse("licensing:animal_detail", args=[animals[0].pk])).status_code == 200
        )
    with django_assert_max_num_queries(15):
        assert client.get(reverse("licensing:animal_edit", args=[animals[0].pk])).status_code == 200


def test_a_missing_record_is_404_not_500(client_as, clerk, north_branch):
    client = client_as(clerk)
    assert client.get(reverse("licensing:vaccination_certificate", args=[1])).status_code == 404
    assert client.get("/owners/abc/").status_code == 404
    assert re.search(
        r"Register an owner", client.get(reverse("licensing:owner_create")).content.decode()
    )
