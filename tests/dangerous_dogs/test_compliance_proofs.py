"""Compliance proofs, each verified by a person, and the checklist (DD-10, DD-11, DD-13,
DD-30; MN-05): Glencoe's "$50" is superseded by Minn. Stat. 347.51 subd. 2's $300,000."""

from datetime import date
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from dangerous_dogs.models import CaseStatus, ComplianceProof, Designation, Requirement
from dangerous_dogs.services.compliance import case_destroyed, compliance_checklist, proof_record
from ordinance.models import Event
from ordinance.refusals import Refused
from tests.upload_files import png_bytes

from .helpers import declared

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-12-01T10:00")]
TODAY = date(2026, 12, 1)
PNG = png_bytes()


def photo(name="sign.png"):
    return SimpleUploadedFile(name, PNG, content_type="image/png")


def coverage(case, officer, amount="300000.00", expires_on=date(2027, 12, 31), **extra):
    values = dict(
        coverage_kind="insurance",
        issuer="North Star Mutual",
        policy_number="HP-5512",
        amount=Decimal(amount),
        expires_on=expires_on,
    )
    values.update(extra)
    return proof_record(case, Requirement.COVERAGE, verified_on=TODAY, actor=officer, **values)


def enclosure(case, officer):
    return proof_record(
        case,
        Requirement.ENCLOSURE,
        verified_on=TODAY,
        actor=officer,
        details="Chain-link kennel, roof, locked gate; sign with the symbol on the gate.",
        document=photo(),
    )


def microchip(case, officer, number="985112003456789"):
    return proof_record(
        case,
        Requirement.MICROCHIP,
        verified_on=TODAY,
        actor=officer,
        microchip=number,
        microchip_manufacturer="HomeAgain",
        implanted_on=date(2026, 11, 28),
        veterinarian="Dr. Ana Lind, Glencoe Veterinary Clinic",
    )


def all_proofs(case, officer):
    enclosure(case, officer)
    coverage(case, officer)
    microchip(case, officer)


@pytest.fixture
def case(glencoe, officer):
    return declared(glencoe, officer, on=date(2026, 11, 20), received_on=date(2026, 11, 23))


def test_coverage_under_300000_is_refused_naming_the_statute_that_supersedes_50(case, officer):
    with pytest.raises(Refused) as caught:
        coverage(case, officer, amount="50000.00")
    check = caught.value.checks[0]
    assert check.field == "amount"
    assert check.citation == "Minn. Stat. 347.51 subd. 2"
    assert "$300,000.00" in check.message
    assert "$50.00" in check.message and "supersedes" in check.message
    assert not ComplianceProof.objects.exists()


def test_coverage_of_300000_is_verified(case, officer):
    proof = coverage(case, officer, coverage_kind="bond", issuer="Western Surety")
    assert proof.verified_by == officer and proof.amount == Decimal("300000.00")
    assert Event.objects.filter(action="dangerous_dogs.compliance.verified").count() == 1


def test_an_expired_policy_is_refused(case, officer):
    with pytest.raises(Refused) as caught:
        coverage(case, officer, expires_on=date(2026, 11, 30))
    assert caught.value.checks[0].field == "expires_on"
    assert "expired" in str(caught.value)


def test_each_missing_coverage_field_is_named_next_to_it(case, officer):
    with pytest.raises(Refused) as caught:
        coverage(case, officer, issuer="", policy_number="")
    assert {c.field for c in caught.value.checks} == {"issuer", "policy_number"}


def test_the_enclosure_needs_what_was_seen_and_a_photo(case, officer):
    with pytest.raises(Refused) as caught:
        proof_record(case, Requirement.ENCLOSURE, verified_on=TODAY, actor=officer, details="")
    assert {c.field for c in caught.value.checks} == {"details", "document"}
    assert enclosure(case, officer).document.name.endswith(".png")


def test_a_microchip_needs_a_real_number_and_names_the_governing_statute(case, officer):
    with pytest.raises(Refused) as caught:
        microchip(case, officer, number="12AB")
    assert caught.value.checks[0].field == "microchip"
    assert caught.value.checks[0].citation == "Minn. Stat. 347.51 subd. 2; 347.515"
    assert microchip(case, officer).microchip == "985112003456789"


def test_the_fee_is_not_a_proof_of_its_own(case, officer):
    with pytest.raises(Refused, match="certificate of registration is issued"):
        proof_record(case, Requirement.FEE, verified_on=TODAY, actor=officer)


def test_a_verification_date_cannot_be_in_the_future(case, officer):
    with pytest.raises(Refused) as caught:
        proof_record(
            case, Requirement.ENCLOSURE, verified_on=date(2026, 12, 2), actor=officer, details="x"
        )
    assert caught.value.checks[0].field == "verified_on"


def test_a_potentially_dangerous_dog_has_no_requirements(glencoe, officer):
    case = declared(
        glencoe,
        officer,
        on=date(2026, 11, 20),
        received_on=None,
        designation=Designation.POTENTIALLY_DANGEROUS,
    )
    with pytest.raises(Refused) as caught:
        microchip(case, officer)
    assert "no requirements" in str(caught.value)
    assert "Glencoe 701 Subd. 15" in str(caught.value)
    checklist = compliance_checklist(case, on=TODAY)
    assert not checklist.applies and "no requirements" in checklist.why_none


def test_the_checklist_says_what_is_met_and_missing_with_sections_and_days_left(case, officer):
    coverage(case, officer)
    checklist = compliance_checklist(case, on=TODAY)
    met = {item.requirement: item.met for item in checklist.items}
    assert met == {
        Requirement.ENCLOSURE: False,
        Requirement.COVERAGE: True,
        Requirement.FEE: False,
        Requirement.MICROCHIP: False,
    }
    sections = {item.requirement: item.citation for item in checklist.items}
    assert sections[Requirement.COVERAGE] == "Minn. Stat. 347.51 subd. 2"
    assert sections[Requirement.FEE] == "Glencoe 701 Subd. 15(E)(3), (J)(3)"
    assert case.compliance_deadline == date(2026, 12, 7) and checklist.days_left == 6
    # A policy that expires later no longer counts.
    later = compliance_checklist(case, on=date(2028, 1, 2))
    assert not next(i for i in later.items if i.requirement == Requirement.COVERAGE).met


def test_the_owner_may_have_the_dog_destroyed_instead(case, officer):
    case_destroyed(case, on=date(2026, 11, 30), veterinarian="Dr. Ana Lind", actor=officer)
    case.refresh_from_db()
    assert case.status == CaseStatus.DESTROYED and case.closed_on == date(2026, 11, 30)
    assert "Dr. Ana Lind" in case.closing_note
    assert Event.objects.filter(action="dangerous_dogs.case.destroyed").count() == 1
    with pytest.raises(Refused):
        case_destroyed(case, on=date(2026, 11, 30), veterinarian="Dr. Ana Lind", actor=officer)


def test_destruction_needs_the_veterinarian(case, officer):
    with pytest.raises(Refused) as caught:
        case_destroyed(case, on=date(2026, 11, 30), veterinarian=" ", actor=officer)
    assert caught.value.checks[0].field == "veterinarian"
