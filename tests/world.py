"""The world the walks over every page stand on: both cities with realistic records.

Built through the real services (style.md: a license with its tag and receipt, a kennel
license through its review steps, issued documents, a case of every app), so the pages
see what a city would see, plus a few hundred bulk rows so that a query per row would
show. ``tests/conftest.py``'s ``scene`` builds it once per module, with the personas.
"""

from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo

import time_machine
from django.core.files.uploadedfile import SimpleUploadedFile

from licensing.models import Animal, KennelStatus, Owner, Premises
from licensing.services import licenses as license_svc
from licensing.services import registry as registry_svc
from licensing.services.kennels.applications import (
    KennelRequest,
    kennel_apply,
    kennel_premises_for,
)
from licensing.services.kennels.documents import kennel_document_issue
from licensing.services.kennels.issuance import kennel_issue
from licensing.services.tags import tag_stock_receive
from tests.api.pages import build_api_world
from tests.citations.pages import build_citations_world
from tests.clinics.pages import build_clinics_world
from tests.dangerous_dogs.pages import build_dd_world
from tests.impound.lost_pages import build_lost_world
from tests.licensing.license_factories import kennel_steps_approve
from tests.permits.pages import build_permits_world
from tests.rabies.pages import build_rabies_world
from tests.records.pages import build_records_world
from tests.upload_files import pdf_bytes, png_bytes

CHICAGO = ZoneInfo("America/Chicago")
NOW = datetime(2026, 3, 2, 10, 0, tzinfo=CHICAGO)  # a Monday, inside the 2026 license year
TODAY = NOW.date()
PDF = pdf_bytes()
# Rows beyond the ones the pages are about, so a query per row would show (style.md).
BULK_OWNERS_PER_CITY = 150


@dataclass
class World:
    nb: object
    gl: object
    owner: Owner
    animal: Animal
    vaccination: object
    license: object
    receipt: object
    kennel: object
    kennel_document: object
    receipt_document: object
    gl_owner: Owner
    gl_animal: Animal
    gl_kennel: object
    gl_document: object
    application: object = None
    impound_case: object = None
    impound_gate: object = None
    dd: object = None
    rabies: object = None
    paid_application: object = None
    payment: object = None
    change: object = None  # a lost tag the resident reported
    transfer_token: str = ""  # the new owner's link of a transfer the resident reported
    closeout: object = None  # the clerk's closed day and its deposit slip
    complaint: object = None  # a dog at large on a long leash, its facts read
    citations: object = None  # a North Branch citation
    permits: object = None  # Glencoe's horse and temporary permits
    clinics: object = None  # a clinic's certificates, its tags and a sale
    records: object = None  # North Branch's data export, written
    api: object = None  # a North Branch integration of the read API
    lost: object = None  # the resident's lost-pet report, matched


def _issued_kennel(owner, actor):
    kennel = kennel_apply(
        owner=owner,
        premises=kennel_premises_for(owner),
        application=KennelRequest(
            business_nature="Breeding and boarding",
            dog_count=6,
            cat_count=0,
            cup_reference="CUP-2026-04",
        ),
        actor=actor,
        on=TODAY,
    )
    kennel_steps_approve(kennel, actor, on=TODAY)
    assert kennel.status == KennelStatus.APPROVED, kennel.status
    kennel_issue(kennel=kennel, actor=actor, now=NOW, method="cash")
    kennel.refresh_from_db()
    document = kennel_document_issue(kennel=kennel, actor=actor, now=NOW)
    return kennel, document


