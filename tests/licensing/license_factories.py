"""factory-boy factories for licenses, tags and receipts (append-only records)."""

from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import factory

from licensing.models import License, Receipt, ReceiptLine, Tag, TagStock
from licensing.services.kennels.common import DecidedBy
from tests.licensing.factories import AnimalFactory, JurisdictionFactory

CHICAGO = ZoneInfo("America/Chicago")


class ReceiptFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Receipt

    jurisdiction = factory.SubFactory(JurisdictionFactory)
    number = factory.Sequence(lambda n: 9000 + n)
    issued_at = datetime(2026, 3, 2, 10, 0, tzinfo=CHICAGO)
    payer_name = "Pat Payer"
    payer_address = "1 Main Street, North Branch, MN 55056"
    method = "cash"
    total = Decimal("18.00")


class ReceiptLineFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ReceiptLine

    receipt = factory.SubFactory(ReceiptFactory)
    code = "dog_license"
    description = "Dog license"
    amount = Decimal("18.00")
    authority = "Demo Res. 2025-01"


class LicenseFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = License

    jurisdiction = factory.SubFactory(JurisdictionFactory)
    number = factory.Sequence(lambda n: f"2026-{n + 1:04d}")
    animal = factory.SubFactory(AnimalFactory, jurisdiction=factory.SelfAttribute("..jurisdiction"))
    owner = factory.SelfAttribute("animal.owner")
    term_start = date(2026, 1, 1)
    expires_on = date(2026, 12, 31)
    issued_on = date(2026, 1, 15)
    receipt = factory.SubFactory(
        ReceiptFactory,
        jurisdiction=factory.SelfAttribute("..jurisdiction"),
        issued_by=factory.SelfAttribute("..issued_by"),
    )


class TagStockFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TagStock
        skip_postgeneration_save = True

    jurisdiction = factory.SubFactory(JurisdictionFactory)
    year = 2026
    first_number = 1
    last_number = 50
    received_on = date(2025, 11, 1)
    vendor = "Minnesota Tag & Stamp"

    @factory.post_generation
    def tags(obj, create, extracted, **kwargs):
        if create and extracted is not False:
            Tag.objects.bulk_create(
                Tag(jurisdiction=obj.jurisdiction, year=obj.year, number=n, stock=obj)
                for n in range(obj.first_number, obj.last_number + 1)
            )


def kennel_steps_approve(kennel, actor, *, on: date):
    """Record every review step of the city still open as approved by a person (KEN-04),
    as the Council would, and return the kennel read back (status approved)."""
    from licensing.services.kennels.applications import kennel_decision_record, step_progress

    for step, decision in step_progress(kennel, on=on):
        if decision is None:
            kennel_decision_record(
                kennel=kennel,
                step=step,
                outcome="approved",
                decided=DecidedBy(
                    name="Jane Roe",
                    capacity="City Council",
                    on=on,
                    reasons="Meets the requirements.",
                ),
                actor=actor,
            )
    kennel.refresh_from_db()
    return kennel
