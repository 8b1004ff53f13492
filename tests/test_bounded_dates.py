"""Bounded dates on the pages that took any date, and a calendar that
refuses a date it cannot count from instead of raising OverflowError."""

from datetime import date, datetime

import pytest
import time_machine
from django.urls import reverse

from licensing.models import License, RabiesVaccination
from licensing.models.registry import AnimalStatus
from ordinance import calendar
from ordinance.refusals import Refused, refusing
from tests.licensing.factories import AnimalFactory, RabiesVaccinationFactory
from tests.licensing.license_factories import TagStockFactory

pytestmark = pytest.mark.clock("2026-06-15T10:00")


@pytest.fixture
def dog(north_branch, clerk):
    TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2026, last_number=20)
    dog = AnimalFactory(jurisdiction=north_branch, date_of_birth=date(2020, 1, 1))
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2026, 5, 1))
    return dog


@pytest.mark.parametrize("typed", ["9999-12-31", "0001-01-01", "2026-06-16"])
def test_the_pay_forms_subject_date_out_of_range_is_a_message_not_a_500(
    client_as, clerk, dog, typed
):
    """became_subject_on=9999-12-31 was an OverflowError (a 500) in the late-penalty count."""
    response = client_as(clerk).post(
        reverse("licensing:counter_pay", args=[dog.pk]),
        {"method": "cash", "became_subject_on": typed},
    )
    assert response.status_code == 200
    [error] = response.context["form"].errors["became_subject_on"]
    assert error.endswith("Enter a date between Jan 1, 1970 and today.")
    assert ("cannot be in the future" in error) == (typed != "0001-01-01")
    assert "Enter a date between Jan 1, 1970 and today." in response.content.decode()
    assert not License.objects.filter(animal=dog).exists()


def test_the_pay_form_shows_the_range_in_the_date_picker(client_as, clerk, dog):
    page = client_as(clerk).get(reverse("licensing:counter_pay", args=[dog.pk])).content.decode()
    assert 'min="1970-01-01"' in page and 'max="2026-06-15"' in page


def test_a_death_date_of_year_one_is_refused(client_as, clerk, dog):
    client = client_as(clerk)
    response = client.post(
        reverse("licensing:animal_mark_deceased", args=[dog.pk]),
        {"died_on": "0001-01-01", "note": "Owner called", "confirmed": "on"},
    )
    assert response.status_code == 400  # the form again, the message next to the field
    dog.refresh_from_db()
    assert dog.status == AnimalStatus.ALIVE
    assert "Enter a date between Jan 1, 1970 and today." in response.content.decode()


def test_a_next_due_date_of_9999_is_refused_next_to_the_field(client_as, clerk, dog):
    before = RabiesVaccination.objects.count()
    response = client_as(clerk).post(
        reverse("licensing:vaccination_create", args=[dog.pk]),
        {
            "vaccinated_on": "2026-06-01",
            "duration_years": "1",
            "next_due_on": "9999-12-31",
            "veterinarian_name": "Dr. Vet",
            "veterinarian_license": "MN-1",
            "clinic_name": "Clinic",
        },
    )
    assert response.status_code == 200
    assert response.context["form"].errors["next_due_on"] == [
        "Enter a date between Jan 1, 1970 and Dec 31, 2100."
    ]
    assert RabiesVaccination.objects.count() == before


def test_a_vaccination_in_the_future_is_refused_by_the_form(client_as, clerk, dog):
    response = client_as(clerk).post(
        reverse("licensing:vaccination_create", args=[dog.pk]),
        {"vaccinated_on": "2026-06-16", "duration_years": "1"},
    )
    assert response.context["form"].errors["vaccinated_on"] == [
        "The date cannot be in the future. Enter a date between Jan 1, 1970 and today."
    ]


# --- the calendar ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "count",
    [
        lambda city: calendar.add_calendar_days(date.max, 1),
        lambda city: calendar.add_calendar_days(date.min, -1),
        lambda city: calendar.add_months(date(9999, 12, 1), 1),
        lambda city: calendar.add_months(date(1, 1, 31), -1),
        lambda city: calendar.add_business_days(city, date(9999, 12, 30), 5),
        lambda city: calendar.due_date(city, "impound_hold_business_days", date.max),
        lambda city: calendar.due_date(city, "horse_permit_expiry", date(9999, 4, 16)),
    ],
)
def test_the_calendar_refuses_a_date_it_cannot_count_from(glencoe, count):
    with pytest.raises(calendar.DateOutOfRange) as refused:
        count(glencoe)
    assert "No deadline can be counted from" in str(refused.value)
    assert isinstance(refused.value, ValueError)


def test_the_calendar_still_counts_up_to_the_last_date(north_branch):
    assert calendar.add_calendar_days(date(9999, 12, 30), 1) == date.max
    assert calendar.add_months(date(9999, 11, 30), 1) == date(9999, 12, 30)
    assert calendar.add_business_days(north_branch, date(9999, 12, 29), 1) == date(9999, 12, 30)


def test_the_calendar_refuses_an_hour_count_past_the_last_moment(north_branch):
    end = datetime(9999, 12, 31, 23, 0)
    with pytest.raises(calendar.DateOutOfRange):
        calendar.due_datetime(north_branch, "owner_bite_report_hours", end)


def test_a_service_boundary_turns_it_into_a_refusal():
    with pytest.raises(Refused) as refused, refusing():
        calendar.add_calendar_days(date.max, 1)
    assert "No deadline can be counted from 9999-12-31" in refused.value.messages[0]


def test_the_bounds_stay_far_inside_what_the_calendar_can_count():
    from base import dates

    with time_machine.travel(datetime(2026, 6, 15, 10), tick=False):
        assert calendar.add_months(dates.LATEST, 1200) < date.max