def _bulk_registry(city, count):
    """Owners, premises and animals in bulk: rows for list pages, not for history."""
    owners = Owner.objects.bulk_create(
        Owner(
            jurisdiction=city,
            first_name=f"Bulk{i}",
            last_name="Filler",
            address_line=f"{1000 + i} Filler Road",
            city=city.short_name,
            postal_code="55056",
            phone=f"651-555-{i:04d}",
        )
        for i in range(count)
    )
    premises = Premises.objects.bulk_create(
        Premises(
            jurisdiction=city,
            address_line=o.address_line,
            city=city.short_name,
            postal_code="55056",
        )
        for o in owners
    )
    Animal.objects.bulk_create(
        Animal(
            jurisdiction=city,
            owner=o,
            premises=p,
            species="dog",
            name=f"Filler {i}",
            sex="female",
            date_of_birth=date(2020, 1, 1),
        )
        for i, (o, p) in enumerate(zip(owners, premises, strict=True))
    )


def build_world(*, nb, gl, clerk, glencoe_clerk, administrator, resident) -> World:
    """Both cities with realistic records, made through the services. Call under NOW."""
    tag_stock_receive(
        jurisdiction=nb,
        year=2026,
        first_number=1,
        last_number=50,
        received_on=date(2025, 11, 1),
        vendor="Minnesota Tag & Stamp",
        actor=clerk,
    )
    owner = registry_svc.owner_create(
        jurisdiction=nb,
        actor=clerk,
        user=resident,
        first_name="Rita",
        last_name="Resident",
        address_line="38520 Grand Avenue",
        city="North Branch",
        state="MN",
        postal_code="55056",
        phone="651-555-0147",
        email="rita@example.org",
    )
    animal = registry_svc.animal_register(
        owner=owner,
        actor=clerk,
        on=TODAY,
        species="dog",
        name="Biscuit",
        breed="Labrador Retriever",
        color="Yellow",
        sex="female",
        date_of_birth=date(2022, 5, 1),
        acquired_on=date(2022, 7, 15),
        microchip="985112003344556",
        photo=SimpleUploadedFile("biscuit.png", png_bytes(), content_type="image/png"),
    )
    vaccination = registry_svc.vaccination_record(
        animal=animal,
        actor=clerk,
        on=TODAY,
        vaccinated_on=date(2025, 6, 1),
        duration_years=3,
        veterinarian_name="Dr. Ann Holm",
        veterinarian_license="MN-VET-10442",
        rabies_tag_number="R000123",
        certificate=SimpleUploadedFile("cert.pdf", PDF, content_type="application/pdf"),
    )
    result = license_svc.license_issue(
        animal=animal, owner=owner, actor=clerk, on=TODAY, method="cash", now=NOW
    )
    from notices.models import IssuedDocument

    receipt_document = IssuedDocument.objects.get(kind="receipt", jurisdiction=nb)
    application = _online_application(owner, clerk, resident)
    kennel_owner = registry_svc.owner_create(
        jurisdiction=nb,
        actor=clerk,
        first_name="Kari",
        last_name="Kennel",
        address_line="5 Kennel Lane",
        city="North Branch",
        state="MN",
        postal_code="55056",
    )
    kennel, kennel_document = _issued_kennel(kennel_owner, clerk)
    gl_owner = registry_svc.owner_create(
        jurisdiction=gl,
        actor=glencoe_clerk,
        first_name="Gerhard",
        last_name="Schmidt",
        address_line="1107 Hennepin Avenue",
        city="Glencoe",
        state="MN",
        postal_code="55336",
    )
    gl_animal = registry_svc.animal_register(
        owner=gl_owner,
        actor=glencoe_clerk,
        on=TODAY,
        species="dog",
        name="Fritz",
        sex="male",
        date_of_birth=date(2021, 4, 1),
    )
    gl_kennel, gl_document = _issued_kennel(gl_owner, glencoe_clerk)
    for city in (nb, gl):
        _bulk_registry(city, BULK_OWNERS_PER_CITY)
    impound_case = _impound_case(nb, gl, animal, administrator)
    dd = build_dd_world(
        nb=nb, gl=gl, nb_animal=animal, gl_animal=gl_animal, actor=administrator, today=TODAY
    )
    rabies = build_rabies_world(
        nb=nb, gl=gl, nb_animal=animal, gl_animal=gl_animal, actor=administrator, today=TODAY
    )
    application = _online_application(owner, clerk, resident)
    paid_application, payment = _held_card_payment(owner, clerk, resident)
    change, transfer = _reported_changes(animal, resident)
    from licensing.services.closeouts import closeout_close

    closeout = closeout_close(clerk=clerk, jurisdiction=nb, day=TODAY, now=NOW)
    complaint = _complaint(nb, animal, clerk, administrator)
    citations = build_citations_world(nb=nb, nb_animal=animal, actor=administrator, now=NOW)
    permits = build_permits_world(gl=gl, actor=glencoe_clerk, today=TODAY)
    clinics = build_clinics_world(nb=nb, animal=animal, now=NOW, pdf=PDF, clerk=clerk)
    api = build_api_world(nb=nb, administrator=administrator, now=NOW)
    lost = build_lost_world(nb=nb, resident=resident, animal=animal, now=NOW)
    records = build_records_world(nb=nb, actor=administrator, now=NOW)  # last: all of it
    return World(
        lost=lost,
        records=records,
        clinics=clinics,
        api=api,
        complaint=complaint,
        citations=citations,
        permits=permits,
        closeout=closeout,
        application=application,
        paid_application=paid_application,
        payment=payment,
        change=change,
        transfer_token=transfer,
        dd=dd,
        rabies=rabies,
        impound_case=impound_case,
        impound_gate=impound_case.gates.first(),
        nb=nb,
        gl=gl,
        owner=owner,
        animal=animal,
        vaccination=vaccination,
        license=result.license,
        receipt=result.receipt,
        kennel=kennel,
        kennel_document=kennel_document,
        receipt_document=receipt_document,
        gl_owner=gl_owner,
        gl_animal=gl_animal,
        gl_kennel=gl_kennel,
        gl_document=gl_document,
    )


