"""The certificate of registration (C30; DD-01, DD-12, DD-15; MN-05): refused while the
fee is blank (Subd. 15(E)(3)), above the $500 cap of 347.51 subd. 2, or before the proofs;
issued with a numbered receipt and its PDF, renewed yearly."""

from datetime import date
from decimal import Decimal

import pytest
import time_machine

from dangerous_dogs.models import CaseStatus, ComplianceProof, Registration, Requirement
from dangerous_dogs.services.registration import (
    RegState,
    registration_issue,
    registration_renew,
    registration_status,
)
from licensing.models import Receipt
from notices.models import IssuedDocument
from notices.services import document_pdf
from ordinance.refusals import Refused
from tests.impound.helpers import at, set_fee
from tests.pdf import pdf_text

from .helpers import declared
from .test_compliance_proofs import all_proofs, coverage

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-12-01T10:00")]
TODAY = date(2026, 12, 1)


@pytest.fixture
def case(glencoe, officer):
    return declared(glencoe, officer, on=date(2026, 11, 20), received_on=date(2026, 11, 23))


def issue(case, officer, **kw):
    return registration_issue(case, actor=officer, method="cash", **kw)


def test_refused_while_the_annual_fee_is_blank_naming_subd_15_e_3(case, officer):
    all_proofs(case, officer)
    with pytest.raises(Refused) as caught:
        issue(case, officer)
    assert "Subd. 15(E)(3)" in str(caught.value)
    assert "not set" in str(caught.value)
    assert not Registration.objects.exists() and not Receipt.objects.exists()


def test_refused_above_the_500_cap_of_the_statute(case, officer, glencoe):
    all_proofs(case, officer)
    set_fee(glencoe, "dd_registration", "600.00", "Dangerous dog annual registration")
    with pytest.raises(Refused) as caught:
        issue(case, officer)
    check = caught.value.checks[0]
    assert check.citation == "Minn. Stat. 347.51 subd. 2"
    assert "$600.00" in check.message and "$500.00" in check.message
    assert "leaves it blank" in check.message


def test_refused_until_enclosure_coverage_and_microchip_are_verified(case, officer, glencoe):
    set_fee(glencoe, "dd_registration", "250.00")
    coverage(case, officer)
    with pytest.raises(Refused) as caught:
        issue(case, officer)
    messages = str(caught.value)
    assert "enclosure" in messages.lower() and "microchip" in messages.lower()
    assert "Minn. Stat. 347.51 subd. 2; 347.515" in caught.value.sections
    assert len(caught.value.checks) == 2


def test_issue_takes_the_fee_with_a_receipt_and_issues_the_certificate(case, officer, glencoe):
    set_fee(glencoe, "dd_registration", "250.00", "Dangerous dog annual registration")
    all_proofs(case, officer)
    assert registration_status(case, on=TODAY).state == RegState.UNREGISTERED
    registration = issue(case, officer)
    case.refresh_from_db()
    assert case.status == CaseStatus.REGISTERED
    assert registration.issued_on == TODAY and registration.expires_on == date(2027, 12, 1)
    assert registration.renewal_citation == "Glencoe 701 Subd. 15(G)(2)"
    receipt = registration.receipt
    assert receipt.total == Decimal("250.00") and receipt.payer == case.owner
    assert [ln.authority for ln in receipt.lines.all()] == ["Council Res. 2026-09"]
    assert IssuedDocument.objects.filter(kind="receipt", number=str(receipt.number)).exists()
    fee = ComplianceProof.objects.get(requirement=Requirement.FEE)
    assert fee.receipt == receipt
    text = pdf_text(document_pdf(registration.document))
    assert registration.document.kind == "dd_registration"
    for expected in (
        case.owner.name,
        case.animal.name,
        "985112003456789",
        "North Star Mutual",
        "HP-5512",
        "$300,000.00",
        "Dec 31, 2027",
        "$250.00",
        "Issue date Dec 1, 2026",
        "Renewal date Dec 1, 2027",
        "Minn. Stat. 347.515",
        "warning symbol",
    ):
        assert expected in text, expected
    status = registration_status(case, on=TODAY)
    assert status.in_force and status.registration == registration
    with pytest.raises(Refused, match="registered"):
        issue(case, officer)


def test_renewal_reverifies_coverage_and_charges_the_fee_again(case, officer, glencoe):
    set_fee(glencoe, "dd_registration", "250.00")
    all_proofs(case, officer)
    first = issue(case, officer)
    with time_machine.travel(at(2027, 11, 25, 10), tick=False):
        renewed = registration_renew(first, actor=officer, method="check", reference="1042")
    assert renewed.renews == first
    assert renewed.expires_on == date(2028, 12, 1)  # the anniversary of the first issue
    assert renewed.receipt.number != first.receipt.number
    assert Receipt.objects.count() == 2
    with pytest.raises(Refused, match="renewed already"):
        registration_renew(first, actor=officer, method="cash")


def test_renewal_with_an_expired_policy_is_refused(case, officer, glencoe):
    set_fee(glencoe, "dd_registration", "250.00")
    all_proofs(case, officer)
    first = issue(case, officer)
    with time_machine.travel(at(2028, 1, 5, 10), tick=False):
        status = registration_status(case, on=date(2028, 1, 5))
        assert status.state == RegState.LAPSED
        with pytest.raises(Refused) as caught:
            registration_renew(first, actor=officer, method="cash")
        assert "expired on 2027-12-31" in str(caught.value)
        coverage(case, officer, expires_on=date(2029, 1, 31))
        renewed = registration_renew(first, actor=officer, method="cash")
    assert renewed.expires_on == date(2029, 1, 5)  # lapsed: a new term from today
