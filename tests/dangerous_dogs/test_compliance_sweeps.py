"""The compliance sweeps: overdue cases marked for seizure once; an appeal pending with
``appeal_stays_compliance`` blank flags a person instead, once; a lapsed registration is
flagged once, without seizure (DD-10, DD-15, DD-20, DD-21; G20, G22)."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from dangerous_dogs.compliance_sweeps import (
    sweep_compliance_overdue,
    sweep_registration_lapsed,
    upcoming_compliance,
    upcoming_renewals,
)
from dangerous_dogs.models import Appeal, CaseStatus, Registration
from ordinance.models import Event

from .helpers import declared, make_case

pytestmark = pytest.mark.django_db
CHICAGO = ZoneInfo("America/Chicago")


def moment(*args):
    return datetime(*args, 6, 0, tzinfo=CHICAGO)


@pytest.fixture
def overdue(glencoe, officer):
    # Received Nov 23: comply by Dec 7 (Subd. 15(E), (J), (K)).
    return declared(glencoe, officer, on=date(2026, 11, 20), received_on=date(2026, 11, 23))


def test_nothing_on_the_deadline_day_then_marked_once_the_day_after(overdue):
    assert sweep_compliance_overdue(now=moment(2026, 12, 7)).applied == 0
    first = sweep_compliance_overdue(now=moment(2026, 12, 8))
    assert (first.due, first.applied) == (1, 1)
    overdue.refresh_from_db()
    assert overdue.seizure_due_on == date(2026, 12, 8)
    assert overdue.attention.startswith("Seize the dog: the compliance deadline passed with")
    assert "the bond or insurance" in overdue.attention and "the microchip" in overdue.attention
    assert overdue.attention.endswith("missing (Glencoe 701 Subd. 15(K)(1))")
    again = sweep_compliance_overdue(now=moment(2026, 12, 8))
    assert (again.due, again.applied) == (0, 0)
    assert Event.objects.filter(action="dangerous_dogs.compliance.seizure_due").count() == 1


def test_a_catch_up_after_days_down_acts_once(overdue):
    result = sweep_compliance_overdue(now=moment(2026, 12, 20))
    assert result.applied == 1
    overdue.refresh_from_db()
    assert overdue.seizure_due_on == date(2026, 12, 20)
    assert sweep_compliance_overdue(now=moment(2026, 12, 21)).applied == 0


def test_other_cases_are_left_alone(glencoe, officer):
    declared(glencoe, officer, on=date(2026, 11, 20))  # receipt not recorded: no clock
    declared(glencoe, officer, on=date(2026, 11, 20), designation="potentially")
    make_case(glencoe, officer, status=CaseStatus.REGISTERED, compliance_deadline=date(2026, 12, 1))
    assert sweep_compliance_overdue(now=moment(2026, 12, 20)).due == 0


def test_an_appeal_pending_flags_a_person_once_instead(overdue, officer):
    appeal = Appeal.objects.create(
        case=overdue,
        filed_on=date(2026, 11, 25),
        deadline=date(2026, 12, 4),
        grounds="The panel ignored the owner's witnesses.",
        recorded_by=officer,
    )
    assert sweep_compliance_overdue(now=moment(2026, 12, 8)).applied == 1
    overdue.refresh_from_db()
    assert overdue.seizure_due_on is None
    assert "appeal is pending" in overdue.attention
    assert overdue.attention_citation == "Glencoe 701 Subd. 15(H)"
    assert sweep_compliance_overdue(now=moment(2026, 12, 9)).due == 0
    assert Event.objects.filter(action="dangerous_dogs.compliance.appeal_flagged").count() == 1
    assert appeal.pending


def _registration(case, officer, *, expires_on):
    return Registration.objects.create(
        case=case,
        jurisdiction=case.jurisdiction,
        number=f"{case.number}-R1",
        owner=case.owner,
        issued_on=date(2025, 12, 1),
        expires_on=expires_on,
        renewal_citation="Glencoe 701 Subd. 15(G)(2)",
        fee="250.00",
        issued_by=officer,
    )


def test_a_lapsed_registration_is_flagged_once_without_seizure(glencoe, officer):
    case = make_case(
        glencoe, officer, status=CaseStatus.REGISTERED, declared_designation="dangerous"
    )
    _registration(case, officer, expires_on=date(2026, 12, 1))
    assert sweep_registration_lapsed(now=moment(2026, 12, 1)).applied == 0
    assert sweep_registration_lapsed(now=moment(2026, 12, 5)).applied == 1
    case.refresh_from_db()
    assert "not renewed by Dec 1, 2026" in case.attention
    assert "Glencoe 701 Subd. 15(G)(2)" in case.attention
    assert "not a ground for seizure" in case.attention
    assert "Glencoe 701 Subd. 15(K)(1)" in case.attention
    assert case.status == CaseStatus.REGISTERED
    assert sweep_registration_lapsed(now=moment(2026, 12, 6)).due == 0


def test_upcoming_lists_the_compliance_deadline_and_the_renewal(glencoe, officer, overdue):
    case = make_case(
        glencoe, officer, status=CaseStatus.REGISTERED, declared_designation="dangerous"
    )
    _registration(case, officer, expires_on=date(2026, 12, 10))
    ids = [glencoe.pk]
    due = list(
        upcoming_compliance(jurisdiction_ids=ids, start=date(2026, 12, 1), end=date(2026, 12, 14))
    )
    assert [(d.due, d.citation) for d in due] == [
        (date(2026, 12, 7), "Glencoe 701 Subd. 15(E), (J), (K)")
    ]
    renewals = list(
        upcoming_renewals(jurisdiction_ids=ids, start=date(2026, 12, 1), end=date(2026, 12, 14))
    )
    assert [(d.due, d.citation) for d in renewals] == [
        (date(2026, 12, 10), "Glencoe 701 Subd. 15(G)(2)")
    ]
    assert timezone.is_aware(moment(2026, 12, 1))
