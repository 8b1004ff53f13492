"""Shared setup for the clinic tests: a clinic serving North Branch with one
veterinarian and one login, and certificate rows as the clinic's form takes them."""

from datetime import date

from base.roles import VETERINARIAN
from clinics.models import Clinic, ClinicMember, ClinicVeterinarian
from licensing.models import RabiesVaccination
from tests.conftest import make_user

VET_LICENSE = "MN-4411"


def make_clinic(cities, *, name="Lakes Veterinary Clinic", license_number=VET_LICENSE):
    clinic = Clinic.objects.create(
        name=name, address_line="12 Lake Blvd", city="North Branch", postal_code="55056"
    )
    clinic.jurisdictions.set(cities)
    ClinicVeterinarian.objects.create(
        clinic=clinic, name="Dr. Ada Lind", license_number=license_number
    )
    return clinic


def make_vet(clinic, username="vera", now=None):
    from django.utils import timezone

    user = make_user(username, VETERINARIAN, email=f"{username}@clinic.example")
    ClinicMember.objects.create(user=user, clinic=clinic, invited_at=now or timezone.now())
    return user


def row(**overrides) -> dict:
    """A certificate as the form's (and the CSV's) fields, as strings."""
    values = {
        "owner_first_name": "Rita",
        "owner_last_name": "Resident",
        "owner_address": "100 Main Street",
        "owner_city": "North Branch",
        "owner_postal_code": "55056",
        "owner_phone": "",
        "animal_name": "Biscuit",
        "species": "dog",
        "breed": "Labrador Retriever",
        "color": "Yellow",
        "sex": "female",
        "microchip": "",
        "vaccinated_on": "2026-11-20",
        "duration_years": str(RabiesVaccination.Duration.THREE_YEARS),
        "next_due_on": "",
        "manufacturer": "Zoetis",
        "product": "Defensor 3",
        "lot_number": "L-77",
        "lot_expires_on": "",
        "rabies_tag_number": "",
        "veterinarian_name": "Dr. Ada Lind",
        "veterinarian_license": VET_LICENSE,
    }
    values.update(overrides)
    return values


def csv_text(rows: list[dict]) -> str:
    import csv
    import io

    from clinics.forms import FORM51_FIELDS

    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=FORM51_FIELDS)
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def cleaned(clinic, **overrides) -> dict:
    from clinics.forms import FORM51_FIELDS, CertificateForm

    form = CertificateForm(row(**overrides), clinic=clinic)
    assert form.is_valid(), form.errors
    return {k: form.cleaned_data[k] for k in FORM51_FIELDS}


VACCINATED = date(2026, 11, 20)
