"""A one-city clerk sees only their city: every list, search, report and CSV export.

Both cities get records that are easy to spot. The Glencoe side carries the marker
"Zzgl" in every name, address, vendor and number a page could print; a North Branch clerk
walks every page without a record in its URL (and the searches of the transfer pages)
and none of it may appear. Where a page would show the Glencoe rows if it forgot its
filter, the Glencoe clerk (or the administrator, who serves both cities) sees them on
the same URL, so the walk is not vacuous. The walk is built from the URL patterns: a
new page without arguments fails `test_every_page_without_arguments_is_walked` until it
is added to WALK or to NOT_WALKED with the reason.

Rules: records are kept per jurisdiction (style.md "Deny by default"); LIC-06/REC-01
receipts, LIC-08/LIC-09 tags, KEN-04..07 kennels, LIC-07 expiring licenses.
"""

import copy
import csv
import io
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.urls import get_resolver, reverse

from base.roles import ADMINISTRATOR
from licensing.models import KennelStatus
from licensing.services import licenses as license_svc
from licensing.services import registry as registry_svc
from licensing.services.kennels.applications import (
    KennelRequest,
    kennel_apply,
    kennel_premises_for,
    step_progress,
)
from licensing.services.kennels.common import DecidedBy
from licensing.services.kennels.denials import kennel_deny
from licensing.services.kennels.documents import kennel_document_issue
from licensing.services.kennels.issuance import kennel_issue
from licensing.services.tags import issue_tag, tag_stock_receive
from ordinance.deadlines import UPCOMING_HORIZON_DAYS
from tests.conftest import make_user
from tests.licensing.license_factories import LicenseFactory, kennel_steps_approve
from tests.world import Scene

CHICAGO = ZoneInfo("America/Chicago")
NOW = datetime(2026, 3, 2, 10, 0, tzinfo=CHICAGO)  # a Monday inside the 2026 license year
TODAY = NOW.date()
YEAR = f"start={TODAY.year}-01-01&end={TODAY.year}-12-31"

# Text only Glencoe's records carry. "Zzgl" is in the owner's and animal's names, the
# premises' street, the tag vendor; the phone, microchip and rabies tag are Glencoe's own;
# "Gus Glencoe" is the Glencoe clerk who issued its documents. The searches below type
# other spellings ("zzglencoe", digits only), and what a page echoes of the query is
# taken out before looking (`_page_text`).
GL_MARKERS = ("Zzgl", "320-555-0199", "985000000990199", "RZZ0199", "Gus Glencoe")
# North Branch's own records, for the pages that must still show them.
NB_MARKER = "Nbonly"

CLERK_NAMESPACES = (
    "accounts",
    "ordinance",
    "notices",
    "licensing",
    "impound",
    "rabies",
    "dangerous_dogs",
    "online",
    "changes",
    "complaints",
    "citations",
    "permits",
    "clinics",
    "records",
    "integrations",
    "api",
)


@dataclass
class Cities:
    nb: object
    gl: object
    nb_license: object
    nb_kennel: object
    gl_owner: object
    gl_kennel: object
    gl_denied: object


def _kennel(owner, actor, *, issue=True):
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
    if issue:
        kennel_steps_approve(kennel, actor, on=TODAY)
        kennel_issue(kennel=kennel, actor=actor, now=NOW, method="cash")
        kennel_document_issue(kennel=kennel, actor=actor, now=NOW)
        kennel.refresh_from_db()
        assert kennel.status == KennelStatus.ACTIVE
    return kennel


def _owner(city, actor, first, last, street, phone, **extra):
    return registry_svc.owner_create(
        jurisdiction=city,
        actor=actor,
        first_name=first,
        last_name=last,
        address_line=street,
        city=city.short_name,
        state="MN",
        postal_code="55056" if city.slug == "north-branch" else "55336",
        phone=phone,
        **extra,
    )