def _online_application(owner, clerk, resident):
    """Rita's second dog, applied for online with a certificate upload and returned to
    her to fix: her pages and the clerk's queue open it."""
    from licensing.services.applications import application_return, application_submit

    pepper = registry_svc.animal_register(
        owner=owner,
        actor=clerk,
        on=TODAY,
        species="dog",
        name="Pepper",
        breed="Beagle",
        color="Tricolor",
        sex="male",
        date_of_birth=date(2023, 4, 1),
        acquired_on=date(2023, 6, 1),
    )
    application = application_submit(
        animal=pepper,
        actor=resident,
        on=TODAY,
        now=NOW,
        vaccinated_on=date(2026, 2, 1),
        duration_years=1,
        veterinarian_name="Dr. Ann Holm",
        veterinarian_license="MN-VET-10442",
        certificate=SimpleUploadedFile("certificate.pdf", PDF, content_type="application/pdf"),
    )
    return application_return(application, actor=clerk, reason="Add the rabies tag number.")


def _held_card_payment(owner, clerk, resident):
    """The resident's online application for a dog kept at her second address (her
    cabin: another owner record linked to her account, so her home's limit of adult dogs,
    NB Sec. 6-29, is not passed), approved by the clerk and paid by card for an amount
    that no longer matches: the payment is held."""
    from decimal import Decimal

    from licensing.models import OnlineApplication
    from licensing.models.online import ApplicationKind
    from licensing.services.applications import application_approve
    from licensing.services.payments import online_payment_received

    owner = registry_svc.owner_create(
        jurisdiction=owner.jurisdiction,
        actor=clerk,
        user=resident,
        first_name="Rita",
        last_name="Resident",
        address_line="6120 Lake Lane",
        city="North Branch",
        state="MN",
        postal_code="55056",
        email="rita@example.org",
    )
    dog = registry_svc.animal_register(
        owner=owner,
        actor=clerk,
        on=TODAY,
        name="Sage",
        species="dog",
        breed="Beagle",
        color="Tricolor",
        sex="male",
        date_of_birth=date(2025, 9, 1),
    )
    application = OnlineApplication.objects.create(
        jurisdiction=owner.jurisdiction,
        kind=ApplicationKind.NEW,
        animal=dog,
        owner=owner,
        submitted_by=resident,
        submitted_at=NOW,
        status_changed_at=NOW,
        applied_on=TODAY,
        vaccinated_on=date(2026, 1, 15),
        duration_years=1,
        veterinarian_name="Dr. Ann Holm",
        veterinarian_license="MN-VET-10442",
    )
    application_approve(application, actor=clerk, on=TODAY, now=NOW)
    payment = online_payment_received(
        application_pk=application.pk,
        provider="stripe",
        provider_id="pi_world_0001",
        reference="pi_world_0001",
        amount=Decimal("1.00"),
        currency="usd",
        now=NOW,
    ).payment
    return application, payment


