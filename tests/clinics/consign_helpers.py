"""Shared setup for licenses sold at the clinic: North Branch's 2026
tags, a clinic with a login, dogs whose certificates the clinic sent and the city
recorded, blocks issued through the service, and bulk rows for the query budgets."""

from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

from clinics.models import (
    CertificateSubmission,
    ClinicSale,
    ConsignedTag,
    ConsignmentBlock,
    HoldingStatus,
    SubmissionStatus,
)
from clinics.services import certificates
from clinics.services.consignment import consignment_issue
from licensing.models import (
    Animal,
    License,
    Owner,
    Premises,
    Receipt,
    ReceiptMethod,
    Tag,
    TagStatus,
)
from licensing.services.tags import tag_stock_receive
from tests.clinics.helpers import cleaned
from tests.licensing.factories import AnimalFactory

CHICAGO = ZoneInfo("America/Chicago")
NOW = datetime(2026, 3, 2, 10, 0, tzinfo=CHICAGO)  # a Monday in the 2026 license year
TODAY = NOW.date()
VACCINATED = date(2026, 2, 16)


def at(day: date, hour: int = 10, minute: int = 0) -> datetime:
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=CHICAGO)


def stock(city, clerk, *, first=1, last=50, year=2026):
    return tag_stock_receive(
        jurisdiction=city,
        year=year,
        first_number=first,
        last_number=last,
        received_on=date(2025, 11, 1),
        vendor="Minnesota Tag & Stamp",
        actor=clerk,
    )


def block(clinic, city, actor, first, last, *, year=2026, now=NOW, note=""):
    return consignment_issue(
        clinic=clinic,
        jurisdiction=city,
        year=year,
        first_number=first,
        last_number=last,
        actor=actor,
        note=note,
        now=now,
    )


def sellable_dog(city, clinic, vet, *, name="Clover", chip="985112007700001", now=NOW, **cert):
    """A registered dog and the clinic's certificate for it, matched and recorded."""
    dog = AnimalFactory(jurisdiction=city, name=name, microchip=chip)
    submission = certificates.certificate_submit(
        clinic=clinic,
        jurisdiction=city,
        actor=vet,
        now=now,
        **cleaned(
            clinic,
            microchip=chip,
            animal_name=name,
            owner_first_name=dog.owner.first_name,
            owner_last_name=dog.owner.last_name,
            owner_address=dog.owner.address_line,
            vaccinated_on=str(cert.pop("vaccinated_on", VACCINATED)),
            **cert,
        ),
    )
    assert submission.status == SubmissionStatus.MATCHED, submission.status
    return dog, submission


def bulk_sales(clinic, city, actor, count: int, *, first_tag=1001, now=NOW):
    """``count`` sales of ``clinic`` as rows (owners, animals, receipts, licenses, a
    block of tags with its holdings): what a page reads, without a PDF per sale."""
    animals = _bulk_animals(city, count)
    the_block, holdings = _bulk_block(clinic, city, actor, count, first_tag=first_tag, now=now)
    receipts = Receipt.objects.bulk_create(
        Receipt(
            jurisdiction=city,
            number=50_000 + i,
            issued_at=now,
            issued_by=actor,
            payer=a.owner,
            payer_name=a.owner.name,
            method=ReceiptMethod.CLINIC,
            reference=clinic.name[:40],
            total=Decimal("18.00"),
        )
        for i, a in enumerate(animals)
    )
    licenses = License.objects.bulk_create(
        License(
            jurisdiction=city,
            number=f"2026-B{i:04d}",
            animal=a,
            owner=a.owner,
            term_start=date(2026, 1, 1),
            expires_on=date(2026, 12, 31),
            issued_on=now.date(),
            issued_by=actor,
            receipt=r,
        )
        for i, (a, r) in enumerate(zip(animals, receipts, strict=True))
    )
    certificate = CertificateSubmission.objects.filter(clinic=clinic).first()
    ClinicSale.objects.bulk_create(
        ClinicSale(
            clinic=clinic,
            jurisdiction=city,
            holding=h,
            license=lic,
            receipt=r,
            certificate=certificate,
            sold_by=actor,
            sold_at=now,
        )
        for h, lic, r in zip(holdings, licenses, receipts, strict=False)
    )
    return the_block


def _bulk_animals(city, count: int) -> list:
    """``count`` owners, each with a premises and a dog."""
    owners = Owner.objects.bulk_create(
        Owner(
            jurisdiction=city,
            first_name=f"Bulk{i}",
            last_name="Buyer",
            address_line=f"{2000 + i} Clinic Road",
            city=city.short_name,
            postal_code="55056",
        )
        for i in range(count)
    )
    premises = Premises.objects.bulk_create(
        Premises(jurisdiction=city, address_line=o.address_line, city=city.short_name)
        for o in owners
    )
    return Animal.objects.bulk_create(
        Animal(jurisdiction=city, owner=o, premises=p, species="dog", name=f"Sold {i}", sex="male")
        for i, (o, p) in enumerate(zip(owners, premises, strict=True))
    )


def _bulk_block(clinic, city, actor, count: int, *, first_tag, now):
    """A block of ten tags more than ``count`` at the clinic, the first ``count`` sold."""
    from licensing.models import TagStock

    last_tag = first_tag + count + 9
    stock_row = TagStock.objects.create(
        jurisdiction=city,
        year=2026,
        first_number=first_tag,
        last_number=last_tag,
        received_on=date(2025, 11, 1),
        recorded_by=actor,
    )
    tags = Tag.objects.bulk_create(
        Tag(jurisdiction=city, year=2026, number=n, stock=stock_row, status=TagStatus.CONSIGNED)
        for n in range(first_tag, last_tag + 1)
    )
    the_block = ConsignmentBlock.objects.create(
        clinic=clinic,
        jurisdiction=city,
        year=2026,
        first_number=first_tag,
        last_number=last_tag,
        issued_by=actor,
        issued_at=now,
    )
    holdings = ConsignedTag.objects.bulk_create(
        ConsignedTag(
            block=the_block,
            tag=t,
            status=HoldingStatus.SOLD if i < count else HoldingStatus.HELD,
            closed_at=now if i < count else None,
        )
        for i, t in enumerate(tags)
    )
    return the_block, holdings
