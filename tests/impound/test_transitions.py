"""The impound case's state machine, declared on the model (the case kernel): held until
the hold ends (IMP-04), then closed by redemption (IMP-07) or a disposition (IMP-09);
each move checked, saved and recorded in one step."""

from datetime import date

import pytest

from impound.models import CaseStatus, ImpoundCase
from ordinance.models import Event
from ordinance.refusals import Refused

from .factories import make_pound
from .helpers import at, impound

pytestmark = pytest.mark.django_db


@pytest.fixture
def case(north_branch, glencoe, officer):
    return impound(glencoe, make_pound(north_branch, glencoe), officer)


@pytest.mark.clock("2026-12-08T10:00")
def test_a_held_case_may_become_available_or_close(case):
    assert case.next_statuses() == (
        CaseStatus.AVAILABLE,
        CaseStatus.REDEEMED,
        CaseStatus.ADOPTED,
        CaseStatus.EUTHANIZED,
        CaseStatus.TRANSFERRED,
        CaseStatus.RELEASED,
        CaseStatus.DIED,
    )
    case.make_available(on=date(2026, 12, 8), at=at(2026, 12, 8, 0, 5))
    case.refresh_from_db()
    assert (case.status, case.available_on) == (CaseStatus.AVAILABLE, date(2026, 12, 8))
    assert case.status_changed_at == at(2026, 12, 8, 0, 5)
    event = Event.objects.for_object(case).get(action="impound.case.available")
    assert event.summary.startswith("Hold ended")
    assert not case.may("make_available") and case.may("dispose")


@pytest.mark.clock("2026-12-08T10:00")
def test_closing_saves_the_closing_and_records_the_disposition(case, officer):
    case.close(
        CaseStatus.TRANSFERRED,
        on=date(2026, 12, 8),
        at=at(2026, 12, 8, 9),
        actor=officer,
        note="To Rescue Inc.",
        to_name="Rescue Inc.",
    )
    case = ImpoundCase.objects.get(pk=case.pk)
    assert (case.status, case.closed_on) == (CaseStatus.TRANSFERRED, date(2026, 12, 8))
    assert (case.transferred_to_name, case.closing_note) == ("Rescue Inc.", "To Rescue Inc.")
    event = Event.objects.for_object(case).get(action="impound.case.transferred")
    assert (event.actor, event.summary) == (officer, "To Rescue Inc.")
    assert case.next_statuses() == ()


@pytest.mark.clock("2026-12-08T10:00")
def test_a_closed_case_is_refused_another_closing_and_keeps_its_own(case, officer):
    closing = dict(on=date(2026, 12, 8), at=at(2026, 12, 8, 9), actor=officer, note="Done")
    case.close(CaseStatus.EUTHANIZED, **closing)
    events = Event.objects.count()
    with pytest.raises(Refused, match="is humanely euthanized: it cannot become redeemed"):
        case.close(CaseStatus.REDEEMED, **closing)
    with pytest.raises(Refused, match="cannot become available"):
        case.make_available(on=date(2026, 12, 8), at=at(2026, 12, 8, 9))
    case.refresh_from_db()
    assert (case.status, case.available_on) == (CaseStatus.EUTHANIZED, None)
    assert Event.objects.count() == events
