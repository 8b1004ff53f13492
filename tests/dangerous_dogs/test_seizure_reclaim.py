"""Seizure opens an impound case held seven calendar days behind the release gate, with its
notice (DD-21, C36); the owner reclaims within the hold with the proofs and the impound
fees through impound's redemption (DD-23; G18, G25)."""

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine

from dangerous_dogs.models import CaseStatus, Registration
from dangerous_dogs.services.seizure import (
    BREACH,
    DEADLINE_PASSED,
    case_reclaim,
    case_seize,
    seizure_notice,
)
from impound.models import CaseStatus as ImpoundStatus
from impound.models import GateKind
from notices.services import document_pdf
from ordinance.models import Event
from ordinance.refusals import Refused
from tests.impound.factories import make_pound
from tests.impound.helpers import set_fee
from tests.pdf import pdf_text

from .helpers import declared
from .test_compliance_proofs import all_proofs, coverage

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-12-08T10:00")]
CHICAGO = ZoneInfo("America/Chicago")
SEIZED_AT = datetime(2026, 12, 8, 9, 30, tzinfo=CHICAGO)  # a Tuesday


@pytest.fixture
def pound(glencoe):
    return make_pound(glencoe)


@pytest.fixture
def case(glencoe, officer):
    # Received Nov 23: comply by Dec 7; today Dec 8 nothing is proven.
    return declared(glencoe, officer, on=date(2026, 11, 20), received_on=date(2026, 11, 23))


def seize(case, officer, pound, ground=DEADLINE_PASSED, **kw):
    return case_seize(
        case,
        pound=pound,
        placed_at=SEIZED_AT,
        seized_where="1105 Greeley Ave (the owner's yard)",
        ground=ground,
        actor=officer,
        **kw,
    )


def test_seizure_opens_an_impound_case_held_seven_days_behind_the_release_gate(
    case, officer, pound
):
    case = seize(case, officer, pound)
    assert case.status == CaseStatus.SEIZED
    impound = case.impound_case
    assert impound.ground == "dd_seizure" and impound.animal == case.animal
    assert impound.hold_key == "dd_reclaim_days"
    assert impound.hold_ends_on == date(2026, 12, 15)  # seven calendar days
    # Seven calendar days and the pound's five regular business days both end Dec 15:
    # both govern, both cited, and the page says so (MN-02).
    assert impound.hold_citation == "Glencoe 701 Subd. 15(K)(3), (4); Minn. Stat. 346.47 subd. 2"
    assert "both end then" in impound.hold_basis
    gate = impound.gates.get()
    assert gate.kind == GateKind.RELEASE_ORDER and gate.is_open
    assert gate.citation == "Glencoe 701 Subd. 15(K)(3)"
    assert Event.objects.filter(action="dangerous_dogs.case.seized").count() == 1


def test_the_seizure_notice_states_ground_date_proof_deadline_and_costs(case, officer, pound):
    case = seize(case, officer, pound)
    notice = seizure_notice(case)
    text = pdf_text(document_pdf(notice))
    for expected in (
        "Notice of seizure of a dangerous dog",
        case.owner.name,
        "The compliance deadline of Dec 7, 2026 passed with the enclosure and warning sign",
        "Tue, Dec 8, 2026",
        "Subd. 15(E)",
        "the sections named in Glencoe 701 Subd. 15(K)(3) are blank",
        "Reclaim by Tue, Dec 15, 2026",
        "7 days from the date of seizure",
        "liable for the costs",
        "Glencoe 701 Subd. 15(K)(1)",
    ):
        assert expected in text, expected


def test_no_seizure_for_missing_items_before_the_deadline(glencoe, officer, pound):
    case = declared(glencoe, officer, on=date(2026, 11, 30), received_on=date(2026, 12, 1))
    with pytest.raises(Refused) as caught:
        seize(case, officer, pound)
    assert caught.value.checks[0].field == "ground"
    assert "until Dec 15, 2026" in str(caught.value)


def test_a_breach_within_the_window_is_a_ground_with_its_facts(glencoe, officer, pound):
    case = declared(glencoe, officer, on=date(2026, 11, 30), received_on=date(2026, 12, 1))
    with pytest.raises(Refused) as caught:
        seize(case, officer, pound, ground=BREACH)
    assert caught.value.checks[0].field == "ground_detail"
    case = seize(
        case, officer, pound, ground=BREACH, ground_detail="Loose on 11th St, no leash, 8:50 a.m."
    )
    assert case.status == CaseStatus.SEIZED
    assert "Loose on 11th St" in pdf_text(document_pdf(seizure_notice(case)))


