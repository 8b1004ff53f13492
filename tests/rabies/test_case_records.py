"""The rabies records on the case kernel: kept (never deleted), numbered from the city's
series, and moved only by the transitions their models declare."""

from datetime import date

import pytest
from django.db import transaction

from kernel.kept import RecordKept
from kernel.models import NumberSeries
from ordinance.models import Event
from ordinance.refusals import Refused
from rabies.models import (
    BiteReport,
    BiteStatus,
    Exposure,
    ExposureStatus,
    Inspection,
    LabSubmission,
    Quarantine,
    QuarantineStatus,
)
from tests.impound.helpers import owned_dog
from tests.rabies.helpers import make_bite, make_exposure, make_quarantine
from tests.rabies.test_bites_services import report

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-12-07T10:00")]


@pytest.mark.parametrize("model", [BiteReport, Quarantine, Exposure, Inspection, LabSubmission])
def test_rabies_records_are_kept(model, north_branch, officer):
    make_quarantine(north_branch, officer)
    with pytest.raises(RecordKept, match="are kept; they are never deleted."):
        model.objects.all().delete()


def test_a_case_refuses_to_delete_itself(glencoe, officer):
    exposure = make_exposure(glencoe, officer)
    with pytest.raises(RecordKept, match="Exposure cases are kept"):
        exposure.delete()
    assert Exposure.objects.filter(pk=exposure.pk).exists()


def test_numbers_continue_the_citys_series(north_branch, officer):
    with transaction.atomic():
        NumberSeries.objects.create(
            jurisdiction=north_branch, series="rabies-BR", year=2026, next_number=42
        )
    bite = report(north_branch, officer, animal=owned_dog(north_branch))
    assert bite.number == "BR-2026-0042"
    assert (
        NumberSeries.objects.get(jurisdiction=north_branch, series="rabies-BR", year=2026)
    ).next_number == 43


def test_a_transition_from_another_state_is_refused_and_records_nothing(north_branch, officer):
    bite = make_bite(north_branch, officer, status=BiteStatus.CLOSED)
    events = Event.objects.count()
    assert bite.next_statuses() == ()
    with pytest.raises(Refused, match="is closed: it cannot become confinement ordered"):
        bite.apply("confine", actor=officer)
    bite.refresh_from_db()
    assert bite.status == BiteStatus.CLOSED
    assert Event.objects.count() == events


def test_the_pages_read_the_next_states_from_the_table(north_branch, glencoe, officer):
    quarantine = make_quarantine(north_branch, officer)
    assert quarantine.next_statuses() == (
        QuarantineStatus.FACILITY,
        QuarantineStatus.ENDED,
        QuarantineStatus.RELEASED,
        QuarantineStatus.SIGNS,
    )
    exposure = make_exposure(glencoe, officer, status=ExposureStatus.NONCOMPLIANCE)
    assert exposure.next_statuses() == (
        ExposureStatus.QUARANTINE,
        ExposureStatus.ENDED,
        ExposureStatus.EUTHANIZED,
    )
    assert exposure.transition_to(ExposureStatus.ENDED) == "continue"


def test_a_flag_keeps_its_event_names(north_branch, officer):
    bite = make_bite(north_branch, officer)
    bite.flag("A question", "Sec. 1", on=date(2026, 12, 7), actor=officer)
    bite.resolve_flag(note="Answered", actor=officer, at=None)
    actions = set(Event.objects.for_object(bite).values_list("action", flat=True))
    assert {"rabies.bitereport.flagged", "rabies.bitereport.resolved"} <= actions