def build(nb, gl, clerk, glencoe_clerk) -> Cities:
    """Each city's records through the services, as its own clerk would enter them."""
    # North Branch: tags, an owner with a licensed dog, a kennel (receipts, documents).
    tag_stock_receive(
        jurisdiction=nb,
        year=2026,
        first_number=1,
        last_number=50,
        received_on=date(2025, 11, 1),
        vendor="Nbonly Tag & Stamp",
        actor=clerk,
    )
    owner = _owner(nb, clerk, "Rita", "Nbonlyowner", "38520 Nbonly Avenue", "651-555-0147")
    dog = registry_svc.animal_register(
        owner=owner,
        actor=clerk,
        on=TODAY,
        species="dog",
        name="Nbonlydog",
        breed="Labrador Retriever",
        color="Yellow",
        sex="female",
        date_of_birth=date(2022, 5, 1),
        acquired_on=date(2022, 7, 15),
        microchip="985112003344556",
    )
    registry_svc.vaccination_record(
        animal=dog,
        actor=clerk,
        on=TODAY,
        vaccinated_on=date(2025, 6, 1),
        duration_years=3,
        veterinarian_name="Dr. Ann Holm",
        veterinarian_license="MN-VET-10442",
        rabies_tag_number="R000123",
    )
    result = license_svc.license_issue(
        animal=dog, owner=owner, actor=clerk, on=TODAY, method="cash", now=NOW
    )
    nb_kennel = _kennel(
        _owner(nb, clerk, "Kari", "Nbonlykennel", "5 Nbonly Lane", "651-555-0148"), clerk
    )

    # Glencoe: an owner and dog, an issued kennel (its fee receipt and document), a
    # denied kennel whose appeal deadline is on the home page (KEN-07).
    gl_owner = _owner(
        gl,
        glencoe_clerk,
        "Gerhard",
        "Zzglencoeonly",
        "1107 Zzglhennepin Avenue",
        "320-555-0199",
        email="zzgl@example.org",
    )
    gl_dog = registry_svc.animal_register(
        owner=gl_owner,
        actor=glencoe_clerk,
        on=TODAY,
        species="dog",
        name="Zzglfritz",
        sex="male",
        date_of_birth=date(2021, 4, 1),
        microchip="985000000990199",
    )
    registry_svc.vaccination_record(
        animal=gl_dog,
        actor=glencoe_clerk,
        on=TODAY,
        vaccinated_on=date(2025, 6, 1),
        duration_years=3,
        veterinarian_name="Dr. Zzgl Vet",
        veterinarian_license="MN-VET-20001",
        rabies_tag_number="RZZ0199",
    )
    gl_kennel = _kennel(gl_owner, glencoe_clerk)
    denied_owner = _owner(
        gl, glencoe_clerk, "Greta", "Zzgldenied", "12 Zzgldenied Street", "320-555-0198"
    )
    gl_denied = _kennel(denied_owner, glencoe_clerk, issue=False)
    step = step_progress(gl_denied, on=TODAY)[0][0]
    denied_on = TODAY - timedelta(days=5)
    kennel_deny(
        kennel=gl_denied,
        step=step,
        decided=DecidedBy(
            name="Zzgl Administrator",
            capacity="City Administrator",
            on=denied_on,
            reasons="Zoning.",
        ),
        actor=glencoe_clerk,
        notified_on=denied_on,
    )
    gl_denied.refresh_from_db()
    assert TODAY <= gl_denied.appeal_deadline <= TODAY + timedelta(days=UPCOMING_HORIZON_DAYS)

    # Glencoe issues no dog licenses (LIC-16); tags and a license row made directly stand
    # in for records the tag pages and license reports must keep out all the same.
    stock = tag_stock_receive(
        jurisdiction=gl,
        year=2026,
        first_number=1,
        last_number=37,
        received_on=TODAY,
        vendor="Zzgl Tag Works",
        actor=glencoe_clerk,
    )
    gl_license = LicenseFactory(
        jurisdiction=gl,
        number="2026-0099",
        animal=gl_dog,
        owner=gl_owner,
        issued_on=TODAY,
        issued_by=glencoe_clerk,
        receipt=None,
    )
    issue_tag(stock.tags.get(number=1), license=gl_license, on=TODAY)
    _impound_cases(nb, gl, clerk, glencoe_clerk)
    _online_payment(gl, gl_owner, gl_dog)
    _dangerous_dog_case(gl, glencoe_clerk)
    _rabies_records(gl, glencoe_clerk)
    _online_application(gl_dog, gl_owner, glencoe_clerk)
    _reported_death(gl_dog)
    _complaints(nb, gl, clerk, glencoe_clerk)
    _citations(nb, gl, dog, clerk, glencoe_clerk)
    _permits(gl, glencoe_clerk)
    _clinic_certificates(gl, glencoe_clerk)
    _lost_reports(nb, gl)
    return Cities(
        nb=nb,
        gl=gl,
        nb_license=result.license,
        nb_kennel=nb_kennel,
        gl_owner=gl_owner,
        gl_kennel=gl_kennel,
        gl_denied=gl_denied,
    )


