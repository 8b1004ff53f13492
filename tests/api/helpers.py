"""Both cities' records for the read API tests, and tokens made through the service.

One owner, dog, vaccination, license (with its tag) and receipt per city through the
real services (so each has its audit history), and ``bulk`` rows for the query budget."""

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

from api.models import Scope
from api.services import integration_create
from licensing.models import Animal, License, Owner, Premises, Receipt, ReceiptLine, TagStock
from licensing.services import licenses as license_svc
from licensing.services import registry as registry_svc
from licensing.services.tags import tag_stock_receive

CHICAGO = ZoneInfo("America/Chicago")
NOW = datetime(2026, 3, 2, 10, 0, tzinfo=CHICAGO)  # a Monday inside the 2026 license year
TODAY = NOW.date()
ALL_SCOPES = list(Scope.values)
NON_PERSONAL = [s for s in ALL_SCOPES if s != Scope.PERSONAL_DATA]
ENDPOINTS = ("licenses", "animals", "owners", "receipts")


@dataclass
class CityRecords:
    owner: Owner
    animal: Animal
    license: License
    receipt: Receipt

    def pk_of(self, endpoint: str) -> int:
        return {
            "licenses": self.license,
            "animals": self.animal,
            "owners": self.owner,
            "receipts": self.receipt,
        }[endpoint].pk


def city_records(city, clerk, *, first, last, street, now=NOW) -> CityRecords:
    on = now.date()
    if not TagStock.objects.filter(jurisdiction=city).exists():
        tag_stock_receive(
            jurisdiction=city,
            year=2026,
            first_number=1,
            last_number=20,
            received_on=date(2025, 11, 1),
            vendor="Minnesota Tag & Stamp",
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
        postal_code="55056",
        phone="651-555-0147",
        email=f"{first.lower()}@example.org",
    )
    animal = registry_svc.animal_register(
        owner=owner,
        actor=clerk,
        on=on,
        species="dog",
        name=f"{first}'s dog",
        breed="Labrador Retriever",
        color="Yellow",
        sex="female",
        date_of_birth=date(2022, 5, 1),
        acquired_on=date(2022, 7, 15),
    )
    registry_svc.vaccination_record(
        animal=animal,
        actor=clerk,
        on=on,
        vaccinated_on=date(2025, 6, 1),
        duration_years=3,
        veterinarian_name="Dr. Ann Holm",
        veterinarian_license="MN-VET-10442",
        rabies_tag_number=f"R{city.pk:03d}123",
    )
    if city.slug == "glencoe":  # Glencoe issues no dog licenses (701 Subd. 2(D)): one on file
        lic = _license_on_file(city, animal, clerk, now)
    else:
        license_svc.license_issue(
            animal=animal, owner=owner, actor=clerk, on=on, method="cash", now=now
        )
        lic = License.objects.get(animal=animal)
    return CityRecords(owner=owner, animal=animal, license=lic, receipt=lic.receipt)


def _license_on_file(city, animal, clerk, now):
    """A license and its receipt saved one by one (so each has its history row)."""
    from tests.licensing.license_factories import LicenseFactory, ReceiptFactory

    receipt = ReceiptFactory(
        jurisdiction=city,
        number=700 + animal.pk,
        issued_at=now,
        issued_by=clerk,
        payer=animal.owner,
        payer_name=animal.owner.name,
    )
    ReceiptLine.objects.create(
        receipt=receipt,
        code="dog_license",
        description="Dog license",
        amount=receipt.total,
        authority="Res. 2025-01",
    )
    lic = LicenseFactory(
        jurisdiction=city,
        number=f"{now.year}-{animal.pk:05d}",
        animal=animal,
        owner=animal.owner,
        issued_on=now.date(),
        issued_by=clerk,
        receipt=receipt,
    )
    receipt.regarding.add(lic)
    return lic


def bulk(city, clerk, count, *, at=NOW):
    """``count`` owners, premises, animals, receipts (two lines each) and licenses, in bulk
    (no history rows: their creation time is what ``changed_since`` reads)."""
    owners = Owner.objects.bulk_create(
        Owner(
            jurisdiction=city,
            first_name=f"Bulk{i}",
            last_name="Filler",
            address_line=f"{1000 + i} Filler Road",
            city=city.short_name,
            postal_code="55056",
        )
        for i in range(count)
    )
    premises = Premises.objects.bulk_create(
        Premises(jurisdiction=city, address_line=o.address_line, city=o.city, postal_code="55056")
        for o in owners
    )
    animals = Animal.objects.bulk_create(
        Animal(jurisdiction=city, owner=o, premises=p, species="dog", name=f"Filler {i}")
        for i, (o, p) in enumerate(zip(owners, premises, strict=True))
    )
    receipts = Receipt.objects.bulk_create(
        Receipt(
            jurisdiction=city,
            number=50000 + i,
            issued_at=at,
            issued_by=clerk,
            payer=o,
            payer_name=o.name,
            payer_address=o.address_line,
            method="cash",
            total=Decimal("18.00"),
        )
        for i, o in enumerate(owners)
    )
    ReceiptLine.objects.bulk_create(
        ReceiptLine(
            receipt=r,
            position=n,
            code=f"fee{n}",
            description="Fee",
            amount=Decimal("9.00"),
            authority="Res. 2025-01",
        )
        for r in receipts
        for n in (1, 2)
    )
    licenses = License.objects.bulk_create(
        License(
            jurisdiction=city,
            number=f"B-{i:05d}",
            animal=a,
            owner=a.owner,
            term_start=date(2026, 1, 1),
            expires_on=date(2026, 12, 31),
            issued_on=at.date(),
            issued_by=clerk,
            receipt=r,
        )
        for i, (a, r) in enumerate(zip(animals, receipts, strict=True))
    )
    through = Receipt.regarding.through
    through.objects.bulk_create(
        through(receipt_id=r.pk, license_id=lic.pk)
        for r, lic in zip(receipts, licenses, strict=True)
    )
    return owners


def token_for(cities, actor, scopes=ALL_SCOPES, name="County dispatch", now=NOW):
    integration, token = integration_create(
        name=name, cities=list(cities), scopes=list(scopes), actor=actor, now=now
    )
    return integration, token


def auth(token: str) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}
