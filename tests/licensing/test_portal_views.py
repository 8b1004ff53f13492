"""The resident's portal: own records only, license and vaccination status with citations,
documents, certificates, 403 for staff, 404 for another resident's records, bounded queries.

Rules: LIC-01, LIC-07 (expiry and its citation), LIC-08 (tag number and year), RAB-01,
RAB-03 (next due), REC-01 (receipts the resident may download).
"""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.files.base import ContentFile
from django.urls import reverse

from licensing.models import AnimalStatus, LicenseStatus, Species, Tag, TagStatus
from notices.services import document_issue
from tests.licensing.factories import (
    AnimalFactory,
    JurisdictionFactory,
    OwnerFactory,
    RabiesVaccinationFactory,
)
from tests.licensing.license_factories import LicenseFactory, TagStockFactory
from tests.upload_files import pdf_bytes

CHICAGO = ZoneInfo("America/Chicago")
TODAY = datetime(2026, 6, 15, 10, tzinfo=CHICAGO)
HOME = reverse("licensing:portal_home")
PDF_BYTES = pdf_bytes()

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def frozen_today():
    with time_machine.travel(TODAY, tick=False):
        yield


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def rita_owner(north_branch, resident):
    return OwnerFactory(
        jurisdiction=north_branch, user=resident, first_name="Rita", last_name="Resident"
    )


def licensed_dog(
    owner,
    clerk,
    *,
    name="Juniper",
    term_start=date(2026, 1, 1),
    expires_on=date(2026, 12, 31),
    tag_number=7,
    status=LicenseStatus.ACTIVE,
):
    # premises=None: several animals of one owner would clash on the factory's premises.
    dog = AnimalFactory(
        jurisdiction=owner.jurisdiction,
        owner=owner,
        name=name,
        breed="Golden Retriever",
        premises=None,
    )
    license = LicenseFactory(
        jurisdiction=owner.jurisdiction,
        animal=dog,
        owner=owner,
        issued_by=clerk,
        term_start=term_start,
        expires_on=expires_on,
        status=status,
    )
    stock = TagStockFactory(
        jurisdiction=owner.jurisdiction,
        recorded_by=clerk,
        year=expires_on.year,
        first_number=tag_number,
        last_number=tag_number,
    )
    Tag.objects.filter(stock=stock, number=tag_number).update(
        status=TagStatus.ISSUED, license=license, issued_on=term_start
    )
    return dog, license


@pytest.fixture
def juniper(rita_owner, clerk):
    dog, license = licensed_dog(rita_owner, clerk)
    vaccination = RabiesVaccinationFactory(
        animal=dog,
        vaccinated_on=date(2025, 6, 1),
        next_due_on=date(2028, 6, 1),
        veterinarian_name="Dr. Holm",
        veterinarian_license="MN-1",
    )
    vaccination.certificate.save("juniper-rabies.pdf", ContentFile(PDF_BYTES))
    return dog, license, vaccination


@pytest.fixture
def bobs_dog(north_branch, other_resident, clerk):
    owner = OwnerFactory(jurisdiction=north_branch, user=other_resident)
    dog, license = licensed_dog(owner, clerk, name="Otis", tag_number=9)
    vaccination = RabiesVaccinationFactory(
        animal=dog, veterinarian_name="Dr. Holm", veterinarian_license="MN-1"
    )
    vaccination.certificate.save("otis-rabies.pdf", ContentFile(PDF_BYTES))
    return dog, vaccination


def issue_receipt(owner_user, clerk, north_branch, number="17"):
    return document_issue(
        kind="receipt",
        template="sample_receipt.html",
        jurisdiction=north_branch,
        actor=clerk,
        title="Receipt",
        number=number,
        owner_user=owner_user,
        now=TODAY,
        context={
            "received_from": "Rita Resident",
            "lines": [],
            "total": "18.00",
            "paid_with": "cash",
        },
    )


# --- The home page ----------------------------------------------------------------------


def test_the_residents_home_is_the_portal(client_as, resident, juniper):
    response = client_as(resident).get(reverse("accounts:resident_home"), follow=True)
    assert response.redirect_chain == [(HOME, 302)]
    assert "Juniper" in response.content.decode()
    assert response.templates[0].name == "licensing/portal/home.html"


def test_home_shows_the_dog_its_license_tag_expiry_and_citation(client_as, resident, juniper):
    dog, license, _vaccination = juniper
    response = client_as(resident).get(HOME)
    assert response.status_code == 200
    text = response.content.decode()
    assert "Juniper" in text and "Golden Retriever" in text and "Dog" in text
    assert f"License {license.number}, tag 7 (2026), expires Dec 31, 2026." in text
    # LIC-07: the expiry date with the section that sets it, from NB's profile.
    assert "North Branch Sec. 6-62" in text
    assert reverse("licensing:portal_animal", args=[dog.pk]) in text