def _lost_reports(nb, gl):
    """A resident's lost-pet report in each city: the staff list keeps
    to the user's cities."""
    from impound.services.lost import lost_report_file

    reporter = make_user("lost_owner", "resident", email="lost@example.org")
    for city, color in ((nb, "Nbonly gray"), (gl, "Zzgl tabby")):
        lost_report_file(
            reporter=reporter,
            jurisdiction=city,
            now=NOW,
            species="cat",
            color=color,
            lost_on=TODAY,
            lost_where="Zzgl Lane" if city == gl else "Nbonly Lane",
        )


def _citations(nb, gl, nb_dog, clerk, glencoe_clerk):
    """A citation in each city: the list keeps to the user's city."""
    from citations.services.issuance import Charge, Defendant, issue_citation
    from tests.impound.helpers import owned_dog

    gl_dog = owned_dog(gl, name="Zzglbarker")
    for city, actor, animal, code, court in (
        (nb, clerk, nb_dog, "at_large", "Nbonly District Court"),
        (gl, glencoe_clerk, gl_dog, "barking", "Zzgl County Court"),
    ):
        charge = Charge(
            violation=code,
            violated_at=NOW,
            location="Main Street",
            court=court,
            appearance_on=TODAY + timedelta(weeks=3),
            charge_class="petty_misdemeanor",
        )
        issue_citation(
            jurisdiction=city,
            actor=actor,
            charge=charge,
            defendant=Defendant(animal=animal),
            now=NOW,
        )


def _reported_death(gl_dog):
    """A Glencoe resident reports their dog died."""
    from licensing.services.changes import change_report

    resident = make_user("zzglresident", "resident")
    gl_dog.owner.user = resident
    gl_dog.owner.save(update_fields=["user"])
    change_report(animal=gl_dog, kind="death", happened_on=TODAY, details={}, user=resident)


def _complaints(nb, gl, clerk, glencoe_clerk):
    """Two barking complaints at one address in each city: the list shows its
    own city's, the repeat-address report its own address."""
    from complaints.services import complaint_intake

    for city, actor, street in (
        (nb, clerk, "1 Nbonly Street"),
        (gl, glencoe_clerk, "1 Zzgl Street"),
    ) * 2:
        complaint_intake(
            jurisdiction=city,
            actor=actor,
            kind="barking",
            channel="counter",
            address_line=street,
            occurred_at=NOW,
            received_at=NOW,
            narrative="Barking all night.",
            anonymous=True,
            now=NOW,
        )


def _impound_cases(nb, gl, clerk, glencoe_clerk):
    """A case in each city at a pound serving both: the board lists its own."""
    from impound.services.intake import case_intake
    from tests.impound.factories import make_pound

    pound = make_pound(nb, gl, name="Shared County Pound")
    for city, actor, ground, color in (
        (nb, clerk, "unlicensed_at_large", "Nbonly brindle"),
        (gl, glencoe_clerk, "dog_at_large", "Zzgl brindle"),
    ):
        case_intake(
            jurisdiction=city,
            pound=pound,
            actor=actor,
            ground=ground,
            placed_at=NOW,
            seized_on=TODAY,
            seized_where="Main Street",
            brought_by_name="Pat Finder",
            brought_by_address="12 Elm Street",
            species="dog",
            color=color,
            approximate_age_months=24,
        )


def _online_payment(gl, gl_owner, gl_dog):
    """A card payment received for a Glencoe online application: the list of
    online payments is the clerk's own city's. Recorded directly: Glencoe issues no dog
    licenses (LIC-16), so no application of its own is ever approved."""
    from decimal import Decimal

    from licensing.models import OnlineApplication, Payment
    from licensing.models.online import ApplicationKind

    gl_owner.user = make_user("zzgl-resident", "resident")
    gl_owner.save()
    application = OnlineApplication.objects.create(
        jurisdiction=gl,
        kind=ApplicationKind.NEW,
        animal=gl_dog,
        owner=gl_owner,
        submitted_by=gl_owner.user,
        submitted_at=NOW,
        status_changed_at=NOW,
        applied_on=TODAY,
    )
    Payment.receive(
        application=application,
        provider="stripe",
        provider_id="pi_zzgl_0001",
        reference="pi_zzgl_0001",
        amount=Decimal("18.00"),
        currency="usd",
        at=NOW,
    )


