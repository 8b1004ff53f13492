"""The clerk's approval of an online application and the issue that follows payment:
the application date decides the late penalty (NB Sec. 6-65(c), LIC-13, FEE-03); a
charged amount that no longer matches is refused with nothing issued."""

from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest

from licensing.models import OnlineApplication, RabiesVaccination, Receipt
from licensing.models.online import ApplicationKind, ApplicationStatus
from licensing.services.applications import (
    application_approve,
    application_hold,
    application_issue,
)
from ordinance.models import Event
from ordinance.refusals import Refused
from tests.licensing.factories import AnimalFactory
from tests.licensing.license_factories import TagStockFactory

CHICAGO = ZoneInfo("America/Chicago")


def at(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 10, tzinfo=CHICAGO)


@pytest.fixture
def application(north_branch, clerk, resident):
    TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2026, last_number=20)
    dog = AnimalFactory(jurisdiction=north_branch, date_of_birth=date(2022, 5, 1))
    dog.owner.user = resident
    dog.owner.save()
    return OnlineApplication.objects.create(
        jurisdiction=north_branch,
        kind=ApplicationKind.NEW,
        animal=dog,
        owner=dog.owner,
        submitted_by=resident,
        submitted_at=at(date(2026, 1, 30)),
        status_changed_at=at(date(2026, 1, 30)),
        applied_on=date(2026, 1, 30),
        vaccinated_on=date(2025, 6, 1),
        duration_years=RabiesVaccination.Duration.THREE_YEARS,
        veterinarian_name="Dr. Ada Lind",
        veterinarian_license="MN-4411",
    )


def test_applied_in_time_paid_late_pays_no_penalty(application, clerk):
    approval = application_approve(
        application, actor=clerk, on=date(2026, 2, 3), now=at(date(2026, 2, 3))
    )
    assert approval.amount_due == Decimal("18.00")  # no 50 % penalty: applied on day 30
    application.refresh_from_db()
    assert application.status == ApplicationStatus.APPROVED
    assert application.vaccination.veterinarian_license == "MN-4411"
    result = application_issue(
        application, actor=clerk, method="cash", on=date(2026, 2, 10), now=at(date(2026, 2, 10))
    )
    assert result.receipt.total == Decimal("18.00") and not result.license.late_penalty
    application.refresh_from_db()
    assert application.status == ApplicationStatus.ISSUED and application.license == result.license
    assert (
        Event.objects.for_object(application).filter(action="licensing.application.issued").exists()
    )


def test_wrong_amount_is_refused_and_nothing_is_issued(application, clerk):
    application_approve(application, actor=clerk, on=date(2026, 2, 3), now=at(date(2026, 2, 3)))
    with pytest.raises(Refused):
        application_issue(
            application,
            actor=clerk,
            method="card",
            reference="pi_test",
            expected_total=Decimal("5.00"),
            on=date(2026, 2, 4),
            now=at(date(2026, 2, 4)),
        )
    assert not Receipt.objects.exists()
    application_hold(application, reason="amount", now=at(date(2026, 2, 4)))
    application.refresh_from_db()
    assert application.status == ApplicationStatus.PAYMENT_HELD
    # The clerk finishes it: a held application can still be issued.
    result = application_issue(
        application, actor=clerk, method="card", reference="pi_test", on=date(2026, 2, 4)
    )
    assert result.receipt.reference == "pi_test"


def test_only_a_submitted_application_is_approved(application, clerk):
    application_approve(application, actor=clerk, on=date(2026, 2, 3))
    with pytest.raises(Refused):
        application_approve(application, actor=clerk, on=date(2026, 2, 3))
