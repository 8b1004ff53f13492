"""Django admin for pounds and cases, scoped to the administrator's cities."""

from datetime import date, datetime, time
from zoneinfo import ZoneInfo

import pytest

from base.roles import ADMINISTRATOR
from impound.models import ImpoundCase, Pound
from impound.services.intake import case_intake
from tests.conftest import make_user

from .factories import make_pound

CHICAGO = ZoneInfo("America/Chicago")
pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-11-30T10:00")]


@pytest.fixture
def gl_admin(glencoe):
    return make_user("gladys", ADMINISTRATOR, [glencoe])


def _case(city, pound, actor):
    return case_intake(
        jurisdiction=city,
        pound=pound,
        actor=actor,
        ground="unlicensed_at_large",
        placed_at=datetime(2026, 11, 30, 9, tzinfo=CHICAGO),
        seized_on=date(2026, 11, 30),
        seized_where="Main St",
        species="dog",
        color="Zzbrindle",
        approximate_age_months=1,
    )


def test_pounds_with_hours_and_closures_are_listed_for_the_cities_served(
    client_as, administrator, gl_admin, north_branch, glencoe
):
    make_pound(north_branch, name="Nbonly Pound")
    shared = make_pound(north_branch, glencoe, name="Shared Pound")
    client = client_as(gl_admin)
    page = client.get("/admin/impound/pound/").content.decode()
    assert "Shared Pound" in page and "Nbonly Pound" not in page
    change = client.get(f"/admin/impound/pound/{shared.pk}/change/").content.decode()
    assert "hours-0-weekday" in change and "closures-TOTAL_FORMS" in change
    assert str(north_branch) not in change and str(glencoe) in change  # no other city
    client = client_as(administrator)
    page = client.get("/admin/impound/pound/").content.decode()
    assert "Shared Pound" in page and "Nbonly Pound" in page


def test_an_administrator_adds_a_pound_with_its_hours_and_a_closure(client_as, gl_admin, glencoe):
    client = client_as(gl_admin)
    resp = client.post(
        "/admin/impound/pound/add/",
        {
            "name": "McLeod County Pound",
            "address": "1 Pound Road, Glencoe",
            "phone": "",
            "jurisdictions": [glencoe.pk],
            "designation": "Res. 2026-3",
            "designated_from": "2026-01-01",
            "designated_until": "",
            "hours-TOTAL_FORMS": "1",
            "hours-INITIAL_FORMS": "0",
            "hours-0-weekday": "0",
            "hours-0-opens": "09:00",
            "hours-0-closes": "17:00",
            "closures-TOTAL_FORMS": "1",
            "closures-INITIAL_FORMS": "0",
            "closures-0-date": "2026-12-24",
            "closures-0-reason": "Christmas Eve",
        },
    )
    assert resp.status_code == 302, resp.content.decode()[:2000]
    pound = Pound.objects.get(name="McLeod County Pound")
    assert list(pound.jurisdictions.all()) == [glencoe]
    assert pound.hours.get().opens == time(9)
    assert pound.closures.get().reason == "Christmas Eve"


def test_cases_are_read_only_and_scoped(client_as, gl_admin, administrator, north_branch):
    pound = make_pound(north_branch)
    case = _case(north_branch, pound, administrator)
    client = client_as(administrator)
    assert case.number in client.get("/admin/impound/impoundcase/").content.decode()
    view = client.get(f"/admin/impound/impoundcase/{case.pk}/change/")
    assert view.status_code == 200 and "Zzbrindle" in view.content.decode()
    assert client.get("/admin/impound/impoundcase/add/").status_code == 403
    client.post(f"/admin/impound/impoundcase/{case.pk}/change/", {"color": "Changed"})
    assert ImpoundCase.objects.get(pk=case.pk).color == "Zzbrindle"
    client = client_as(gl_admin)
    assert "Zzbrindle" not in client.get("/admin/impound/impoundcase/").content.decode()
    assert client.get(f"/admin/impound/impoundcase/{case.pk}/change/").status_code in (302, 404)
