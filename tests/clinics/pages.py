"""The clinic rows of tests/test_every_page.py's page table (issue 18, items 1 to 3).

A North Branch clinic with one login (the veterinarian persona) has sent two
certificates for North Branch: one matched to the world's dog (with its signed PDF), one
waiting for the clerk. The North Branch clerk has run the vaccinated-but-unlicensed
follow-up once (item 3: the world's dog Sage, vaccinated when her application was
approved, holds no license yet). Every clinic page with a record in its URL shows a
North Branch record."""

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
    batch = None
    if clerk is not None:
        from clinics.services.followup import followup_run

        [run] = followup_run(actor=clerk, cities=[nb], now=now)
        batch = run.batch
        assert batch is not None and batch.letter_count, run
    return ClinicsWorld(
        clinic=clinic, vet=vet, member=member, matched=matched, queued=queued, followup=batch
    )


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
}
