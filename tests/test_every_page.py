"""Every page, every persona that may use it: 200 (or the designed redirect), never 500,
a bounded number of queries with a few hundred rows, and 404 for another city's records.

The data is built through the real services (style.md: a license with its tag and
receipt, a kennel license through its review steps, issued documents), so the pages see
what a city would see. A URL pattern missing from PAGES fails the test, so a new page
must be added here.
"""

from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.apps import apps as django_apps
from django.contrib.contenttypes.models import ContentType
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import resolve, reverse

from base.roles import ADMINISTRATOR, CLERK, OFFICER, RESIDENT
from licensing.models import Animal, KennelStatus, Owner, Premises
from licensing.services import licenses as license_svc
from licensing.services import registry as registry_svc
from licensing.services.kennels.applications import (
    kennel_apply,
    kennel_premises_for,
)
from licensing.services.kennels.documents import kennel_document_issue
from licensing.services.kennels.issuance import kennel_issue
from licensing.services.tags import tag_stock_receive
from tests.accounts.test_url_access import ROUTES, view_roles
from tests.api.pages import API_PAGES, build_api_world
from tests.citations.pages import CITATION_PAGES, build_citations_world
from tests.clinics.pages import CLINIC_PAGES, build_clinics_world
from tests.conftest import make_user
from tests.dangerous_dogs.pages import DD_PAGES, NB_RECORD_PAGES, build_dd_world
from tests.impound.lost_pages import LOST_PAGES, build_lost_world
from tests.licensing.license_factories import kennel_steps_approve
from tests.permits.pages import GL_RECORD_PAGES as PERMIT_GL_RECORD_PAGES
from tests.permits.pages import PERMIT_PAGES, build_permits_world
from tests.rabies.pages import GL_RECORD_PAGES, RABIES_PAGES, build_rabies_world
from tests.records.pages import RECORDS_PAGES, build_records_world
from tests.upload_files import pdf_bytes, png_bytes

CHICAGO = ZoneInfo("America/Chicago")
NOW = datetime(2026, 3, 2, 10, 0, tzinfo=CHICAGO)  # a Monday, inside the 2026 license year
TODAY = NOW.date()
PDF = pdf_bytes()
# Rows beyond the ones the pages are about, so a query per row would show (style.md).
BULK_OWNERS_PER_CITY = 150
# Every page, whatever the data around it (issue 15, item 2). The user's row, roles and
# cities and each city's rule rows come from the cache once one page has read them.
QUERY_BUDGET = 10


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
    change: object = None  # a lost tag the resident reported (issue 12)
    transfer_token: str = ""  # the new owner's link of a transfer the resident reported
    closeout: object = None  # the clerk's closed day and its deposit slip (issue 14)
    complaint: object = None  # a dog at large on a long leash, its facts read (issue 16)
    citations: object = None  # a North Branch citation (issue 16 item 5)
    permits: object = None  # Glencoe's horse and temporary permits (issue 17)
    clinics: object = None  # a clinic's certificates, its tags and a sale (issue 18)
    records: object = None  # North Branch's data export, written (issue 19)
    api: object = None  # a North Branch integration of the read API (issue 19 item 3)
    lost: object = None  # the resident's lost-pet report, matched (issue 20 item 2)


