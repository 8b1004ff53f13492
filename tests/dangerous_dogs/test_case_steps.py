"""The proceeding's state machine is the table on ``DesignationCase`` (Appendix B3): what a
page offers and what a service refuses both read it."""

import pytest

from dangerous_dogs.models import CaseStatus, DesignationCase
from ordinance.models import Event
from ordinance.refusals import Refused

from .helpers import make_case

pytestmark = pytest.mark.django_db


def test_a_seized_dog_is_reclaimed_or_its_case_closes():
    case = DesignationCase(status=CaseStatus.SEIZED)
    assert case.may("reclaim") and case.may("dispose") and not case.may("seize")
    assert set(case.next_statuses()) == {
        CaseStatus.DECLARED,
        CaseStatus.REGISTERED,
        CaseStatus.DISMISSED,  # the Council reverses the panel
        CaseStatus.RESCINDED,
        CaseStatus.DESTROYED,
        CaseStatus.DECEASED,
        CaseStatus.TRANSFERRED,
    }


def test_a_closed_case_goes_nowhere():
    for status in (CaseStatus.EXEMPT, CaseStatus.WITHDRAWN, CaseStatus.DESTROYED):
        assert DesignationCase(status=status).next_statuses() == ()


def test_a_refused_step_names_itself_and_its_section_and_changes_nothing(glencoe, officer):
    case = make_case(glencoe, officer, status=CaseStatus.WITHDRAWN)
    with pytest.raises(Refused) as refused:
        case.apply("seize", actor=officer)
    assert str(refused.value) == (
        f"Case {case.number} is withdrawn by the city attorney: seizure is not possible now. "
        "(Glencoe 701 Subd. 15(E), (J), (K))"
    )
    case.refresh_from_db()
    assert case.status == CaseStatus.WITHDRAWN and not Event.objects.exists()


def test_the_panel_s_finding_records_the_event_of_where_it_leads(glencoe, officer):
    case = make_case(glencoe, officer, status=CaseStatus.HEARING)
    event = case.apply("hold_hearing", to=CaseStatus.DISMISSED, actor=officer)
    assert event.action == "dangerous_dogs.case.dismissed"
    assert DesignationCase.objects.get(pk=case.pk).status == CaseStatus.DISMISSED
