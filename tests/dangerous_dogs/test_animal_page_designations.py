"""The dog's page: its standing under Subd. 15 (Glencoe) or Sec. 6-73 (North Branch), from
one service ``designation_status`` (DD-01, DD-02, DD-14, DD-27, DD-29, DD-30)."""

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory
from django.urls import reverse

from base.roles import RESIDENT
from dangerous_dogs import sections
from dangerous_dogs.models import CaseStatus, Classification, Designation, Registration
from dangerous_dogs.services.status import designation_status
from tests.conftest import make_user
from tests.impound.helpers import owned_dog

from .helpers import declared, make_case

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-11-24T10:00")]

TODAY = date(2026, 11, 24)


def _page(client_as, user, animal):
    response = client_as(user).get(reverse("licensing:animal_detail", args=[animal.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _classified(city, officer, **extra):
    dog = owned_dog(city, **extra)
    Classification.objects.create(
        jurisdiction=city,
        animal=dog,
        term="vicious",
        reason="Bit a mail carrier on the sidewalk.",
        classified_on=date(2026, 11, 20),
        classified_by_name="Olivia Officer",
        citation="North Branch Sec. 6-73",
        recorded_by=officer,
    )
    return dog


def _open_case_url(animal):
    return reverse("dangerous_dogs:case_open", args=[animal.pk])


# --- who sees the section ---------------------------------------------------------------


def test_a_resident_or_anonymous_visitor_gets_nothing_of_it(glencoe, officer):
    dog = owned_dog(glencoe)
    request = RequestFactory().get("/")
    request.user = make_user("rita", RESIDENT, [glencoe])
    assert sections.animal_designations(request, animal=dog) is None
    request.user = AnonymousUser()
    assert sections.animal_designations(request, animal=dog) is None


# --- North Branch: no procedure, the classification and its duty ------------------------


def test_north_branch_dog_shows_no_procedure_and_a_classify_link_to_the_officer(
    client_as, north_branch, officer, clerk
):
    dog = owned_dog(north_branch)
    page = _page(client_as, officer, dog)
    assert "has no procedure to declare a dog dangerous (North Branch Sec. 6-73, 6-75)" in page
    assert "Not classified fierce, dangerous or vicious." in page
    assert reverse("dangerous_dogs:classification_create", args=[dog.pk]) in page
    assert "Subd. 15" not in page and "Open a dangerous-dog case" not in page
    page = _page(client_as, clerk, dog)
    assert reverse("dangerous_dogs:classification_create", args=[dog.pk]) not in page


def test_a_classified_north_branch_dog_shows_the_duty_and_the_court_gate(
    client_as, north_branch, officer, clerk
):
    dog = _classified(north_branch, officer)
    for user in (officer, clerk):
        page = _page(client_as, user, dog)
        assert "Vicious, on Nov 20, 2026 by Olivia Officer" in page
        assert "Bit a mail carrier on the sidewalk." in page
        assert (
            "Confined within a building or secure enclosure, and not taken out of it unless "
            "securely muzzled (North Branch Sec. 6-73)" in page
        )
        assert "Fierce, dangerous or vicious dog found at large (Sec. 6-73)" in page
        assert "(North Branch Sec. 6-75)" in page
        assert "may not be redeemed unless a court having jurisdiction authorizes it" in page
        assert "Subd. 15" not in page and "Open a dangerous-dog case" not in page
        assert "case_open" not in page
    assert "End the classification" in _page(client_as, officer, dog)
    assert "End the classification" not in _page(client_as, clerk, dog)


def test_an_ended_classification_stays_listed(client_as, north_branch, officer):
    dog = _classified(north_branch, officer)
    Classification.objects.filter(animal=dog).update(
        ended_on=TODAY, ended_reason="Moved out of the city"
    )
    page = _page(client_as, officer, dog)
    assert "Not classified fierce, dangerous or vicious." in page
    assert "Vicious from Nov 20, 2026 to Nov 24, 2026: Moved out of the city" in page


# --- Glencoe: the Subd. 15 standing -----------------------------------------------------


def test_glencoe_dog_without_a_case(client_as, glencoe, officer, glencoe_clerk):
    dog = owned_dog(glencoe)
    page = _page(client_as, officer, dog)
    assert "Designation in force" in page and "No open case" in page
    assert "has no procedure" not in page
    assert _open_case_url(dog) in page
    assert reverse("dangerous_dogs:review_destruction_animal", args=[dog.pk]) in page
    assert "Open a dangerous-dog case" not in _page(client_as, glencoe_clerk, dog)


def test_the_open_case_link_shows_to_officers_only(glencoe, officer, glencoe_clerk):
    dog = owned_dog(glencoe)
    request = RequestFactory().get("/")
    request.user = officer
    _template, context = sections.animal_designations(request, animal=dog)
    assert context["open_case_url"] == _open_case_url(dog)
    request.user = glencoe_clerk
    _template, context = sections.animal_designations(request, animal=dog)
    assert "open_case_url" not in context


def test_a_declared_dangerous_dog_with_compliance_running(client_as, glencoe, officer):
    case = declared(glencoe, officer, on=date(2026, 11, 18), received_on=date(2026, 11, 20))
    page = _page(client_as, officer, case.animal)
    assert "Dangerous dog since Nov 18, 2026, declared By default" in page
    assert case.number in page and case.get_absolute_url() in page
    assert "Not registered." in page
    assert "The owner must comply by Dec 4, 2026 (Glencoe 701 Subd. 15(E), (J), (K))" in page
    assert "kept in a proper enclosure. (Glencoe 701 Subd. 15(G)(1))" in page
    assert "muzzled, and restrained by a substantial chain or leash" in page
    assert "without a registration is a violation" not in page


def test_a_dangerous_dog_past_compliance_without_registration_is_a_violation(
    client_as, glencoe, officer
):
    case = declared(glencoe, officer, on=date(2026, 10, 1), received_on=date(2026, 10, 2))
    page = _page(client_as, officer, case.animal)
    assert "A dangerous dog without a registration is a violation (Glencoe 701 Subd. 15)" in page


def test_a_registered_dangerous_dog(client_as, glencoe, officer):
    case = declared(glencoe, officer, on=date(2026, 10, 1), received_on=date(2026, 10, 2))
    CaseStatus.REGISTERED  # noqa: B018 (the status the registration service sets)
    Registration.objects.create(
        case=case,
        jurisdiction=glencoe,
        number="DDR-2026-0001",
        owner=case.owner,
        issued_on=date(2026, 10, 10),
        expires_on=date(2027, 10, 10),
        renewal_citation="Glencoe 701 Subd. 15(G)(2)",
        fee=Decimal("100.00"),
        issued_by=officer,
    )
    page = _page(client_as, officer, case.animal)
    assert "Registered until Oct 10, 2027 (Glencoe 701 Subd. 15)" in page
    assert "Not registered" not in page


def test_a_potentially_dangerous_dog_has_the_dd30_gap_and_the_escalation(
    client_as, glencoe, officer
):
    case = declared(
        glencoe,
        officer,
        on=date(2026, 11, 1),
        designation=Designation.POTENTIALLY_DANGEROUS,
        declaration_received_on=date(2026, 11, 3),
    )
    page = _page(client_as, officer, case.animal)
    assert "Potentially dangerous dog since Nov 1, 2026" in page
    assert "attaches no requirements to a potentially dangerous dog" in page
    assert "(Glencoe 701 Subd. 15)" in page
    assert "An attack after the owner's notice of Nov 3, 2026 makes the dog dangerous" in page
    assert "Glencoe 701 Subd. 1" in page
    assert "Keeping requirements" not in page and "Registration" not in page


def test_a_law_enforcement_dog_is_outside_subd_15(client_as, glencoe, officer):
    dog = owned_dog(glencoe, is_law_enforcement=True)
    page = _page(client_as, officer, dog)
    assert "Subd. 15 does not apply (Glencoe 701 Subd. 15(M))" in page
    assert "Open a dangerous-dog case" not in page and "Designation in force" not in page


def test_the_status_lists_every_case_and_picks_the_one_in_force(glencoe, officer):
    dog = owned_dog(glencoe)
    closed = make_case(glencoe, officer, animal=dog, status=CaseStatus.DISMISSED)
    live = declared(glencoe, officer, animal=dog, on=TODAY - timedelta(days=2))
    status = designation_status(dog, on=TODAY)
    assert {c.pk for c in status.cases} == {closed.pk, live.pk}
    assert status.in_force == live and status.current == live and status.dangerous


# --- queries ----------------------------------------------------------------------------


def test_the_section_costs_at_most_two_queries(
    glencoe, north_branch, officer, django_assert_max_num_queries
):
    request = RequestFactory().get("/")
    request.user = officer
    gl_dog = owned_dog(glencoe)
    for _ in range(5):
        declared(glencoe, officer, animal=gl_dog, on=TODAY, received_on=TODAY)
    nb_dog = _classified(north_branch, officer)
    officer.roles  # noqa: B018 (the page has read the user's roles already)
    for dog in (gl_dog, nb_dog, owned_dog(glencoe, is_law_enforcement=True)):
        dog.jurisdiction  # noqa: B018 (the page has it already)
        with django_assert_max_num_queries(2):
            sections.animal_designations(request, animal=dog)


def _page_queries(client, url, django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(url)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_section_adds_at_most_two_queries_to_the_animal_page(
    client_as, glencoe, north_branch, officer, django_assert_max_num_queries
):
    """The animal page's own queries are licensing's; the section adds two, whatever the
    number of cases or classifications."""
    from base import sections as registry

    gl_dog = owned_dog(glencoe)
    for _ in range(6):
        declared(glencoe, officer, animal=gl_dog, on=TODAY, received_on=TODAY)
    nb_dog = _classified(north_branch, officer)
    client = client_as(officer)
    for dog in (gl_dog, nb_dog):
        url = reverse("licensing:animal_detail", args=[dog.pk])
        with_section = _page_queries(client, url, django_assert_max_num_queries)
        registry.unregister("licensing.animal_detail", "dangerous_dogs")
        try:
            without = _page_queries(client, url, django_assert_max_num_queries)
        finally:
            registry.register(
                "licensing.animal_detail", "dangerous_dogs", sections.animal_designations, order=30
            )
        assert with_section - without <= 2