def test_home_shows_the_latest_vaccination_and_next_due_with_citation(client_as, resident, juniper):
    dog, _license, _vaccination = juniper
    RabiesVaccinationFactory(
        animal=dog,
        vaccinated_on=date(2022, 6, 1),
        next_due_on=date(2025, 6, 1),
        veterinarian_name="Dr. Old",
    )
    text = client_as(resident).get(HOME).content.decode()
    # The one vaccination answer (licensing.services.vaccination), as staff see it.
    assert "Vaccinated Jun 1, 2025; due again by Jun 1, 2028." in text
    assert "Jun 1, 2022" not in text  # only the latest on the home page
    assert "North Branch Sec. 6-77" in text  # RAB-01: the requirement the date serves
    assert "overdue" not in text


def test_an_overdue_vaccination_says_so(client_as, rita_owner, resident):
    cat = AnimalFactory(
        jurisdiction=rita_owner.jurisdiction, owner=rita_owner, species=Species.CAT, name="Mochi"
    )
    RabiesVaccinationFactory(
        animal=cat, vaccinated_on=date(2023, 6, 1), next_due_on=date(2026, 6, 1)
    )
    text = client_as(resident).get(HOME).content.decode()
    assert "Vaccination overdue" in text
    assert "Vaccinated Jun 1, 2023; it was due again by Jun 1, 2026." in text
    assert "bring the veterinarian's certificate to the clerk's counter" in text


def test_a_cat_in_north_branch_needs_no_license_and_says_why(client_as, rita_owner, resident):
    AnimalFactory(
        jurisdiction=rita_owner.jurisdiction, owner=rita_owner, species=Species.CAT, name="Mochi"
    )
    text = client_as(resident).get(HOME).content.decode()
    assert "License not required" in text
    assert "North Branch does not license cats." in text
    assert "North Branch Sec. 6-60" in text  # LIC-01/LIC-18: licensed species


def test_an_unlicensed_dog_is_told_where_to_apply(client_as, rita_owner, resident):
    AnimalFactory(jurisdiction=rita_owner.jurisdiction, owner=rita_owner, name="Scout")
    text = client_as(resident).get(HOME).content.decode()
    assert "License required, unlicensed" in text and "North Branch Sec. 6-60" in text
    assert "6408 Elm Street" in text  # City Hall's address, from the Jurisdiction


def test_last_years_license_shows_as_lapsed(client_as, rita_owner, resident, clerk):
    licensed_dog(
        rita_owner,
        clerk,
        term_start=date(2025, 1, 1),
        expires_on=date(2025, 12, 31),
        status=LicenseStatus.EXPIRED,
    )
    text = client_as(resident).get(HOME).content.decode()
    assert "License expired" in text and "expired Dec 31, 2025" in text
    assert "North Branch Sec. 6-62" in text


def test_a_renewal_for_next_term_is_shown_before_it_starts(client_as, rita_owner, resident, clerk):
    with time_machine.travel(datetime(2026, 12, 10, 10, tzinfo=CHICAGO), tick=False):
        licensed_dog(rita_owner, clerk, term_start=date(2027, 1, 1), expires_on=date(2027, 12, 31))
        text = client_as(resident).get(HOME).content.decode()
    assert "Licensed" in text
    assert "for the next term, from Jan 1, 2027 to Dec 31, 2027" in text


def test_glencoe_dog_shows_that_glencoe_issues_no_licenses(client_as, glencoe, resident):
    owner = OwnerFactory(jurisdiction=glencoe, user=resident)
    AnimalFactory(jurisdiction=glencoe, owner=owner, name="Biscuit")
    text = client_as(resident).get(HOME).content.decode()
    assert "Glencoe issues no dog licenses" in text
    assert "Glencoe 701 Subd. 2(D), Ord. No. 571" in text  # LIC-16


def test_records_in_two_cities_are_all_shown_with_the_city(client_as, resident, juniper, glencoe):
    owner = OwnerFactory(jurisdiction=glencoe, user=resident)
    AnimalFactory(jurisdiction=glencoe, owner=owner, name="Biscuit")
    text = client_as(resident).get(HOME).content.decode()
    assert "Juniper" in text and "Biscuit" in text
    assert '<th scope="col">City</th>' in text