def _rabies_records(gl, glencoe_clerk):
    """A Glencoe bite report and a dog whose rabies vaccination lapsed: the
    dashboard and the overdue list must keep them to Glencoe's users."""
    from tests.impound.helpers import owned_dog
    from tests.rabies.helpers import make_bite, vaccinate

    make_bite(gl, glencoe_clerk, animal=owned_dog(gl, name="Zzglbiter"))
    lapsed = owned_dog(gl, name="Zzgllapsed", acquired_on=date(2020, 1, 1))
    vaccinate(lapsed, date(2024, 6, 1))  # due again June 1, 2025 (RAB-02)


def _online_application(gl_dog, gl_owner, glencoe_clerk):
    """An issued Glencoe online application with its tag to mail, made as a
    row: Glencoe issues no license (LIC-16), so it stands in for what the queue and the
    mailing list must keep to Glencoe's users."""
    from licensing.models import License, OnlineApplication

    OnlineApplication.objects.create(
        jurisdiction=gl_owner.jurisdiction,
        kind="new",
        status="issued",
        status_changed_at=NOW,
        animal=gl_dog,
        owner=gl_owner,
        submitted_by=glencoe_clerk,
        submitted_at=NOW,
        applied_on=TODAY,
        license=License.objects.get(number="2026-0099", jurisdiction=gl_owner.jurisdiction),
    )


def _dangerous_dog_case(gl, glencoe_clerk):
    """A Glencoe Subd. 15 case (North Branch has no procedure, DD-29)."""
    from tests.dangerous_dogs.helpers import make_case
    from tests.impound.helpers import owned_dog

    make_case(gl, glencoe_clerk, animal=owned_dog(gl, name="Zzgl Rex"))


def _permits(gl, glencoe_clerk):
    """A Glencoe horse permit application and a temporary wild-animal permit
    (North Branch's ordinance has neither)."""
    from permits.services import horses, temporary
    from tests.permits.helpers import horse_fields, temporary_fields

    horses.horse_apply(
        jurisdiction=gl, actor=glencoe_clerk, on=TODAY, **horse_fields(applicant_name="Zzglhorse")
    )
    temporary.temporary_apply(
        jurisdiction=gl,
        actor=glencoe_clerk,
        on=TODAY,
        **temporary_fields(applicant_name="Zzglcircus"),
    )
    # The register: a veterinary hospital's exemption (Subd. 32(B)).
    from licensing.services import registry
    from permits.services import register

    vet = registry.owner_create(
        jurisdiction=gl,
        actor=glencoe_clerk,
        last_name="Zzglvet",
        address_line="800 Zzgl Hospital Dr",
        city="Glencoe",
        postal_code="55336",
    )
    pig = registry.animal_register(
        owner=vet,
        actor=glencoe_clerk,
        on=TODAY,
        species="other",
        kind="pot_bellied_pig",
        name="Zzglpig",
    )
    register.exemption_record(
        premises=pig.premises,
        basis="veterinary",
        holder_name="Zzglclinic",
        protective_devices_confirmed=True,
        confirmed_by_name="Officer Olson",
        evidence="Seen.",
        starts_on=TODAY,
        actor=glencoe_clerk,
    )


def _clinic_certificates(gl, glencoe_clerk):
    """A Glencoe clinic's certificate waiting for the clerk, and a block of
    Glencoe's tags at it (item 4), made as a row: Glencoe issues no dog licenses
    (LIC-16), so the service refuses it; the row stands in for what the tags-at-clinics
    page and the balances must keep to Glencoe's users."""
    from clinics.models import ConsignmentBlock
    from clinics.services import certificates
    from tests.clinics.helpers import cleaned, make_clinic, make_vet

    clinic = make_clinic([gl], name="Zzgl Animal Clinic")
    certificates.certificate_submit(
        clinic=clinic,
        jurisdiction=gl,
        actor=make_vet(clinic, username="zzglvet"),
        now=NOW,
        **cleaned(clinic, vaccinated_on=str(TODAY), owner_last_name="Zzglowner"),
    )
    ConsignmentBlock.objects.create(
        clinic=clinic,
        jurisdiction=gl,
        year=2026,
        first_number=30,
        last_number=37,
        issued_by=glencoe_clerk,
        issued_at=NOW,
    )


