"""Sterilization agreements (IMP-11..14; Appendix D G37; C19)."""

from datetime import date
from decimal import Decimal

import pytest

from impound.models import AgreementStatus, DepositStatus
from impound.services.dispositions import Adoption, Judgement, case_adopt
from impound.services.sterilization import (
    agreement_forfeit,
    agreement_record_certificate,
    agreement_remit,
    agreement_waive,
    sterilization_terms,
)
from impound.sweeps import sweep_holds_end, sweep_sterilization_overdue
from licensing.services.registry import owner_create
from notices.models import Decision
from ordinance.models import Event, FeeScheduleEntry
from ordinance.refusals import Refused
from tests.upload_files import pdf_bytes

from .factories import make_pound
from .helpers import at, take_in

pytestmark = pytest.mark.django_db
ADOPTED = date(2026, 11, 30)


@pytest.fixture
def pound(north_branch, glencoe):
    return make_pound(north_branch, glencoe)


def gl_case(glencoe, pound, officer, age):
    case = take_in(
        glencoe, pound, officer, at(2026, 11, 16, 10), "dog_at_large", approximate_age_months=age
    )
    sweep_holds_end(now=at(2026, 11, 30, 8))
    case.refresh_from_db()
    return case


@pytest.mark.clock("2026-11-30T10:00")
def test_nb_certificate_due_ten_days_after_adoption(north_branch, officer, pound):
    case = take_in(north_branch, pound, officer, at(2026, 11, 16, 10), "unlicensed_at_large")
    terms = sterilization_terms(case, adopted_on=ADOPTED)
    assert terms.due_on == date(2026, 12, 10) and terms.citation == "North Branch Sec. 6-72"
    rabies = take_in(north_branch, pound, officer, at(2026, 11, 16, 11), "rabies_suspect")
    assert sterilization_terms(rabies, adopted_on=ADOPTED) is None  # not "astray"


@pytest.mark.clock("2026-11-30T10:00")
def test_glencoe_due_dates_under_over_and_exactly_six_months(glencoe, officer, pound):
    young = gl_case(glencoe, pound, officer, 3)  # born about Aug 16, 2026
    terms = sterilization_terms(young, adopted_on=ADOPTED)
    assert terms.due_on == date(2027, 2, 16) and not terms.flagged
    assert "estimated" in terms.basis and terms.citation == "Glencoe 701 Subd. 26"

    old = gl_case(glencoe, pound, officer, 24)
    terms = sterilization_terms(old, adopted_on=ADOPTED)
    assert terms.due_on == date(2026, 12, 30) and not terms.flagged  # 30 days

    exactly = sterilization_terms(young, adopted_on=ADOPTED, date_of_birth=date(2026, 5, 30))
    assert exactly.due_on == date(2026, 12, 30) and exactly.flagged
    assert "G37" in exactly.basis
    known_young = sterilization_terms(young, adopted_on=ADOPTED, date_of_birth=date(2026, 6, 1))
    assert known_young.due_on == date(2026, 12, 1) and not known_young.flagged


def _adoption(case, officer, *, issue_documents=True, **extra):
    fields = dict(
        adopter_name="Robin Adopter",
        adopter_address="5 Oak St, Glencoe, MN 55336",
        suitable=True,
        sterilization_agreed=True,
    )
    fields.update(extra)
    return case_adopt(
        case=case,
        actor=officer,
        adoption=Adoption(**fields),
        judgement=Judgement(
            decided_by_name="Officer Lee",
            capacity="Animal control officer",
            decided_on=ADOPTED,
            reasons="Suitable home.",
        ),
        issue_documents=issue_documents,
    )


@pytest.mark.clock("2026-11-30T10:00")
def test_glencoe_adoption_refused_while_the_deposit_is_blank(glencoe, officer, pound):
    case = gl_case(glencoe, pound, officer, 24)
    with pytest.raises(Refused) as refused:
        _adoption(case, officer)
    check = refused.value.checks[0]
    assert check.label == "Adoption with a sterilization agreement (deposit to collect)"
    assert check.citation == "Glencoe 701 Subd. 26"


@pytest.fixture
def glencoe_fees(glencoe):
    for code, amount in (("sterilization_deposit", "75.00"), ("sterilization_admin", "15.00")):
        FeeScheduleEntry.objects.create(
            jurisdiction=glencoe,
            code=code,
            description=code.replace("_", " "),
            amount=Decimal(amount),
            effective_from=date(2026, 1, 1),
            resolution="Res. 2026-3",
        )


@pytest.fixture
def adopter(glencoe, officer):
    return owner_create(
        jurisdiction=glencoe,
        actor=officer,
        first_name="Robin",
        last_name="Adopter",
        address_line="5 Oak St",
        city="Glencoe",
        postal_code="55336",
    )


