"""The clinic rows of tests/test_every_page.py's page table.

A North Branch clinic with one login (the veterinarian persona) has sent two
certificates for North Branch: one matched to the world's dog (with its signed PDF), one
waiting for the clerk. The North Branch clerk has run the vaccinated-but-unlicensed
follow-up once (item 3: the world's dog Sage, vaccinated when her application was
approved, holds no license yet). Every clinic page with a record in its URL shows a
North Branch record.

The clerk also issued the clinic North Branch's 2026 tags 41-50, and it sold a license on
a third certificate (tag 41, the city's next receipt); a fourth dog's certificate is
recorded and waits for its sale (item 4)."""

from dataclasses import dataclass

from django.core.files.uploadedfile import SimpleUploadedFile


@dataclass
class ClinicsWorld:
    clinic: object
    vet: object
    member: object
    matched: object
    queued: object
    followup: object = None  # the follow-up batch the clerk ran (item 3)
    block: object = None  # tags 41-50 issued to the clinic
    sale: object = None  # a license it sold from the block
    to_sell: object = None  # a recorded certificate whose license is not sold yet


def _sellable(clinic, vet, *, nb, clerk, now, name, chip, street):
    """An owner and dog registered at the counter, and the clinic's certificate for it,
    matched by microchip and owner (recorded, RAB-05)."""
    from clinics.services import certificates
    from licensing.services import registry
    from tests.clinics.helpers import cleaned

    owner = registry.owner_create(
        jurisdiction=nb,
        actor=clerk,
        first_name="Sam",
        last_name=f"Seller{name}",
        address_line=street,
        city="North Branch",
        state="MN",
        postal_code="55056",
    )
    registry.animal_register(
        owner=owner,
        actor=clerk,
        on=now.date(),
        species="dog",
        name=name,
        breed="Beagle",
        color="Tricolor",
        sex="male",
        date_of_birth=now.date().replace(year=now.year - 3),
        acquired_on=now.date().replace(year=now.year - 3, month=6),
        microchip=chip,
    )
    return certificates.certificate_submit(
        clinic=clinic,
        jurisdiction=nb,
        actor=vet,
        now=now,
        **cleaned(
            clinic,
            vaccinated_on=str(now.date()),
            owner_first_name="Sam",
            owner_last_name=f"Seller{name}",
            owner_address=street,
            animal_name=name,
            microchip=chip,
        ),
    )


def _sales(world: ClinicsWorld, *, nb, clerk, now) -> None:
    from clinics.services.consignment import consignment_issue
    from clinics.services.sales import clinic_sale

    world.block = consignment_issue(
        clinic=world.clinic,
        jurisdiction=nb,
        year=now.year,
        first_number=41,
        last_number=50,
        actor=clerk,
        note="Spring vaccination clinic",
        now=now,
    )
    sold = _sellable(
        world.clinic,
        world.vet,
        nb=nb,
        clerk=clerk,
        now=now,
        name="Clover",
        chip="985112007700001",
        street="7 Clinic Court",
    )
    world.sale = clinic_sale(clinic=world.clinic, certificate=sold, actor=world.vet, now=now)
    world.to_sell = _sellable(
        world.clinic,
        world.vet,
        nb=nb,
        clerk=clerk,
        now=now,
        name="Daisy",
        chip="985112007700002",
        street="9 Clinic Court",
    )


