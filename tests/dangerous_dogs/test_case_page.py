"""The board, and the case page every stage of the proceeding fills (Appendix B3)."""

import pytest
from django.urls import reverse

from base.roles import RESIDENT
from dangerous_dogs.models import CaseStatus
from tests.conftest import make_user

from .helpers import make_case

pytestmark = pytest.mark.django_db


def test_the_board_lists_open_cases_of_the_officers_cities(client_as, officer, glencoe):
    case = make_case(glencoe, officer, attention="A late request", attention_citation="x")
    closed = make_case(glencoe, officer, status=CaseStatus.WITHDRAWN)
    page = client_as(officer).get(reverse("dangerous_dogs:board")).content.decode()
    assert case.number in page and "A late request" in page
    assert closed.number not in page
    page = client_as(officer).get(reverse("dangerous_dogs:board") + "?closed=1").content.decode()
    assert closed.number in page


def test_the_case_page_shows_the_dog_owner_and_designation(
    client_as, officer, glencoe, django_assert_max_num_queries, case_page_queries
):
    case = make_case(glencoe, officer)
    client = client_as(officer)
    with django_assert_max_num_queries(case_page_queries):
        response = client.get(case.get_absolute_url())
    page = response.content.decode()
    assert case.animal.name in page and case.owner.name in page
    assert "Dangerous dog (intended)" in page


def test_a_resident_or_another_citys_staff_cannot_see_a_case(
    client_as, officer, glencoe, north_branch, clerk
):
    case = make_case(glencoe, officer)
    assert client_as(clerk).get(case.get_absolute_url()).status_code == 404
    resident = make_user("rita", RESIDENT, [glencoe])
    assert client_as(resident).get(case.get_absolute_url()).status_code == 403
    assert client_as(resident).get(reverse("dangerous_dogs:board")).status_code == 403