def test_no_seizure_without_a_compliance_clock(glencoe, officer, pound):
    case = declared(glencoe, officer, on=date(2026, 11, 20))
    with pytest.raises(Refused, match="no compliance clock"):
        seize(case, officer, pound)


def test_reclaim_within_the_hold_with_proofs_and_fees(case, officer, pound, glencoe):
    set_fee(glencoe, "boarding_daily", "10.00", "Animal boarding (per day)")
    set_fee(glencoe, "immunization", "20.00", "Immunization")
    case = seize(case, officer, pound)
    with time_machine.travel(datetime(2026, 12, 11, 14, 0, tzinfo=CHICAGO), tick=False):
        with pytest.raises(Refused) as caught:
            case_reclaim(case, actor=officer, method="cash", licensed=True)
        assert "Not verified yet" in str(caught.value) and len(caught.value.checks) == 3
        all_proofs(case, officer)
        redemption = case_reclaim(case, actor=officer, method="cash", licensed=True)
    case.refresh_from_db()
    impound = case.impound_case
    impound.refresh_from_db()
    assert impound.status == ImpoundStatus.REDEEMED
    assert case.status == CaseStatus.DECLARED  # registration still to come
    gate = impound.gates.get()
    assert not gate.is_open and gate.cleared_by == officer
    assert "Proofs verified" in gate.clearing_record and "HP-5512" in gate.clearing_record
    lines = [(ln.code, str(ln.amount)) for ln in redemption.receipt.lines.all()]
    assert lines == [("release", "15.00"), ("boarding_daily", "30.00"), ("immunization", "20.00")]
    assert Event.objects.filter(action="dangerous_dogs.case.reclaimed").count() == 1


def test_reclaim_returns_to_registered_when_a_registration_is_in_force(
    case, officer, pound, glencoe
):
    set_fee(glencoe, "boarding_daily", "10.00")
    set_fee(glencoe, "immunization", "20.00")
    case = seize(case, officer, pound)
    Registration.objects.create(
        case=case,
        jurisdiction=glencoe,
        number="R-1",
        owner=case.owner,
        issued_on=date(2026, 12, 1),
        expires_on=date(2027, 12, 1),
        renewal_citation="Glencoe 701 Subd. 15(G)(2)",
        fee="250.00",
        issued_by=officer,
    )
    all_proofs(case, officer)
    case_reclaim(case, actor=officer, method="cash", licensed=True)
    case.refresh_from_db()
    assert case.status == CaseStatus.REGISTERED


def test_a_blank_fee_refuses_the_reclaim_and_leaves_the_gate_open(case, officer, pound):
    case = seize(case, officer, pound)
    all_proofs(case, officer)
    with pytest.raises(Refused):
        case_reclaim(case, actor=officer, method="cash", licensed=True)
    case.refresh_from_db()
    assert case.status == CaseStatus.SEIZED and case.impound_case.gates.get().is_open


def test_no_reclaim_after_the_hold_ended(case, officer, pound):
    case = seize(case, officer, pound)
    coverage(case, officer)
    with time_machine.travel(datetime(2026, 12, 16, 9, 0, tzinfo=CHICAGO), tick=False):
        with pytest.raises(Refused) as caught:
            case_reclaim(case, actor=officer, method="cash", licensed=True)
    assert "ended on Dec 15, 2026" in str(caught.value)
    assert "liable for the costs" in str(caught.value)


def test_a_seized_dog_the_pound_disposed_of_closes_the_case_once(case, officer, pound):
    from dangerous_dogs.compliance_sweeps import sweep_seizure_disposed

    case = seize(case, officer, pound)
    impound = case.impound_case
    later = datetime(2026, 12, 16, 10, 0, tzinfo=CHICAGO)
    assert sweep_seizure_disposed(now=later).due == 0  # still held: nothing to do
    impound.close(
        ImpoundStatus.EUTHANIZED,
        on=date(2026, 12, 16),
        at=later,
        actor=officer,
        note="Not reclaimed within seven days; euthanized (Minn. Stat. 35.71 subd. 3)",
    )
    assert sweep_seizure_disposed(now=later).due == 0  # from the next day
    first = sweep_seizure_disposed(now=later + timedelta(days=3))  # after days down
    again = sweep_seizure_disposed(now=later + timedelta(days=3))
    assert (first.applied, again.due) == (1, 0)
    case.refresh_from_db()
    assert case.status == CaseStatus.DESTROYED and case.closed_on == date(2026, 12, 16)
    assert impound.number in case.closing_note
    assert Event.objects.filter(action="dangerous_dogs.case.seizure_disposed").count() == 1
