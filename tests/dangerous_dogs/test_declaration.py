"""Both paths' shared steps: the designation comes into force; the owner's receipt starts
the compliance clock for a dangerous dog only (DD-08, DD-09, DD-10, DD-20, DD-30)."""

from datetime import date

import pytest
from django.utils import timezone

from dangerous_dogs.models import CaseStatus, DeclaredBy, Designation
from dangerous_dogs.services.declaration import declaration_received, declare
from ordinance.models import Event
from ordinance.refusals import Refused

from .helpers import make_case

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-12-01T10:00")]
TODAY = date(2026, 12, 1)


def _declare(case, officer, by, designation=Designation.DANGEROUS, on=date(2026, 11, 20)):
    return declare(
        case,
        designation=designation,
        by=by,
        on=on,
        document=None,
        actor=officer,
        at=timezone.now(),
        citation="Glencoe 701 Subd. 15(J)",
    )


def test_a_panel_ruling_starts_the_appeal_clock_from_the_ruling(glencoe, officer):
    case = _declare(make_case(glencoe, officer, status=CaseStatus.HEARING), officer, "panel")
    assert case.status == CaseStatus.DECLARED and case.ruling_on == date(2026, 11, 20)
    assert case.appeal_deadline == date(2026, 12, 4)
    assert case.appeal_citation == "Glencoe 701 Subd. 15(H)"
    assert Event.objects.filter(action="dangerous_dogs.case.declared").count() == 1


def test_each_path_declares_only_from_its_own_state(glencoe, officer):
    heard = make_case(glencoe, officer, status=CaseStatus.HEARING)
    with pytest.raises(Refused, match="review panel: issuing the declaration is not possible now"):
        _declare(heard, officer, "default")
    defaulted = make_case(glencoe, officer, status=CaseStatus.DEFAULTED)
    with pytest.raises(Refused, match="recording the hearing is not possible now"):
        _declare(defaulted, officer, "panel")
    assert not Event.objects.filter(action="dangerous_dogs.case.declared").exists()


def test_a_default_has_no_appeal_clock(glencoe, officer):
    case = _declare(make_case(glencoe, officer, status=CaseStatus.DEFAULTED), officer, "default")
    assert case.declared_by == DeclaredBy.DEFAULT and case.appeal_deadline is None


def test_the_owners_receipt_starts_compliance_for_a_dangerous_dog(glencoe, officer):
    case = _declare(make_case(glencoe, officer, status=CaseStatus.DEFAULTED), officer, "default")
    declaration_received(
        case=case, received_on=date(2026, 11, 23), actor=officer, at=timezone.now(), today=TODAY
    )
    assert case.compliance_deadline == date(2026, 12, 7)
    assert case.compliance_citation == "Glencoe 701 Subd. 15(E), (J), (K)"
    with pytest.raises(Refused, match="recorded already"):
        declaration_received(
            case=case, received_on=date(2026, 11, 24), actor=officer, at=timezone.now(), today=TODAY
        )


def test_a_potentially_dangerous_dog_has_no_compliance_clock(glencoe, officer):
    case = make_case(glencoe, officer, status=CaseStatus.DEFAULTED)
    _declare(case, officer, "default", designation=Designation.POTENTIALLY_DANGEROUS)
    declaration_received(
        case=case, received_on=date(2026, 11, 23), actor=officer, at=timezone.now(), today=TODAY
    )
    assert case.declaration_received_on == date(2026, 11, 23)
    assert case.compliance_deadline is None


def test_receipt_cannot_be_in_the_future_or_before_the_declaration(glencoe, officer):
    case = _declare(make_case(glencoe, officer, status=CaseStatus.DEFAULTED), officer, "default")
    for day in (date(2026, 12, 2), date(2026, 11, 19)):
        with pytest.raises(Refused) as err:
            declaration_received(
                case=case, received_on=day, actor=officer, at=timezone.now(), today=TODAY
            )
        assert err.value.reasons[0].field == "received_on"