@pytest.mark.clock("2026-11-30T10:00")
def test_deposit_receipt_certificate_and_remittance_less_the_admin_fee(
    glencoe, officer, pound, glencoe_fees, adopter
):
    case = gl_case(glencoe, pound, officer, 24)
    _adoption(case, officer, adopter=adopter, payment_method="cash", payment_reference="")
    agreement = case.sterilization
    assert agreement.deposit == Decimal("75.00") and agreement.deposit_status == DepositStatus.HELD
    assert agreement.deposit_receipt.total == Decimal("75.00")
    from notices.models import IssuedDocument
    from notices.services import document_pdf
    from tests.pdf import pdf_text

    text = pdf_text(
        document_pdf(IssuedDocument.objects.get(kind="impound_sterilization_agreement"))
    )
    assert "$300.00" in text and "Glencoe 701 Subd. 26" in text and "2026-12-30" in text
    assert "$15.00" in text
    assert not agreement.may_remit
    with pytest.raises(Refused, match="is sterilization pending: it cannot become sterilized"):
        agreement_remit(
            agreement=agreement, actor=officer, remitted_to="Dr. Vet", remitted_on=ADOPTED
        )
    agreement_record_certificate(
        agreement=agreement, actor=officer, sterilized_on=ADOPTED, veterinarian="Dr. Vet"
    )
    assert agreement.may_remit
    agreement_remit(agreement=agreement, actor=officer, remitted_to="Dr. Vet", remitted_on=ADOPTED)
    agreement.refresh_from_db()
    assert agreement.status == AgreementStatus.STERILIZED
    assert (agreement.remitted_amount, agreement.admin_fee) == (Decimal("60.00"), Decimal("15.00"))
    assert agreement.deposit_status == DepositStatus.REMITTED
    assert not agreement.may_remit
    with pytest.raises(Refused, match="No deposit is held"):
        agreement_remit(
            agreement=agreement, actor=officer, remitted_to="Dr. Vet", remitted_on=ADOPTED
        )
    remitted = Event.objects.for_object(agreement).get(action="impound.sterilization.remitted")
    assert remitted.data == {"case": case.number, "remitted": "60.00", "admin_fee": "15.00"}


@pytest.mark.clock("2026-11-30T10:00")
def test_overdue_then_forfeited_is_a_recorded_decision(
    glencoe, officer, pound, glencoe_fees, adopter
):
    case = gl_case(glencoe, pound, officer, 24)
    _adoption(case, officer, adopter=adopter, payment_method="cash", issue_documents=False)
    agreement = case.sterilization
    with pytest.raises(Refused):  # not overdue yet
        agreement_forfeit(
            agreement=agreement,
            actor=officer,
            decided_by_name="Lee",
            capacity="ACO",
            decided_on=ADOPTED,
            reasons="x",
        )
    assert sweep_sterilization_overdue(now=at(2026, 12, 31, 8)).applied == 1
    agreement.refresh_from_db()
    agreement_forfeit(
        agreement=agreement,
        actor=officer,
        decided_by_name="Officer Lee",
        capacity="Animal control officer",
        decided_on=date(2027, 1, 4),
        reasons="Seized: not sterilized within 30 days.",
    )
    agreement.refresh_from_db()
    assert agreement.status == AgreementStatus.FORFEITED
    assert agreement.deposit_status == DepositStatus.FORFEITED
    assert agreement.next_statuses() == () and not agreement.may_remit
    assert list(
        Event.objects.for_object(agreement).order_by("pk").values_list("action", flat=True)
    ) == [
        "impound.sterilization.agreed",
        "impound.sterilization.overdue",
        "impound.sterilization.forfeited",
    ]
    assert Decision.objects.get(kind="sterilization_forfeit").citation == "Glencoe 701 Subd. 26"


@pytest.mark.clock("2026-11-30T10:00")
def test_purebred_waiver_glencoe_only(north_branch, glencoe, officer, pound, glencoe_fees, adopter):
    from django.core.files.uploadedfile import SimpleUploadedFile

    case = gl_case(glencoe, pound, officer, 24)
    _adoption(case, officer, adopter=adopter, payment_method="cash", issue_documents=False)
    application = SimpleUploadedFile("application.pdf", pdf_bytes())
    agreement_waive(
        agreement=case.sterilization,
        actor=officer,
        application=application,
        decided_by_name="Officer Lee",
        capacity="Animal control officer",
        decided_on=ADOPTED,
        reasons="AKC registration verified.",
    )
    case.sterilization.refresh_from_db()
    assert case.sterilization.status == AgreementStatus.WAIVED
    assert Decision.objects.get(kind="sterilization_waiver").citation == "Glencoe 701 Subd. 26(E)"

    nb = take_in(north_branch, pound, officer, at(2026, 11, 16, 10), "unlicensed_at_large")
    sweep_holds_end(now=at(2026, 11, 30, 8))
    nb.refresh_from_db()
    _adoption(nb, officer, issue_documents=False)
    with pytest.raises(Refused, match="no waiver"):
        agreement_waive(
            agreement=nb.sterilization,
            actor=officer,
            application=application,
            decided_by_name="Lee",
            capacity="ACO",
            decided_on=ADOPTED,
            reasons="x",
        )