# url name -> [(args from the records, query string, marker the Glencoe clerk sees)].
# The marker proves the page would list Glencoe's rows if it dropped its city filter;
# None where the page has no Glencoe rows to show to anyone (the transfer searches are
# tied to a North Branch record).
WALK = {
    "accounts:home": [((), "", None)],  # follows to staff_home
    "accounts:staff_home": [((), "", "Zzgldenied")],  # deadlines (KEN-07 appeal)
    # The user's own two-step verification: no city's records.
    "accounts:second_factor": [((), "", None)],
    "accounts:second_factor_enroll": [((), "", None)],
    "ordinance:profile_list": [((), "", "701 Subd")],
    "ordinance:fee_schedule": [((), "", "701 Subd")],
    "notices:document_list": [((), "", "Gus Glencoe"), ((), "kind=kennel_license", "Gus Glencoe")],
    "licensing:search": [
        ((), "q=zzglencoe", "Zzglencoeonly"),
        ((), "q=zzglfritz", "Zzglfritz"),
        ((), "q=3205550199", "Zzglencoeonly"),
        ((), "q=985000000990199", "Zzglencoeonly"),
        ((), "q=rzz0199", "Zzglencoeonly"),
        ((), "q=zzglhennepin", "Zzglencoeonly"),
    ],
    "licensing:counter_start": [
        ((), "q=zzglencoe", "Zzglencoeonly"),
        ((), "q=3205550199", "Zzglencoeonly"),
    ],
    "licensing:owner_create": [((), "", None)],  # its city choice
    # Its applicants, found by search.
    "licensing:kennel_apply": [((), "q=zzglencoe", "Zzglencoeonly")],
    "licensing:kennel_list": [
        ((), "", "Zzglhennepin"),
        ((), "status=active", "Zzglhennepin"),
        ((), "status=denied", "Zzgldenied"),
    ],
    "licensing:tag_stock": [((), "", "Zzgl Tag Works")],
    "licensing:tag_lookup": [((), "number=1&year=2026", "Zzglencoeonly")],
    "licensing:reports": [((), "", None)],
    "licensing:report_issued": [((), "", None), ((), YEAR, None), ((), YEAR + "&format=csv", None)],
    "licensing:report_revenue": [
        ((), "", None),
        ((), YEAR, None),
        ((), YEAR + "&format=csv", None),
    ],
    "licensing:report_tags": [((), "", None), ((), YEAR, None), ((), YEAR + "&format=csv", None)],
    "licensing:report_expiring": [
        ((), "", "Zzglencoeonly"),
        ((), YEAR, "Zzglencoeonly"),
        ((), YEAR + "&format=csv", "Zzglencoeonly"),
    ],
    # The retention line cites the Glencoe clerk's own section (IMP-06).
    "impound:records": [((), "", "701 Subd"), ((), "year=2026&format=csv", None)],
    "impound:register_csv": [((), "", None)],
    # Searches for the new owner: only the license's own city is offered (LIC-12).
    "licensing:license_transfer": [((lambda c: [c.nb_license.pk]), "q=zzglencoe", None)],
    "licensing:kennel_transfer": [((lambda c: [c.nb_kennel.pk]), "q=zzglencoe", None)],
    # The duplicate to merge is searched in the owner's own city only.
    "licensing:owner_merge": [((lambda c: [c.nb_license.owner_id]), "q=zzglencoe", None)],
    "impound:sterilization_list": [((), "", None)],
    # Lost-pet reports: each city's staff see their own city's.
    "impound:lost_reports": [((), "", "Zzgl tabby"), ((), "status=all", "Zzgl tabby")],
    "impound:board": [((), "", "Zzgl brindle"), ((), "status=all", "Zzgl brindle")],
    "dangerous_dogs:board": [((), "", "Zzgl Rex"), ((), "closed=1", "Zzgl Rex")],
    "rabies:dashboard": [((), "", "Zzglbiter")],
    "rabies:vaccinations_overdue": [((), "", "Zzgllapsed")],
    # Online applications: the queue and the tag mailing list (a PDF).
    "online:review_list": [((), "", "Zzglfritz"), ((), "status=issued", "Zzglfritz")],
    "licensing:payment_list": [((), "", "Zzglencoeonly")],  # online payments
    # The clerk's close-out: the day's receipts, the kennel fee's payer.
    "licensing:closeout_list": [((), "", None)],
    "licensing:closeout_day": [((), "", "Zzglencoeonly"), ((), f"day={TODAY}", "Zzglencoeonly")],
    "licensing:closeout_close": [((), f"day={TODAY}", "Zzglencoeonly")],
    # Changes residents reported: a Glencoe owner reported a death.
    "changes:list": [((), "", "Zzglfritz"), ((), "status=submitted", "Zzglfritz")],
    # Complaints: the list, by status and kind.
    "complaints:list": [
        ((), "", "1 Zzgl Street"),
        ((), "status=open", "1 Zzgl Street"),
        ((), "kind=barking", "1 Zzgl Street"),
    ],
    # Citations: the list, by status and class, and the issue page's
    # violation codes and registry search (the Glencoe clerk sees Subd. 5 and Zzgl dogs).
    "citations:list": [
        ((), "", "Zzgl County Court"),
        ((), "status=issued&charge_class=petty_misdemeanor", "Zzgl County Court"),
    ],
    "citations:issue": [((), "", "701 Subd"), ((), "q=zzglencoe", "Zzglencoeonly")],
    # Complaint and citation reports: the repeat address is the city's
    # own; the counts are checked city by city in tests/complaints/test_reports.py.
    "complaints:report_kinds": [((), YEAR, None), ((), YEAR + "&format=csv", None)],
    "complaints:report_repeats": [
        ((), YEAR, "1 Zzgl Street"),
        ((), YEAR + "&format=csv", "1 Zzgl Street"),
    ],
    "complaints:report_citations": [((), YEAR, None), ((), YEAR + "&format=csv", None)],
    # Glencoe's permits: North Branch's staff see only a plain statement.
    "permits:list": [
        ((), "", "Zzglhorse"),
        ((), "kind=horse&status=applied", "Zzglhorse"),
        ((), "kind=temporary", "Zzglcircus"),
    ],
    "permits:horse_apply": [((), "", None)],
    "permits:temporary_apply": [((), "", None)],
    # What each premises may keep, on screen and as CSV.
    "permits:register": [((), "", "Zzglclinic"), ((), "format=csv", "Zzglclinic")],
    # Clinic certificates waiting for the clerk.
    "clinics:queue": [((), "", "Zzglowner")],
    # The clinic reports: Glencoe's clinic is not a North Branch row.
    "clinics:report_certificates": [
        ((), YEAR, "Zzgl Animal Clinic"),
        ((), YEAR + "&format=csv", "Zzgl Animal Clinic"),
    ],
    "clinics:report_match_rate": [
        ((), YEAR, "Zzgl Animal Clinic"),
        ((), YEAR + "&format=csv", "Zzgl Animal Clinic"),
    ],
    # Vaccinated but unlicensed: Glencoe licenses no animal, so its
    # clerk reads why, with the section; its CSV and the results have no Glencoe rows.
    "clinics:unlicensed": [((), "", "701 Subd. 2(D)"), ((), "format=csv", None)],
    "clinics:unlicensed_results": [
        ((), YEAR, "Glencoe: not in ordinance (program measure)"),
        ((), YEAR + "&format=csv", None),
    ],
    # The city's tags at clinics and the clinic sales and balances.
    "clinics:consignment_list": [((), "", "Zzgl Animal Clinic")],
    "clinics:balances": [
        ((), "", "Zzgl Animal Clinic"),
        ((), "year=2026&format=csv", "Zzgl Animal Clinic"),
    ],
}