def build_clinics_world(*, nb, animal, now, pdf: bytes, clerk=None) -> ClinicsWorld:
    from clinics.models import ClinicMember
    from clinics.services import certificates
    from tests.clinics.helpers import cleaned, make_clinic, make_vet

    clinic = make_clinic([nb])
    vet = make_vet(clinic, now=now)
    matched = certificates.certificate_submit(
        clinic=clinic,
        jurisdiction=nb,
        actor=vet,
        now=now,
        certificate=SimpleUploadedFile("c.pdf", pdf, content_type="application/pdf"),
        **cleaned(
            clinic,
            vaccinated_on=str(now.date()),
            owner_first_name=animal.owner.first_name,
            owner_last_name=animal.owner.last_name,
            owner_address=animal.owner.address_line,
            animal_name=animal.name,
            microchip=animal.microchip,
        ),
    )
    queued = certificates.certificate_submit(
        clinic=clinic,
        jurisdiction=nb,
        actor=vet,
        now=now,
        **cleaned(clinic, vaccinated_on=str(now.date()), owner_last_name="Unknown"),
    )
    member = ClinicMember.objects.get(user=vet)
    world = ClinicsWorld(clinic=clinic, vet=vet, member=member, matched=matched, queued=queued)
    if clerk is not None:
        from clinics.services.followup import followup_run

        [run] = followup_run(actor=clerk, cities=[nb], now=now)
        world.followup = run.batch
        assert world.followup is not None and world.followup.letter_count, run
        _sales(world, nb=nb, clerk=clerk, now=now)
    return world


def _statement(w):
    """The month of the world's sale (its statement lists it)."""
    from django.utils import timezone

    sold = timezone.localtime(w.clinics.sale.sold_at)
    return [w.clinics.clinic.pk, w.nb.pk, sold.year, sold.month]


CLINIC_PAGES = {
    "clinics:home": (lambda w: [], {}),
    "clinics:certificate_new": (lambda w: [], {}),
    "clinics:batch_new": (lambda w: [], {}),
    "clinics:batch_template": (lambda w: [], {}),
    "clinics:submission_detail": (lambda w: [w.clinics.matched.pk], {}),
    "clinics:submission_file": (lambda w: [w.clinics.matched.pk], {}),
    "clinics:queue": (lambda w: [], {}),
    "clinics:review": (lambda w: [w.clinics.queued.pk], {}),
    "clinics:confirm": (lambda w: [w.clinics.queued.pk], {"*": 405}),
    "clinics:reject": (lambda w: [w.clinics.queued.pk], {"*": 405}),
    "clinics:register": (lambda w: [w.clinics.queued.pk], {"*": 405}),
    "clinics:report_certificates": (lambda w: [], {}),
    "clinics:report_match_rate": (lambda w: [], {}),
    # Vaccinated but unlicensed (item 3): the report, the run (POST), a batch's letters,
    # the results. A clinic, an officer and a resident are refused by role.
    "clinics:unlicensed": (lambda w: [], {}),
    "clinics:unlicensed_run": (lambda w: [], {"*": 405}),
    "clinics:unlicensed_batch_pdf": (lambda w: [w.clinics.followup.pk], {}),
    "clinics:unlicensed_results": (lambda w: [], {}),
    "clinics:clinic_list": (lambda w: [], {}),
    "clinics:clinic_detail": (lambda w: [w.clinics.clinic.pk], {}),
    "clinics:member_invite": (lambda w: [w.clinics.clinic.pk], {"*": 405}),
    "clinics:member_deactivate": (lambda w: [w.clinics.member.pk], {"*": 405}),
    # Licenses sold at the clinic: the clinic's pages, the city's tags
    # at clinics, the statements (the clinic's and the staff's) and the balances.
    "clinics:sale_list": (lambda w: [], {}),
    "clinics:sale_new": (lambda w: [w.clinics.to_sell.pk], {}),
    "clinics:sale_detail": (lambda w: [w.clinics.sale.pk], {}),
    "clinics:sale_receipt": (lambda w: [w.clinics.sale.pk], {}),
    "clinics:consignment_list": (lambda w: [], {}),
    "clinics:block_detail": (lambda w: [w.clinics.block.pk], {}),
    "clinics:block_reconcile": (lambda w: [w.clinics.block.pk], {"*": 405}),
    "clinics:balances": (lambda w: [], {}),
    "clinics:statement": (_statement, {}),
    "clinics:statement_pdf": (_statement, {}),
    "clinics:statement_csv": (_statement, {}),
}