def test_a_deceased_animal_is_marked_and_not_asked_for_a_license(client_as, rita_owner, resident):
    AnimalFactory(
        jurisdiction=rita_owner.jurisdiction,
        owner=rita_owner,
        name="Old Blue",
        status=AnimalStatus.DECEASED,
    )
    text = client_as(resident).get(HOME).content.decode()
    assert "Old Blue" in text and "Deceased: no license is needed." in text
    assert "License required" not in text


def test_only_own_animals_and_documents_are_listed(
    client_as, resident, juniper, bobs_dog, clerk, north_branch, other_resident
):
    mine = issue_receipt(resident, clerk, north_branch, number="17")
    theirs = issue_receipt(other_resident, clerk, north_branch, number="18")
    text = client_as(resident).get(HOME).content.decode()
    assert "Juniper" in text and "Otis" not in text
    assert reverse("notices:document_pdf", args=[mine.pk]) in text
    assert reverse("notices:document_pdf", args=[theirs.pk]) not in text


def test_empty_state_says_to_visit_city_hall_with_address_and_phone(client_as, resident, cities):
    text = client_as(resident).get(HOME).content.decode()
    assert "No animals on file." in text and "clerk's counter at City Hall" in text
    # No owner record yet: every city's City Hall is listed.
    for city in cities:
        assert city.address in text and city.phone in text
    assert "No receipts or documents yet." in text


def test_empty_state_names_only_the_residents_city_when_on_file(
    client_as, rita_owner, resident, glencoe
):
    text = client_as(resident).get(HOME).content.decode()
    assert "No animals on file." in text
    assert "6408 Elm Street" in text and glencoe.address not in text


def test_documents_page_beyond_the_end_and_garbage_page_do_not_fail(
    client_as, resident, clerk, north_branch
):
    issue_receipt(resident, clerk, north_branch)
    client = client_as(resident)
    for page in ("999", "abc", "-1", "1%00"):
        assert client.get(HOME, {"page": page}).status_code == 200


# --- The animal page and the certificate --------------------------------------------------


def test_animal_page_shows_license_history_and_vaccinations(
    client_as, resident, juniper, clerk, rita_owner
):
    dog, license, vaccination = juniper
    old = LicenseFactory(
        jurisdiction=dog.jurisdiction,
        animal=dog,
        owner=rita_owner,
        issued_by=clerk,
        number="2025-0042",
        term_start=date(2025, 1, 1),
        expires_on=date(2025, 12, 31),
        issued_on=date(2025, 1, 5),
        status=LicenseStatus.EXPIRED,
    )
    response = client_as(resident).get(reverse("licensing:portal_animal", args=[dog.pk]))
    assert response.status_code == 200
    text = response.content.decode()
    assert license.number in text and old.number in text and "Expired" in text
    assert "Jan 1, 2025 to Dec 31, 2025" in text
    assert "Dr. Holm" in text
    assert reverse("licensing:portal_certificate", args=[vaccination.pk]) in text
    assert "North Branch Sec. 6-62" in text


def test_animal_page_hides_a_previous_owners_licenses(
    client_as, resident, rita_owner, clerk, north_branch
):
    previous = OwnerFactory(jurisdiction=north_branch)
    dog, old = licensed_dog(
        previous,
        clerk,
        term_start=date(2025, 1, 1),
        expires_on=date(2025, 12, 31),
        status=LicenseStatus.CLOSED,
    )
    dog.owner = rita_owner
    dog.save()
    text = (
        client_as(resident).get(reverse("licensing:portal_animal", args=[dog.pk])).content.decode()
    )
    assert old.number not in text and "No licenses on file for this animal." in text


