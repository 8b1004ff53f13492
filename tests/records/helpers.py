"""Both cities with records made through the services, and a way to read an archive.

Glencoe's rows carry the marker ``Zzgl`` in every name and address, so a test can look
for it anywhere in a North Branch archive."""

import csv
import io
import json
import zipfile
from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.core.files.uploadedfile import SimpleUploadedFile

from tests.upload_files import pdf_bytes

CHICAGO = ZoneInfo("America/Chicago")
NOW = datetime(2026, 3, 2, 10, 0, tzinfo=CHICAGO)  # a Monday inside the 2026 license year
TODAY = NOW.date()
GL_MARKER = "Zzgl"


@dataclass
class Cities:
    nb: object
    gl: object
    nb_owner: object
    nb_animal: object
    nb_license: object
    gl_owner: object
    gl_license: object


def _licensed_dog(city, clerk, *, first, last, street, dog, postal, licensed=True):
    from licensing.services import licenses as license_svc
    from licensing.services import registry as registry_svc
    from licensing.services.tags import tag_stock_receive

    tag_stock_receive(
        jurisdiction=city,
        year=2026,
        first_number=1,
        last_number=20,
        received_on=date(2025, 11, 1),
        vendor=f"{last} Tag Works",
        actor=clerk,
    )
    owner = registry_svc.owner_create(
        jurisdiction=city,
        actor=clerk,
        first_name=first,
        last_name=last,
        address_line=street,
        city=city.short_name,
        state="MN",
        postal_code=postal,
        phone="651-555-0147",
    )
    animal = registry_svc.animal_register(
        owner=owner,
        actor=clerk,
        on=TODAY,
        species="dog",
        name=dog,
        breed="Labrador Retriever",
        color="Yellow",
        sex="female",
        date_of_birth=date(2022, 5, 1),
    )
    registry_svc.vaccination_record(
        animal=animal,
        actor=clerk,
        on=TODAY,
        vaccinated_on=date(2025, 6, 1),
        duration_years=3,
        veterinarian_name=f"Dr. {last}",
        veterinarian_license="MN-VET-10442",
        rabies_tag_number=f"R{animal.pk:06d}",
        certificate=SimpleUploadedFile("cert.pdf", pdf_bytes(), content_type="application/pdf"),
    )
    if not licensed:  # Glencoe deleted dog licensing from its ordinance (701 Subd. 2(D))
        return owner, animal, None
    result = license_svc.license_issue(
        animal=animal, owner=owner, actor=clerk, on=TODAY, method="cash", now=NOW
    )
    return owner, animal, result.license


def build_cities(nb, gl, clerk, glencoe_clerk) -> Cities:
    """A vaccinated dog in each city, licensed in North Branch (receipt, tag, documents);
    Glencoe's clerk receives a tag stock. Call under NOW."""
    nb_owner, nb_animal, nb_license = _licensed_dog(
        nb,
        clerk,
        first="Nora",
        last="Nbonly",
        street="1 Main Street",
        dog="Biscuit",
        postal="55056",
    )
    gl_owner, _gl_animal, gl_license = _licensed_dog(
        gl,
        glencoe_clerk,
        first="Zzgla",
        last="Zzglencoeonly",
        street="1 Zzgl Street",
        dog="Zzglfritz",
        postal="55336",
        licensed=False,
    )
    return Cities(nb, gl, nb_owner, nb_animal, nb_license, gl_owner, gl_license)


class Archive:
    """An export read back: its manifest, its tables as lists of dicts, its files."""

    def __init__(self, data: bytes):
        self.zip = zipfile.ZipFile(io.BytesIO(data))
        self.manifest = json.loads(self.zip.read("manifest.json"))

    def names(self) -> list[str]:
        return self.zip.namelist()

    def table(self, name: str) -> list[dict]:
        text = self.zip.read(f"data/{name}.csv").decode("utf-8")
        return list(csv.DictReader(io.StringIO(text, newline="")))

    def csv(self, path: str) -> list[dict]:
        return list(csv.DictReader(io.StringIO(self.zip.read(path).decode(), newline="")))

    def read(self, path: str) -> bytes:
        return self.zip.read(path)


def archive_of(export) -> Archive:
    with export.file.open("rb") as handle:
        return Archive(handle.read())
