"""The staff list of overdue rabies vaccinations (RAB-01..06, LIC-02).

The list pages in SQL and asks licensing's ``vaccination_status`` of the page's animals,
so it shows the same words as the animal page, in a fixed number of queries.
"""

from datetime import date

import pytest
from django.urls import reverse

from licensing.services.vaccination import vaccination_status
from tests.impound.helpers import owned_dog
from tests.rabies.helpers import vaccinate

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-12-07T10:00")]
TODAY = date(2026, 12, 7)
URL = reverse("rabies:vaccinations_overdue")


@pytest.fixture
def animals(north_branch, glencoe, clerk):
    made = {
        "nb_overdue": owned_dog(north_branch, name="Lapsed", date_of_birth=date(2021, 3, 1)),
        "nb_never": owned_dog(north_branch, name="Neverjab", date_of_birth=date(2022, 5, 1)),
        "nb_current": owned_dog(north_branch, name="Current"),
        "nb_soon": owned_dog(north_branch, name="Soonish", species="cat"),
        "nb_young": owned_dog(north_branch, name="Puppy", date_of_birth=date(2026, 8, 1)),
        "nb_ferret": owned_dog(north_branch, name="Ferret", species="ferret"),
        "nb_dead": owned_dog(north_branch, name="Gone"),
        "gl_overdue": owned_dog(glencoe, name="Glenlapse", acquired_on=date(2020, 1, 1)),
        "gl_other": owned_dog(glencoe, name="Iggy", species="other"),
    }
    vaccinate(made["nb_overdue"], date(2025, 11, 1))  # due November 1, 2026
    vaccinate(made["nb_current"], date(2026, 6, 1))
    vaccinate(made["nb_soon"], date(2025, 12, 20))  # due December 20, 2026
    vaccinate(made["gl_overdue"], date(2023, 6, 1), years=3)  # due June 1, 2026
    made["nb_dead"].mark_deceased(actor=clerk, on=date(2026, 11, 1))
    return made


def names(response):
    return {row.animal.name for row in response.context["rows"]}


def test_lists_the_overdue_animals_of_the_users_cities(client, officer, animals):
    client.force_login(officer)
    response = client.get(URL)
    assert response.status_code == 200
    assert names(response) == {"Lapsed", "Neverjab", "Glenlapse"}
    text = response.content.decode()
    assert "Vaccination overdue" in text
    assert "Vaccinated Nov 1, 2025; it was due again by Nov 1, 2026." in text
    assert "North Branch Sec. 6-77" in text and "Glencoe 701 Subd. 20(C)" in text
    assert animals["nb_overdue"].owner.name in text
    assert "Nov 1, 2025 (1 year)" in text  # the last vaccination
    assert "None on file" in text  # Neverjab
    # Oldest due date first; never vaccinated (due when it turned six months) first.
    assert [r.animal.name for r in response.context["rows"]] == [
        "Neverjab",
        "Glenlapse",
        "Lapsed",
    ]


def test_the_due_soon_filter_adds_those_due_within_the_lead_days(client, officer, animals):
    client.force_login(officer)
    response = client.get(URL, {"due_soon": "1"})
    assert names(response) == {"Lapsed", "Neverjab", "Glenlapse", "Soonish"}
    assert "Vaccinated, due soon" in response.content.decode()


def test_a_clerk_sees_only_the_cities_they_serve(client, clerk, animals):
    client.force_login(clerk)  # North Branch only
    response = client.get(URL)
    assert names(response) == {"Lapsed", "Neverjab"}
    assert "Glenlapse" not in response.content.decode()


def test_the_list_and_the_animal_page_say_the_same(client, officer, animals):
    client.force_login(officer)
    listed = client.get(URL).content.decode()
    for key in ("nb_overdue", "nb_never", "gl_overdue"):
        animal = animals[key]
        status = vaccination_status(animal, on=TODAY)
        page = client.get(reverse("licensing:animal_detail", args=[animal.pk])).content.decode()
        for words in (status.label, status.reason, status.citation):
            assert words in listed and words in page, (key, words)


def test_a_resident_may_not_open_it(client, resident):
    client.force_login(resident)
    assert client.get(URL).status_code == 403


def test_an_empty_list_says_so(client, officer, north_branch):
    client.force_login(officer)
    text = client.get(URL).content.decode()
    assert "No animal&#x27;s rabies vaccination is overdue." in text or (
        "No animal's rabies vaccination is overdue." in text
    )


def test_pages_of_25_in_a_fixed_number_of_queries(
    client, officer, north_branch, glencoe, django_assert_max_num_queries
):
    for n in range(31):
        city = north_branch if n % 2 else glencoe
        dog = owned_dog(city, name=f"Dog {n:02d}", acquired_on=date(2020, 1, 1))
        vaccinate(dog, date(2024, 1, 1) if n % 3 else date(2025, 1, 1))
    client.force_login(officer)
    with django_assert_max_num_queries(10):
        first = client.get(URL)
    assert len(first.context["rows"]) == 25
    assert first.context["page"].paginator.count == 31
    with django_assert_max_num_queries(10):
        second = client.get(URL, {"page": 2})
    assert len(second.context["rows"]) == 6
    assert not names(first) & names(second)
    assert "Page 1 of 2" in first.content.decode()
