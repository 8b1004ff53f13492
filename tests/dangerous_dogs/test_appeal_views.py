"""The appeal page: the City Clerk's office records it; officers see it (DD-20, C31)."""

from datetime import date

import pytest
from django.urls import reverse

from base.roles import RESIDENT
from dangerous_dogs.models import Appeal, DeclaredBy
from tests.conftest import make_user

from .helpers import declared

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-12-01T10:00")]
TODAY = date(2026, 12, 1)


def _panel_case(glencoe, officer):
    return declared(
        glencoe,
        officer,
        on=date(2026, 11, 25),
        declared_by=DeclaredBy.PANEL,
        ruling_on=date(2026, 11, 25),
        appeal_deadline=date(2026, 12, 9),
        appeal_citation="Glencoe 701 Subd. 15(H)",
    )


def _url(case):
    return reverse("dangerous_dogs:appeal", args=[case.pk])


def test_roles_and_cities(client_as, glencoe, officer, glencoe_clerk, north_branch):
    case = _panel_case(glencoe, officer)
    resident = make_user("rita", RESIDENT, [glencoe])
    assert client_as(resident).get(_url(case)).status_code == 403
    assert client_as(officer).get(_url(case)).status_code == 403
    assert client_as(officer).post(_url(case), {"action": "file"}).status_code == 403
    nb_clerk = make_user("nora", "clerk", [north_branch])
    assert client_as(nb_clerk).get(_url(case)).status_code == 404
    # the officer sees the appeal's deadline and section on the case page
    page = client_as(officer).get(case.get_absolute_url()).content.decode()
    assert "Appeal to the City Council" in page and "Glencoe 701 Subd. 15(H)" in page
    assert "Dec 9, 2026" in page and "Record an appeal" not in page


def test_the_clerk_files_the_appeal_with_errors_next_to_the_field(
    client_as, glencoe, officer, glencoe_clerk
):
    case = _panel_case(glencoe, officer)
    client = client_as(glencoe_clerk)
    assert "Record an appeal filed" in client.get(case.get_absolute_url()).content.decode()
    data = {"action": "file", "file-filed_on": "2026-12-02", "file-grounds": "Provoked."}
    response = client.post(_url(case), data)
    assert response.status_code == 200
    assert "in the future" in str(response.context["forms"]["file"].errors["filed_on"])
    assert "Provoked." in response.content.decode()
    data["file-filed_on"] = "not a date"
    assert "filed_on" in client.post(_url(case), data).context["forms"]["file"].errors
    data["file-filed_on"] = "2026-12-01"
    assert client.post(_url(case), data).status_code == 302
    assert Appeal.objects.get().grounds == "Provoked."
    page = client.get(case.get_absolute_url()).content.decode()
    assert "The ordinance does not say; a person decides" in page
    assert "Record the City Council" in page


def test_an_appeal_from_a_default_is_refused_with_its_reason(
    client_as, glencoe, officer, glencoe_clerk
):
    case = declared(glencoe, officer, on=date(2026, 11, 25))
    client = client_as(glencoe_clerk)
    assert "declared by default" in client.get(_url(case)).content.decode()
    data = {"action": "file", "file-filed_on": "2026-12-01", "file-grounds": "x"}
    response = client.post(_url(case), data)
    assert response.status_code == 200
    errors = response.context["forms"]["file"].non_field_errors()
    assert "by default" in str(errors) and "Subd. 15(H)" in str(errors)
    assert not Appeal.objects.exists()