def _reported_changes(animal, resident):
    """A lost tag and a transfer the resident reported."""
    from licensing.services import changes

    lost = changes.change_report(
        animal=animal, kind="lost_tag", happened_on=TODAY, details={"where": "Park"}, user=resident
    )
    transfer = changes.change_report(
        animal=animal,
        kind="transfer",
        happened_on=TODAY,
        details={"first_name": "Bob", "last_name": "Neighbour", "email": "bob@example.org"},
        user=resident,
    )
    return lost, changes.transfer_token(transfer)


def _complaint(nb, animal, clerk, officer):
    """A North Branch complaint about the world's dog at large on a 10-foot leash in a
    park, taken at the counter, with an earlier one at the same address."""
    from complaints.services import complaint_intake, entry_record, facts_record

    def take(kind, when):
        return complaint_intake(
            jurisdiction=nb,
            actor=clerk,
            kind=kind,
            channel="counter",
            address_line=animal.owner.address_line,
            occurred_at=when,
            received_at=when,
            narrative="Seen in the park.",
            complainant_name="Nora Neighbour",
            complainant_phone="651-555-0100",
            animal=animal,
            now=NOW,
        )

    take("barking", datetime(2026, 2, 27, 21, 0, tzinfo=CHICAGO))
    complaint = take("running_at_large", NOW)
    facts_record(
        complaint=complaint,
        actor=officer,
        topic="restraint_facts",
        location="park",
        restraint="leash_held",
        leash_length_ft=10,
        now=NOW,
    )
    entry_record(
        complaint=complaint,
        actor=officer,
        basis="exhibit_dog_or_license",
        entered_at=NOW,
        findings="Owner showed the license.",
        now=NOW,
    )
    return complaint


def _impound_case(nb, gl, animal, actor):
    """A North Branch Sec. 6-75 case (its court gate open) with a photo and a known
    owner, at a pound serving both cities."""
    from impound.services.intake import case_intake
    from tests.impound.factories import make_pound

    return case_intake(
        jurisdiction=nb,
        pound=make_pound(nb, gl),
        actor=actor,
        ground="sec_6_73_at_large",
        placed_at=NOW,
        seized_on=TODAY,
        seized_where="Main Street",
        brought_by_name="Pat Finder",
        brought_by_address="12 Elm St",
        animal=animal,
        species="dog",
        color="Brindle",
        approximate_age_months=24,
        photo=SimpleUploadedFile("stray.png", png_bytes(), content_type="image/png"),
    )


@dataclass
class Scene:
    """The world with the people it was built by and for, and the moment it was built."""

    people: dict
    world: World
    now: datetime = NOW


def build_scene(*, nb, gl, people: dict) -> Scene:
    with time_machine.travel(NOW, tick=False):
        world = build_world(
            nb=nb,
            gl=gl,
            clerk=people["clerk"],
            glencoe_clerk=people["glencoe_clerk"],
            administrator=people["administrator"],
            resident=people["resident"],
        )
    return Scene(people={**people, "veterinarian": world.clinics.vet}, world=world)
