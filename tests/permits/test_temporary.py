"""Temporary wild-animal permits (Glencoe 701 Subd. 32(A), Subd. 35; WLD-04)."""

from datetime import date

import pytest

from notices.services import document_pdf
from ordinance.refusals import Refused
from permits.models import TemporaryStatus
from permits.services import temporary
from tests.pdf import pdf_text

from .helpers import issued_temporary_permit, temporary_fields

pytestmark = pytest.mark.django_db


@pytest.mark.clock("2026-05-20T09:00")
def test_31_days_are_refused_with_subd_32a_next_to_the_last_day(glencoe, glencoe_clerk):
    with pytest.raises(Refused) as refused:
        temporary.temporary_apply(
            jurisdiction=glencoe,
            actor=glencoe_clerk,
            **temporary_fields(starts_on=date(2026, 6, 1), ends_on=date(2026, 7, 1)),
        )
    (check,) = refused.value.checks
    assert check.field == "ends_on" and check.citation == "Glencoe 701 Subd. 32(A)"
    assert "31 days" in check.message and "30 days" in check.message


@pytest.mark.clock("2026-05-20T09:00")
def test_30_days_are_accepted(glencoe, glencoe_clerk):
    permit = temporary.temporary_apply(
        jurisdiction=glencoe,
        actor=glencoe_clerk,
        **temporary_fields(starts_on=date(2026, 6, 1), ends_on=date(2026, 6, 30)),
    )
    assert permit.days == 30 and permit.status == TemporaryStatus.APPLIED


@pytest.mark.clock("2026-05-20T09:00")
def test_a_state_permit_or_the_97a401_exemption_is_required(glencoe, glencoe_clerk):
    with pytest.raises(Refused) as refused:
        temporary.temporary_apply(
            jurisdiction=glencoe,
            actor=glencoe_clerk,
            **temporary_fields(state_permit_number="", conditions=" "),
        )
    fields = {c.field for c in refused.value.checks}
    assert fields == {"state_permit_number", "conditions"}
    permit = temporary.temporary_apply(
        jurisdiction=glencoe,
        actor=glencoe_clerk,
        **temporary_fields(
            state_permit_number="", state_exempt=True, exemption_basis="Federal USDA exhibitor"
        ),
    )
    assert permit.state_exempt


def test_north_branch_has_no_temporary_permit(north_branch, clerk):
    with pytest.raises(Refused) as refused:
        temporary.temporary_apply(jurisdiction=north_branch, actor=clerk, **temporary_fields())
    assert "no such permit" in str(refused.value)


def test_a_denial_needs_reasons_and_is_recorded(glencoe, glencoe_clerk):
    permit = temporary.temporary_apply(
        jurisdiction=glencoe, actor=glencoe_clerk, on=date(2026, 5, 20), **temporary_fields()
    )
    kwargs = dict(
        permit=permit,
        decision="denied",
        decided_by_name="Mark Larson",
        decided_by_capacity="City Administrator",
        decided_on=date(2026, 5, 21),
        actor=glencoe_clerk,
    )
    with pytest.raises(Refused):
        temporary.temporary_decide(reasons="", **kwargs)
    permit = temporary.temporary_decide(reasons="No enclosure plan.", **kwargs)
    assert permit.status == TemporaryStatus.DENIED and not permit.number and not permit.document


@pytest.mark.clock("2026-05-21T09:00")
def test_the_permit_pdf_carries_the_conditions_and_the_dates(glencoe, glencoe_clerk):
    permit = issued_temporary_permit(glencoe, glencoe_clerk, on=date(2026, 5, 21))
    assert permit.status == TemporaryStatus.ISSUED and permit.number == "T2026-001"
    first = document_pdf(permit.document)
    text = pdf_text(first)
    assert "Water and shade at all times." in text and "Bengal tiger (3)" in text
    assert "June 1, 2026" in text and "June 30, 2026" in text
    assert "Glencoe 701 Subd. 32(A)" in text and "Glencoe 701 Subd. 35" in text
    assert "MN-DNR-2026-441" in text and "Mark Larson" in text
    assert document_pdf(permit.document) == first


@pytest.mark.clock("2026-05-21T09:00")
def test_a_decided_application_is_not_decided_again_and_numbers_come_from_the_kernel(
    glencoe, glencoe_clerk
):
    from kernel.models import NumberSeries
    from ordinance.models import Event

    first = issued_temporary_permit(glencoe, glencoe_clerk, on=date(2026, 5, 21))
    second = issued_temporary_permit(glencoe, glencoe_clerk, on=date(2026, 5, 21))
    assert (first.number, second.number) == ("T2026-001", "T2026-002")
    series = NumberSeries.objects.get(jurisdiction=glencoe, series="permit-temporary", year=2026)
    assert series.next_number == 3
    assert first.may("expire") and not first.may("approve")
    events = Event.objects.count()
    with pytest.raises(Refused, match="is issued: it cannot become denied"):
        temporary.temporary_decide(
            permit=first,
            decision="denied",
            decided_by_name="Mark Larson",
            decided_by_capacity="City Administrator",
            decided_on=date(2026, 5, 21),
            reasons="Second thoughts.",
            actor=glencoe_clerk,
        )
    first.refresh_from_db()
    assert first.status == TemporaryStatus.ISSUED and Event.objects.count() == events
    assert first.status_changed_at is not None
