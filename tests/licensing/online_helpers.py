"""Shared setup for the online application tests: a resident's linked dog,
licensed for 2026 through the counter's own service, and certificate files."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.core.files.uploadedfile import SimpleUploadedFile

from licensing.models import RabiesVaccination
from licensing.services.licenses import license_issue
from tests.licensing.factories import AnimalFactory, RabiesVaccinationFactory
from tests.licensing.license_factories import TagStockFactory
from tests.upload_files import pdf_bytes

CHICAGO = ZoneInfo("America/Chicago")
PDF = pdf_bytes()
# NB Sec. 6-65: renewal for 2027 opens December 2, 2026 (LIC-13).
RENEWAL_DAY = date(2026, 12, 5)


def at(day: date, hour: int = 10) -> datetime:
    return datetime(day.year, day.month, day.day, hour, tzinfo=CHICAGO)


def certificate_pdf(name="certificate.pdf", data=PDF):
    return SimpleUploadedFile(name, data, content_type="application/pdf")


def certificate_fields(**overrides):
    """A new certificate as the resident types it (RAB-05: vet name and license)."""
    return {
        "vaccinated_on": date(2026, 11, 20),
        "duration_years": RabiesVaccination.Duration.THREE_YEARS,
        "veterinarian_name": "Dr. Ada Lind",
        "veterinarian_license": "MN-4411",
        "clinic_name": "Lakes Veterinary Clinic",
        "rabies_tag_number": "R-2026-881",
        **overrides,
    }


def stock(city, clerk):
    for year in (2026, 2027):
        TagStockFactory(jurisdiction=city, recorded_by=clerk, year=year, last_number=20)


def linked_dog(city, user, *, name="Biscuit", email="rita@example.org"):
    dog = AnimalFactory(jurisdiction=city, name=name, date_of_birth=date(2022, 5, 1))
    dog.owner.user = user
    dog.owner.email = email
    dog.owner.save()
    return dog


def licensed_dog(city, user, clerk, *, name="Biscuit"):
    """A dog licensed at the counter on March 2, 2026 for the 2026 term (LIC-07), with a
    3-year vaccination of June 1, 2025 on file."""
    dog = linked_dog(city, user, name=name)
    RabiesVaccinationFactory(
        animal=dog, vaccinated_on=date(2025, 6, 1), next_due_on=date(2028, 6, 1)
    )
    license_issue(
        animal=dog,
        owner=dog.owner,
        actor=clerk,
        on=date(2026, 3, 2),
        method="cash",
        now=at(date(2026, 3, 2)),
    )
    return dog