# Pages without arguments that are not walked, and why.
NOT_WALKED = {
    "accounts:login": "sends a signed-in user on; lists nothing",
    "accounts:logout": "POST only",
    "accounts:resident_home": "residents only: a clerk is refused",
    "accounts:second_factor_verify": "the code after the password; sends a verified user on",
    "accounts:second_factor_codes": "the user's own new recovery codes, shown once",
    "accounts:second_factor_off": "POST only",
    "licensing:portal_home": "residents only: their own animals, not the city's",
    "licensing:portal_link": "residents only: a form that lists nothing",
    "impound:intake": "officers and administrators only: a clerk is refused",
    "impound:found_all": "public: every city's animals in the pound by design, no person "
    "(tests/impound/test_found.py)",
    "impound:lost_report_list": "residents only: their own lost-pet reports, not the city's",
    "impound:lost_report_new": "residents only: a form that lists nothing",
    "rabies:bite_report": "officers and administrators only: a clerk is refused",
    # Its earlier complaints at the address show on POST ("Check the address"), from
    # complaints.services.repeat_addresses: tests/complaints/test_views.py checks the city.
    "complaints:intake": "a form that lists nothing on GET",
    "online:mailing_list": "a PDF; its rows are scoped by the same query as the queue (to_mail)",
    "online:mailing_list_mailed": "POST only",
    "licensing:stripe_webhook": "Stripe's signed deliveries only (public, POST): no page",
    # Renewal notices by mail: scoped by the expiring report's own query;
    # tests/licensing/test_renewal_notices.py prints them as the Glencoe clerk.
    "licensing:report_expiring_notices": "POST only (a PDF of the report's owners)",
    "licensing:report_expiring_labels": "a PDF of the expiring report's owners",
    # a clinic's own pages (its certificates only) and the administrator's.
    "clinics:home": "a clinic's login only: a clerk is refused",
    "clinics:certificate_new": "a clinic's login only: a clerk is refused",
    "clinics:batch_new": "a clinic's login only: a clerk is refused",
    "clinics:batch_template": "a clinic's login only: a clerk is refused",
    "clinics:clinic_list": "administrators only: a clerk is refused (tests/clinics/test_views.py)",
    "clinics:unlicensed_run": "POST only (tests/clinics/test_followup_views.py runs it per city)",
    # a city's data export; its archive's scoping is tests/records/test_export.py.
    "records:export_list": "administrators only: a clerk is refused (tests/records/test_views.py)",
    "records:import_list": "administrators only: a clerk is refused (test_import_views.py)",
    # the administrator's integrations (tests/api/test_admin_pages.py: only
    # those of their own cities), and the read API, which takes a token, never a login:
    # tests/api/test_api.py reads every endpoint with a token of one city and of both.
    "integrations:list": "administrators only: a clerk is refused (tests/api/test_admin_pages.py)",
    "integrations:create": "administrators only: a clerk is refused",
    "api:license-list": "a token, not a login: tests/api/test_api.py scopes it by the token's city",
    "api:animal-list": "a token, not a login: tests/api/test_api.py scopes it by the token's city",
    "api:owner-list": "a token, not a login: tests/api/test_api.py scopes it by the token's city",
    "api:receipt-list": "a token, not a login: tests/api/test_api.py scopes it by the token's city",
    "api:schema": "the OpenAPI schema: no record in it",
    "clinics:sale_list": "a clinic's login only: a clerk is refused",
}