def _issued_kennel(owner, actor):
    kennel = kennel_apply(
        owner=owner,
        premises=kennel_premises_for(owner),
        business_nature="Breeding and boarding",
        dog_count=6,
        cat_count=0,
        cup_reference="CUP-2026-04",
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
    her to fix (issue 12): her pages and the clerk's queue open it."""
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
    that no longer matches: the payment is held (issue 12)."""
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
    """A lost tag and a transfer the resident reported (issue 12 item 5)."""
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
    park, taken at the counter, with an earlier one at the same address (issue 16)."""
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
    owner (issue 9), at a pound serving both cities."""
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


# url name -> (args from the world, {role or "*": expected status}); 200 when absent.
# POST-only views answer a GET with 405 by design; the login page sends a logged-in user
# on; "home" sends each role to its own home; logout is POST-only (Django 5).
PAGES = {
    "accounts:home": (lambda w: [], {"*": 302}),
    "accounts:login": (lambda w: [], {"*": 302}),
    "accounts:logout": (lambda w: [], {"*": 405}),
    # An address from before the rename to "license" (issue 8): a permanent redirect.
    "old_spelling": (lambda w: [f"licences/{w.license.pk}/"], {"*": 301}),
    "accounts:staff_home": (lambda w: [], {}),
    "accounts:resident_home": (lambda w: [], {"*": 302}),  # to licensing's portal
    # Two-step verification (issue 13, item 6). The personas' sessions have passed the
    # second step (administrators) or have nothing to pass (the others): the code page
    # sends them on; fresh recovery codes show once, right after they are made; an
    # administrator, enrolled already, is sent from enrollment to the account page.
    "accounts:second_factor_verify": (lambda w: [], {"*": 302}),
    "accounts:second_factor": (lambda w: [], {}),
    "accounts:second_factor_enroll": (lambda w: [], {ADMINISTRATOR: 302}),
    "accounts:second_factor_codes": (lambda w: [], {"*": 302}),
    "accounts:second_factor_off": (lambda w: [], {"*": 405}),
    # django-allauth (public): our login page is the one login; a signed-in user is sent
    # on from sign-up; the other pages show their own state (a bad key says so).
    "account_login": (lambda w: [], {"*": 302}),
    "account_signup": (lambda w: [], {"*": 302}),
    "account_email_verification_sent": (lambda w: [], {}),
    "account_confirm_email": (lambda w: ["no-such-key"], {}),
    "account_reset_password": (lambda w: [], {}),
    "account_reset_password_done": (lambda w: [], {}),
    "account_reset_password_from_key": (lambda w: ["1", "no-such-key"], {}),
    "account_reset_password_from_key_done": (lambda w: [], {}),
    "ordinance:profile_list": (lambda w: [], {}),
    "ordinance:fee_schedule": (lambda w: [], {}),
    "ordinance:profile_detail": (lambda w: [w.nb.slug], {}),
    "ordinance:rule_amend": (lambda w: [w.nb.slug, "duplicate_tag_fee"], {}),
    "notices:document_list": (lambda w: [], {}),
    "notices:document_detail": (lambda w: [w.receipt_document.pk], {}),
    "notices:document_pdf": (lambda w: [w.receipt_document.pk], {}),
    "licensing:search": (lambda w: [], {}),
    "licensing:owner_create": (lambda w: [], {}),
    "licensing:owner_detail": (lambda w: [w.owner.pk], {}),
    "licensing:owner_edit": (lambda w: [w.owner.pk], {}),
    "licensing:owner_account": (lambda w: [w.owner.pk], {"*": 405}),  # POST: link, unlink
    "licensing:animal_create": (lambda w: [w.owner.pk], {}),
    "licensing:animal_detail": (lambda w: [w.animal.pk], {}),
    "licensing:animal_edit": (lambda w: [w.animal.pk], {}),
    "licensing:animal_photo": (lambda w: [w.animal.pk], {}),
    "licensing:animal_mark_deceased": (lambda w: [w.animal.pk], {"*": 405}),
    "licensing:vaccination_create": (lambda w: [w.animal.pk], {}),
    "licensing:vaccination_certificate": (lambda w: [w.vaccination.pk], {}),
    "licensing:counter_start": (lambda w: [], {}),
    "licensing:counter_animal": (lambda w: [w.owner.pk], {}),
    "licensing:counter_pay": (lambda w: [w.animal.pk], {}),
    "licensing:license_issued": (lambda w: [w.license.pk], {}),
    "licensing:license_detail": (lambda w: [w.license.pk], {}),
    "licensing:license_transfer": (lambda w: [w.license.pk], {}),
    "licensing:license_duplicate_tag": (lambda w: [w.license.pk], {}),
    "licensing:license_address": (lambda w: [w.license.pk], {}),
    "licensing:license_close": (lambda w: [w.license.pk], {}),
    "licensing:receipt_detail": (lambda w: [w.receipt.pk], {}),
    "licensing:receipt_void": (lambda w: [w.receipt.pk], {}),
    "licensing:tag_stock": (lambda w: [], {}),
    # Merging a duplicate owner record (issue 14, item 7): the search, the confirmation.
    "licensing:owner_merge": (lambda w: [w.owner.pk], {}),
    "licensing:owner_merge_confirm": (lambda w: [w.owner.pk, w.kennel.owner_id], {}),
    "licensing:kennel_list": (lambda w: [], {}),
    "licensing:kennel_apply": (lambda w: [], {}),
    "licensing:kennel_detail": (lambda w: [w.kennel.pk], {}),
    "licensing:kennel_transfer": (lambda w: [w.kennel.pk], {}),
    "licensing:kennel_document": (lambda w: [w.kennel.pk], {"*": 405}),
    "licensing:kennel_action": (lambda w: [w.kennel.pk, "decide"], {"*": 405}),
    "licensing:tag_lookup": (lambda w: [], {}),
    "licensing:reports": (lambda w: [], {}),
    "licensing:report_issued": (lambda w: [], {}),
    "licensing:report_revenue": (lambda w: [], {}),
    "licensing:report_tags": (lambda w: [], {}),
    "licensing:report_expiring": (lambda w: [], {}),
    # Renewal notices by mail (issue 14 item 6): the notices print on POST (they are
    # recorded as printed); the labels are a PDF of the same owners.
    "licensing:report_expiring_notices": (lambda w: [], {"*": 405}),
    "licensing:report_expiring_labels": (lambda w: [], {}),
    # The clerk's daily close-out and deposit slip (issue 14 item 4).
    "licensing:closeout_list": (lambda w: [], {}),
    "licensing:closeout_day": (lambda w: [], {}),
    "licensing:closeout_close": (lambda w: [], {}),  # GET: the confirmation step
    # The clerk's own, and every close-out for an administrator: not another's (404).
    "licensing:closeout_detail": (lambda w: [w.closeout.pk], {OFFICER: 404}),
    "licensing:portal_home": (lambda w: [], {}),
    "licensing:portal_link": (lambda w: [], {}),
    "licensing:portal_animal": (lambda w: [w.animal.pk], {}),
    "licensing:portal_certificate": (lambda w: [w.vaccination.pk], {}),
    # Online applications (issue 12): the resident's pages and the clerk's queue.
    "licensing:application_start": (lambda w: [w.animal.pk], {}),
    "licensing:application_detail": (lambda w: [w.application.pk], {}),
    "licensing:application_edit": (lambda w: [w.application.pk], {}),
    "licensing:application_withdraw": (lambda w: [w.application.pk], {"*": 405}),
    "licensing:application_certificate": (lambda w: [w.application.pk], {}),
    "online:review_list": (lambda w: [], {}),
    "online:review_detail": (lambda w: [w.application.pk], {}),
    "online:review_approve": (lambda w: [w.application.pk], {"*": 405}),
    "online:review_return": (lambda w: [w.application.pk], {"*": 405}),
    "online:review_pay": (lambda w: [w.application.pk], {"*": 405}),
    "online:review_tag_mailed": (lambda w: [w.application.pk], {"*": 405}),
    "online:mailing_list": (lambda w: [], {}),
    "online:mailing_list_mailed": (lambda w: [], {"*": 405}),
    # Online payments (issue 12): the resident's pages, the clerk's list, the webhook.
    "licensing:application_pay": (lambda w: [w.paid_application.pk], {}),
    "licensing:application_paid": (lambda w: [w.paid_application.pk], {}),
    "licensing:payment_list": (lambda w: [], {}),
    "licensing:payment_finish": (lambda w: [w.payment.pk], {"*": 405}),
    "licensing:stripe_webhook": (lambda w: [], {"*": 405}),
    # Changes residents report and the clerk's queue of them (issue 12 item 5).
    "licensing:change_report": (lambda w: [w.animal.pk, "address"], {}),
    "licensing:change_detail": (lambda w: [w.change.pk], {}),
    "licensing:transfer_accept": (lambda w: [w.transfer_token], {}),
    "changes:list": (lambda w: [], {}),
    "changes:detail": (lambda w: [w.change.pk], {}),
    "impound:case_disposition": (lambda w: [w.impound_case.pk], {}),
    "impound:sterilization_list": (lambda w: [], {}),
    "impound:case_redeem": (lambda w: [w.impound_case.pk], {}),
    "impound:gate_clear": (lambda w: [w.impound_gate.pk], {}),
    "impound:humane_destruction": (lambda w: [w.impound_case.pk], {}),
    "impound:records": (lambda w: [], {}),
    "impound:register_csv": (lambda w: [], {}),
    "impound:public_records": (lambda w: [w.nb.slug], {}),
    # Issue 20: the found animals (the world's case is held, with a photo) and the CSV.
    "impound:public_records_csv": (lambda w: [w.nb.slug], {}),
    "impound:found_all": (lambda w: [], {}),
    "impound:found_city": (lambda w: [w.nb.slug], {}),
    "impound:found_photo": (lambda w: [w.impound_case.pk], {}),
    "impound:board": (lambda w: [], {}),
    "impound:intake": (lambda w: [], {}),
    "impound:case_detail": (lambda w: [w.impound_case.pk], {}),
    "impound:case_photo": (lambda w: [w.impound_case.pk], {}),
    "impound:case_identify_owner": (lambda w: [w.impound_case.pk], {}),
    # Impound notices (IMP-05): the case's notices page; the forms are POST-only.
    "impound:case_notices": (lambda w: [w.impound_case.pk], {}),
    "impound:case_notice_letter": (lambda w: [w.impound_case.pk], {"*": 405}),
    "impound:case_notice_posted": (lambda w: [w.impound_case.pk], {"*": 405}),
    "impound:case_notice_attempt": (lambda w: [w.impound_case.pk], {"*": 405}),
    "impound:case_notice_served": (
        lambda w: [w.impound_case.pk, w.receipt_document.pk],
        {"*": 405},
    ),
    "impound:case_notice_posting": (
        lambda w: [w.impound_case.pk, w.receipt_document.pk],
        {"*": 405},
    ),
    "impound:case_notice_void": (
        lambda w: [w.impound_case.pk, w.receipt_document.pk],
        {"*": 405},
    ),
}
# Complaints (issue 16): the list, intake, the complaint page and the officer's forms.
PAGES.update(
    {
        "complaints:list": (lambda w: [], {}),
        "complaints:intake": (lambda w: [], {}),
        "complaints:detail": (lambda w: [w.complaint.pk], {}),
        "complaints:facts": (lambda w: [w.complaint.pk], {}),
        "complaints:entry": (lambda w: [w.complaint.pk], {}),
        "complaints:outcome": (lambda w: [w.complaint.pk], {}),
        # The case file and follow-up date (item 6), the reports (item 7).
        "complaints:follow_up": (lambda w: [w.complaint.pk], {}),
        "complaints:premises_casefile": (lambda w: [w.complaint.premises_id], {}),
        "complaints:report_kinds": (lambda w: [], {}),
        "complaints:report_repeats": (lambda w: [], {}),
        "complaints:report_citations": (lambda w: [], {}),
        # The barking-dog seizure (issue 16 item 4): North Branch's page says its
        # ordinance has none; tests/complaints/test_seizure_views.py walks Glencoe's.
        "complaints:seizure": (lambda w: [w.complaint.pk], {}),
        "complaints:seizure_contact": (lambda w: [w.complaint.pk], {"*": 405}),
        # The premises page (issue 17 items 2, 5): North Branch's, with no permit section.
        "licensing:premises_detail": (lambda w: [w.animal.premises_id], {}),
    }
)
PAGES.update(DD_PAGES)
PAGES.update(RABIES_PAGES)
PAGES.update(CITATION_PAGES)
PAGES.update(PERMIT_PAGES)
PAGES.update(CLINIC_PAGES)
PAGES.update(RECORDS_PAGES)
PAGES.update(API_PAGES)
PAGES.update(LOST_PAGES)


def glencoe_record(name, world) -> bool:
    """A dangerous-dog page showing a Glencoe record (the proceeding is Glencoe's, DD-29)."""
    if name in GL_RECORD_PAGES or name in PERMIT_GL_RECORD_PAGES:
        return bool(PAGES[name][0](world))
    return name in DD_PAGES and name not in NB_RECORD_PAGES and bool(PAGES[name][0](world))


def url_names() -> set[str]:
    """Every named URL pattern with its namespace (Django admin excluded)."""
    from django.urls import get_resolver

    names = set()

    def walk(patterns, namespace=""):
        for p in patterns:
            if hasattr(p, "url_patterns"):
                if p.namespace != "admin":
                    walk(p.url_patterns, f"{namespace}{p.namespace}:" if p.namespace else namespace)
            elif p.name:
                names.add(f"{namespace}{p.name}")

    walk(get_resolver().url_patterns)
    return names


def roles_of(url):
    """The roles the view behind ``url`` declares (None: public)."""
    return view_roles(resolve(url).func)


def walk_pages(world):
    """(name, url, roles, expected) for every page, with the world's real ids."""
    for name, (args, expected) in PAGES.items():
        url = reverse(name, args=args(world))
        yield name, url, roles_of(url), expected


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def frozen():
    with time_machine.travel(NOW, tick=False):
        yield


@pytest.fixture
def world(frozen, north_branch, glencoe, clerk, glencoe_clerk, administrator, resident):
    return build_world(
        nb=north_branch,
        gl=glencoe,
        clerk=clerk,
        glencoe_clerk=glencoe_clerk,
        administrator=administrator,
        resident=resident,
    )


@pytest.fixture
def veterinarian(world):
    """A clinic's login (issue 18): its own clinic's pages only."""
    return world.clinics.vet


def test_every_url_pattern_is_in_the_page_table():
    """A new page must say here who opens it and what they get."""
    missing = url_names() - set(PAGES)
    assert not missing, f"add these url names to PAGES: {sorted(missing)}"
    assert len(ROUTES) == len(url_names())


# The Glencoe clerk is here for the pages without a record in the URL (lists, forms,
# reports); the records in the world's URLs are North Branch's: see the 404 test below.
PERSONAS = ["clerk", "glencoe_clerk", "officer", "administrator", "resident", "veterinarian"]


@pytest.mark.parametrize("persona", PERSONAS)
def test_every_page_opens_for_each_role_that_may_use_it(
    persona, request, world, client, django_assert_max_num_queries
):
    user = request.getfixturevalue(persona)
    role = user.primary_role
    client.force_login(user)
    for city in (world.nb, world.gl):  # what any first page reads, kept in the cache
        client.get(reverse("ordinance:profile_detail", args=[city.slug]))
    # Django keeps each model's content type in the process once read (the history lists).
    ContentType.objects.get_for_models(*django_apps.get_models())
    failures, opened = [], []
    for name, url, roles, expected in walk_pages(world):
        if roles is not None and role not in roles:
            continue
        if persona == "glencoe_clerk" and PAGES[name][0](world) and not glencoe_record(name, world):
            continue
        if persona == "clerk" and glencoe_record(name, world):
            continue
        with django_assert_max_num_queries(QUERY_BUDGET):
            response = client.get(url)
        opened.append(name)
        want = expected.get(role, expected.get("*", 200))
        if response.status_code != want:
            failures.append((url, response.status_code, want))
    assert opened, f"{persona} opened no page"
    assert not failures, f"{persona}: {failures}"


def test_a_staff_member_of_the_other_city_gets_404_for_every_record(
    world, client, glencoe_clerk, glencoe, clerk
):
    gl_admin = make_user("gladys", ADMINISTRATOR, [glencoe])
    nb_admin = make_user("ned", ADMINISTRATOR, [world.nb])
    failures, checked = [], 0
    for user in (glencoe_clerk, gl_admin, clerk, nb_admin):
        client.force_login(user)
        of_glencoe = user in (clerk, nb_admin)
        for name, url, roles, expected in walk_pages(world):
            # A public address (the old-spelling redirect) shows no record of its own.
            if not PAGES[name][0](world) or roles is None or user.primary_role not in roles:
                continue
            if glencoe_record(name, world) != of_glencoe:
                continue
            # A POST-only view must not reveal the record either, so POST to it.
            send = client.post if expected.get("*") == 405 else client.get
            status = send(url, {}).status_code if send is client.post else send(url).status_code
            checked += 1
            if status != 404:
                failures.append((user.username, url, status))
    assert checked > 20 and not failures, failures


def test_the_other_city_sees_its_own_records(world, client, glencoe_clerk):
    """The 404s above are about the city, not about the pages: Glencoe's own rows open."""
    client.force_login(glencoe_clerk)
    for url in (
        reverse("licensing:owner_detail", args=[world.gl_owner.pk]),
        reverse("licensing:animal_detail", args=[world.gl_animal.pk]),
        reverse("licensing:kennel_detail", args=[world.gl_kennel.pk]),
        reverse("notices:document_detail", args=[world.gl_document.pk]),
        reverse("notices:document_pdf", args=[world.gl_document.pk]),
        reverse("ordinance:profile_detail", args=[world.gl.slug]),
    ):
        assert client.get(url).status_code == 200, url


def test_a_resident_sees_only_their_own_documents(world, client, other_resident, resident):
    client.force_login(other_resident)
    for name in ("notices:document_detail", "notices:document_pdf"):
        assert client.get(reverse(name, args=[world.receipt_document.pk])).status_code == 404
    client.force_login(resident)
    assert (
        client.get(reverse("notices:document_detail", args=[world.kennel_document.pk])).status_code
        == 404
    )


def test_a_resident_sees_only_their_own_animals(world, client, other_resident):
    client.force_login(other_resident)
    for name, args in (
        ("licensing:portal_animal", [world.animal.pk]),
        ("licensing:portal_certificate", [world.vaccination.pk]),
        ("licensing:portal_animal", [world.gl_animal.pk]),
        ("licensing:application_start", [world.animal.pk]),
        ("licensing:application_detail", [world.application.pk]),
        ("licensing:application_edit", [world.application.pk]),
        ("licensing:application_certificate", [world.application.pk]),
        ("licensing:application_pay", [world.paid_application.pk]),
        ("licensing:application_paid", [world.paid_application.pk]),
        ("licensing:change_report", [world.animal.pk, "lost_tag"]),
        ("licensing:change_detail", [world.change.pk]),
    ):
        assert client.get(reverse(name, args=args)).status_code == 404, name


@pytest.mark.parametrize(
    "persona, role",
    [
        ("clerk", CLERK),
        ("officer", OFFICER),
        ("administrator", ADMINISTRATOR),
        ("resident", RESIDENT),
    ],
)
def test_home_sends_each_role_to_its_own_home(persona, role, request, client, world):
    client.force_login(request.getfixturevalue(persona))
    response = client.get(reverse("accounts:home"))
    target = "accounts:resident_home" if role == RESIDENT else "accounts:staff_home"
    assert response.status_code == 302 and response.url == reverse(target)
    assert client.get(response.url, follow=True).status_code == 200


def test_django_admin_opens_for_the_administrator(client, administrator, world):
    client.force_login(administrator)
    assert client.get("/admin/").status_code == 200