def test_certificate_downloads_with_the_sniffed_type(client_as, resident, juniper):
    _dog, _license, vaccination = juniper
    response = client_as(resident).get(
        reverse("licensing:portal_certificate", args=[vaccination.pk])
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Cache-Control"] == "private, no-store"
    assert response["Content-Disposition"] == (
        f'attachment; filename="rabies-certificate-{vaccination.pk}.pdf"'
    )
    assert response["X-Content-Type-Options"] == "nosniff"
    assert b"".join(response.streaming_content) == PDF_BYTES


def test_a_stored_file_is_served_as_the_type_its_bytes_show_whatever_its_name(
    client_as, resident, juniper
):
    """A file stored before uploads were checked whole keeps the uploader's name: the
    download still takes its type from the bytes and its name from us."""
    _dog, _license, vaccination = juniper
    vaccination.certificate.save("page.html", ContentFile(b"<html><script>x</script></html>"))
    response = client_as(resident).get(
        reverse("licensing:portal_certificate", args=[vaccination.pk])
    )
    assert response["Content-Type"] == "application/octet-stream"
    assert response["Content-Disposition"] == (
        f'attachment; filename="rabies-certificate-{vaccination.pk}.bin"'
    )
    assert response["X-Content-Type-Options"] == "nosniff"


def test_missing_certificate_file_is_404(client_as, resident, rita_owner):
    dog = AnimalFactory(jurisdiction=rita_owner.jurisdiction, owner=rita_owner)
    no_file = RabiesVaccinationFactory(animal=dog)
    client = client_as(resident)
    assert client.get(reverse("licensing:portal_certificate", args=[no_file.pk])).status_code == 404


def test_another_residents_animal_certificate_and_document_are_404(
    client_as, resident, juniper, bobs_dog, clerk, north_branch, other_resident
):
    dog, vaccination = bobs_dog
    document = issue_receipt(other_resident, clerk, north_branch, number="18")
    client = client_as(resident)
    assert client.get(reverse("licensing:portal_animal", args=[dog.pk])).status_code == 404
    assert (
        client.get(reverse("licensing:portal_certificate", args=[vaccination.pk])).status_code
        == 404
    )
    assert client.get(reverse("notices:document_pdf", args=[document.pk])).status_code == 404
    assert client.get(reverse("licensing:portal_animal", args=[999999])).status_code == 404


def test_own_document_downloads(client_as, resident, clerk, north_branch):
    document = issue_receipt(resident, clerk, north_branch)
    response = client_as(resident).get(reverse("notices:document_pdf", args=[document.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"


# --- Access -----------------------------------------------------------------------------


def test_staff_get_403_even_for_a_real_animal(client_as, juniper, clerk, officer, administrator):
    dog, _license, vaccination = juniper
    urls = [
        HOME,
        reverse("licensing:portal_animal", args=[dog.pk]),
        reverse("licensing:portal_certificate", args=[vaccination.pk]),
    ]
    for user in (clerk, officer, administrator):
        client = client_as(user)
        for url in urls:
            assert client.get(url).status_code == 403, (user, url)


def test_anonymous_is_sent_to_log_in(client, juniper):
    dog, _license, _vaccination = juniper
    for url in (HOME, reverse("licensing:portal_animal", args=[dog.pk])):
        response = client.get(url)
        assert response.status_code == 302 and "/login/" in response.url


# --- Bounded queries --------------------------------------------------------------------


def test_pages_make_a_bounded_number_of_queries(
    client_as, resident, rita_owner, clerk, north_branch, glencoe, django_assert_max_num_queries
):
    for n in range(4):
        dog, _license = licensed_dog(rita_owner, clerk, name=f"Dog {n}", tag_number=100 + n)
        RabiesVaccinationFactory.create_batch(2, animal=dog)
    gl_owner = OwnerFactory(jurisdiction=glencoe, user=resident)
    AnimalFactory.create_batch(2, jurisdiction=glencoe, owner=gl_owner, premises=None)
    for n in range(5):
        issue_receipt(resident, clerk, north_branch, number=str(n))
    # 300 other animals in the database, none of them the resident's.
    others = OwnerFactory.create_batch(30, jurisdiction=north_branch)
    for owner in others:
        AnimalFactory.create_batch(10, jurisdiction=north_branch, owner=owner, premises=None)
    client = client_as(resident)
    # 13 today: session, user, groups; owners, animals, licenses, tags, vaccinations; one
    # rule read per city; the city list; document count and page. None grows per animal.
    with django_assert_max_num_queries(14):
        response = client.get(HOME)
    assert response.status_code == 200 and response.content.decode().count("Dog ") >= 4
    # The animal page, with the resident's reported changes: ten at most.
    with django_assert_max_num_queries(10):
        assert client.get(reverse("licensing:portal_animal", args=[dog.pk])).status_code == 200


@pytest.mark.parametrize("profile_key", ["north_branch", "no_such_profile"])
def test_a_city_without_its_rules_loaded_still_shows_the_page(
    client_as, resident, cities, profile_key
):
    # A new city whose administrator has not loaded the profile yet (RuleNotSet), or whose
    # profile file is missing (RuleNotInOrdinance): the page says so instead of failing.
    city = JurisdictionFactory(
        slug="newtown", name="City of Newtown", short_name="Newtown", profile_key=profile_key
    )
    owner = OwnerFactory(jurisdiction=city, user=resident)
    dog = AnimalFactory(jurisdiction=city, owner=owner, name="Rex")
    RabiesVaccinationFactory(animal=dog)
    client = client_as(resident)
    response = client.get(HOME)
    assert response.status_code == 200
    assert "License status unknown" in response.content.decode()
    assert client.get(reverse("licensing:portal_animal", args=[dog.pk])).status_code == 200