def _argless_url_names() -> set[str]:
    """Every named pattern of the clerk's namespaces whose URL takes no argument."""
    names = set()

    def walk(patterns, prefix="", converters=False):
        for p in patterns:
            has_args = converters or bool(p.pattern.converters)
            if hasattr(p, "url_patterns"):
                ns = f"{prefix}{p.namespace}:" if p.namespace else prefix
                walk(p.url_patterns, ns, has_args)
            elif p.name and not has_args:
                names.add(f"{prefix}{p.name}")

    walk(get_resolver().url_patterns)
    return {n for n in names if n.split(":")[0] in CLERK_NAMESPACES}


def _urls(records):
    for name, visits in WALK.items():
        for args, query, marker in visits:
            url = reverse(name, args=args(records) if callable(args) else args)
            yield name, f"{url}?{query}" if query else url, marker


def _text(response) -> str:
    if hasattr(response, "streaming_content"):
        return b"".join(response.streaming_content).decode()
    return response.content.decode()


def _page_text(client, url) -> str:
    """The page without its search box's echo of ``q`` and without CSRF tokens (random
    text that could spell a marker)."""
    response = client.get(url, follow=True)
    assert response.status_code == 200, (url, response.status_code)
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", _text(response))
    for value in parse_qs(urlsplit(url).query).get("q", []):
        text = text.replace(value, "")
    return text


@pytest.fixture(scope="module")
def scene_builder():
    """The module's tests share one set of each city's records (conftest ``scene``),
    built by the personas of the scene and rolled back after the last test."""

    def build_records(*, nb, gl, people):
        with time_machine.travel(NOW, tick=False):
            built = build(nb, gl, people["clerk"], people["glencoe_clerk"])
        return Scene(people=people, world=built, now=NOW)

    return build_records


@pytest.fixture
def records(scene, db):
    """Each city's records for one test: a copy of the module's."""
    return copy.deepcopy(scene.world)


def test_every_page_without_arguments_is_walked():
    """A new list page must be walked here, or say why not."""
    names = _argless_url_names()
    assert "licensing:kennel_list" in names and "notices:document_list" in names
    missing = names - set(WALK) - set(NOT_WALKED)
    assert not missing, f"add to WALK (or NOT_WALKED, with the reason): {sorted(missing)}"
    assert not set(NOT_WALKED) & set(WALK)


def test_a_north_branch_clerk_sees_no_glencoe_record_anywhere(records, client, clerk):
    client.force_login(clerk)
    leaks, walked = [], 0
    with time_machine.travel(NOW, tick=False):
        for _name, url, _marker in _urls(records):
            text = _page_text(client, url)
            walked += 1
            leaks += [(url, m) for m in GL_MARKERS if m in text]
            # The city itself: no Glencoe choice, column or ordinance text.
            leaks += [(url, m) for m in (records.gl.name, "701 Subd") if m in text]
    assert walked >= 30
    assert not leaks, leaks


def test_the_glencoe_clerk_sees_the_same_pages_with_glencoe_rows(records, client, glencoe_clerk):
    """The walk above proves something only because these pages do list Glencoe's rows."""
    client.force_login(glencoe_clerk)
    missing, checked = [], 0
    with time_machine.travel(NOW, tick=False):
        for _name, url, marker in _urls(records):
            if marker is None:
                continue
            checked += 1
            text = _page_text(client, url)
            if marker not in text:
                missing.append((url, marker))
            assert NB_MARKER not in text and "Carol Clerk" not in text, url
    assert checked >= 15 and not missing, missing


def test_the_north_branch_clerk_still_sees_north_branch_rows(records, client, clerk):
    client.force_login(clerk)
    with time_machine.travel(NOW, tick=False):
        for url, marker in (
            (reverse("licensing:search") + "?q=nbonly", NB_MARKER),
            (reverse("licensing:kennel_list"), NB_MARKER),
            (reverse("licensing:tag_stock"), NB_MARKER),
            (reverse("licensing:tag_lookup") + "?number=1&year=2026", NB_MARKER),
            (reverse("licensing:report_expiring") + "?" + YEAR, NB_MARKER),
            (reverse("notices:document_list"), "Carol Clerk"),
            (reverse("impound:board"), NB_MARKER),
            (reverse("complaints:list"), NB_MARKER),
        ):
            assert marker in _page_text(client, url), url


def _table_rows(text: str) -> int:
    body = re.search(r"<tbody>(.*?)</tbody>", text, re.S)
    return body.group(1).count("<tr>") if body else 0


@pytest.mark.parametrize("report", ["issued", "revenue", "tags", "expiring"])
def test_each_report_and_its_csv_holds_only_the_clerks_city(
    records, client, clerk, glencoe, north_branch, report
):
    """The administrator's CSV (both cities, with a city column) has Glencoe rows; the
    North Branch clerk's CSV is exactly its North Branch rows, and so is the page."""
    admin = make_user("gladys", ADMINISTRATOR, [north_branch, glencoe])
    url = reverse(f"licensing:report_{report}") + "?" + YEAR
    with time_machine.travel(NOW, tick=False):
        client.force_login(admin)
        both = list(csv.DictReader(io.StringIO(_text(client.get(url + "&format=csv")))))
        client.force_login(clerk)
        own = list(csv.DictReader(io.StringIO(_text(client.get(url + "&format=csv")))))
        page = _text(client.get(url))
    assert {row["city"] for row in both} == {north_branch.short_name, glencoe.short_name}
    expected = [
        {k: v for k, v in row.items() if k != "city"}
        for row in both
        if row["city"] == north_branch.short_name
    ]
    assert own == expected
    assert _table_rows(page) == len(expected)
