"""Entry that matches the rules: the application's required fields per
city (LIC-04, NB Sec. 6-61), editing the animal from the checks and coming back, the
duplicate-owner warning, and the kennel applicant found by search."""

import re
from datetime import date
from urllib.parse import quote

import pytest
from django.urls import reverse

from licensing.models import KennelLicense, Owner
from licensing.services.application_rules import application_requirements
from tests.licensing.factories import AnimalFactory, OwnerFactory

pytestmark = pytest.mark.clock("2026-03-02T10:00")


def _counter(owner):
    return reverse("licensing:counter_animal", args=[owner.pk])


def _input(page: str, name: str) -> str:
    """The HTML tag of the input or select named ``name``."""
    return re.search(rf'<(?:input|select)[^>]*name="{name}"[^>]*>', page).group(0)


def _post_animal(client, owner, **fields):
    data = {"action": "animal", "animal-species": "dog", "animal-name": "Pip"}
    data.update({f"animal-{k}": v for k, v in fields.items()})
    return client.post(_counter(owner), data)


# --- One answer: what the city's application requires ----------------------------------


def test_north_branch_lists_the_application_fields_with_its_section(north_branch, glencoe):
    nb = application_requirements(north_branch, on=date(2026, 3, 2))
    assert set(nb.keys) >= {"name", "breed", "color", "age", "sex"}
    assert nb.citation == "North Branch Sec. 6-61"
    assert {"breed", "color", "date_of_birth", "sex", "name"} <= set(nb.form_fields())
    assert application_requirements(glencoe, on=date(2026, 3, 2)).keys == ()


def test_north_branch_counter_form_marks_the_application_fields_required(
    client_as, clerk, north_branch
):
    owner = OwnerFactory(jurisdiction=north_branch)
    page = client_as(clerk).get(_counter(owner)).content.decode()
    for name in ("breed", "color", "date_of_birth", "sex"):
        assert "required" in _input(page, f"animal-{name}"), name
    assert "required" not in _input(page, "animal-acquired_on")  # not on the application
    assert "Required on the application (North Branch Sec. 6-61)." in page
    assert 'class="asteriskField"' in page  # the label says so too


def test_north_branch_refuses_a_new_animal_without_breed_next_to_the_field(
    client_as, clerk, north_branch
):
    owner = OwnerFactory(jurisdiction=north_branch)
    resp = _post_animal(
        client_as(clerk), owner, sex="female", color="Black", date_of_birth="2024-04-01"
    )
    page = resp.content.decode()
    assert resp.status_code == 200 and not owner.animals.exists()
    assert "The application must state the breed (North Branch Sec. 6-61)." in page
    assert 'id="error_1_id_animal-breed"' in page  # crispy's message under the field
    assert 'value="Black"' in page  # what was typed is kept


def test_north_branch_unknown_sex_does_not_state_the_sex(client_as, clerk, north_branch):
    owner = OwnerFactory(jurisdiction=north_branch)
    resp = _post_animal(
        client_as(clerk),
        owner,
        sex="unknown",
        breed="Beagle",
        color="Black",
        date_of_birth="2024-04-01",
    )
    assert "The application must state the sex" in resp.content.decode()
    assert not owner.animals.exists()


def test_glencoe_keeps_those_fields_optional(client_as, glencoe_clerk, glencoe):
    owner = OwnerFactory(jurisdiction=glencoe)
    client = client_as(glencoe_clerk)
    page = client.get(_counter(owner)).content.decode()
    assert "required" not in _input(page, "animal-breed")
    assert "Required on the application" not in page
    resp = _post_animal(client, owner, sex="unknown")
    assert resp.status_code == 302 and owner.animals.get().breed == ""


def test_the_registry_animal_form_asks_the_same(client_as, clerk, north_branch):
    """The one service answers every entry form, not only the counter's."""
    owner = OwnerFactory(jurisdiction=north_branch)
    resp = client_as(clerk).post(
        reverse("licensing:animal_create", args=[owner.pk]),
        {"species": "dog", "name": "Pip", "sex": "male", "color": "Red"},
    )
    page = resp.content.decode()
    assert resp.status_code == 200 and not owner.animals.exists()
    assert "The application must state the breed (North Branch Sec. 6-61)." in page


# --- Edit the animal from the checks and come back -------------------------------------


def test_the_checks_link_to_the_animal_form_and_saving_returns_to_them(
    client_as, clerk, north_branch
):
    dog = AnimalFactory(jurisdiction=north_branch, breed="")
    client = client_as(clerk)
    checks = f"{_counter(dog.owner)}?animal={dog.pk}"
    page = client.get(checks).content.decode()
    edit = reverse("licensing:animal_edit", args=[dog.pk]) + "?next=" + quote(checks, safe="/")
    assert f'href="{edit}"' in page.replace("&amp;", "&")
    assert "The application must also state the breed" in page  # the refusal to fix
    form = client.get(edit).content.decode()
    assert f'name="next" value="{checks}"' in form.replace("&amp;", "&")
    resp = client.post(
        edit,
        {
            "species": "dog",
            "name": dog.name,
            "breed": "Beagle",
            "color": "Tan",
            "sex": "female",
            "date_of_birth": "2022-05-01",
            "acquired_on": "2022-07-15",
            "next": checks,
        },
    )
    assert resp.status_code == 302 and resp.url == checks
    dog.refresh_from_db()
    assert dog.breed == "Beagle"
    assert "The application states everything required." in client.get(checks).content.decode()


@pytest.mark.parametrize(
    "unsafe", ["https://evil.example/", "//evil.example/x", "javascript:alert(1)", "/\\evil"]
)
def test_an_unsafe_next_is_ignored(client_as, clerk, north_branch, unsafe):
    dog = AnimalFactory(jurisdiction=north_branch)
    resp = client_as(clerk).post(
        reverse("licensing:animal_edit", args=[dog.pk]) + "?next=" + quote(unsafe, safe=""),
        {
            "species": "dog",
            "name": dog.name,
            "breed": "Beagle",
            "color": "Tan",
            "sex": "female",
            "date_of_birth": "2022-05-01",
            "next": unsafe,
        },
    )
    assert resp.status_code == 302 and resp.url == dog.get_absolute_url()


def test_a_bad_edit_stays_on_the_form_with_the_way_back(client_as, clerk, north_branch):
    dog = AnimalFactory(jurisdiction=north_branch)
    checks = f"{_counter(dog.owner)}?animal={dog.pk}"
    resp = client_as(clerk).post(
        reverse("licensing:animal_edit", args=[dog.pk]),
        {"species": "dog", "name": dog.name, "sex": "female", "next": checks},
    )
    page = resp.content.decode().replace("&amp;", "&")
    assert resp.status_code == 200 and "The application must state the breed" in page
    assert f'name="next" value="{checks}"' in page


# --- Duplicate owner warning -------------------------------------------------------------


NEW_OWNER = {
    "first_name": "dana ",
    "last_name": "BERG",
    "address_line": "12 Elm St.",
    "city": "North Branch",
    "postal_code": "55056",
    "is_resident": "on",
}


def test_a_matching_owner_is_offered_instead_of_a_duplicate(client_as, clerk, north_branch):
    existing = OwnerFactory(
        jurisdiction=north_branch, first_name="Dana", last_name="Berg", address_line="12 Elm Street"
    )
    client = client_as(clerk)
    resp = client.post(reverse("licensing:counter_start"), NEW_OWNER)
    page = resp.content.decode()
    assert resp.status_code == 200 and Owner.objects.count() == 1
    assert "already registered in this city" in page
    assert f'href="{_counter(existing)}">Use this owner</a>' in page
    assert 'name="confirm_new" value="1"' in page and 'value="BERG"' in page
    # The clerk confirms: a namesake at the same address gets their own record.
    resp = client.post(reverse("licensing:counter_start"), {**NEW_OWNER, "confirm_new": "1"})
    assert resp.status_code == 302 and Owner.objects.count() == 2


def test_the_registry_owner_form_warns_too_and_offers_the_record_to_the_transfer(
    client_as, clerk, north_branch
):
    existing = OwnerFactory(
        jurisdiction=north_branch, first_name="Dana", last_name="Berg", address_line="12 Elm Street"
    )
    back = "/licenses/7/transfer/"
    url = reverse("licensing:owner_create") + "?next=" + back
    data = {**NEW_OWNER, "kind": "person", "state": "MN"}
    client = client_as(clerk)
    page = client.post(url, data).content.decode()
    assert Owner.objects.count() == 1
    assert f'href="{back}?pick={existing.pk}">Use this owner</a>' in page
    resp = client.post(url, {**data, "confirm_new": "1"})
    assert resp.status_code == 302 and resp.url.startswith(back + "?pick=")
    assert Owner.objects.count() == 2


def test_no_warning_for_another_address_or_another_city(client_as, administrator, glencoe):
    OwnerFactory(
        jurisdiction=glencoe, first_name="Dana", last_name="Berg", address_line="12 Elm St"
    )
    client = client_as(administrator)
    nb = glencoe.__class__.objects.get(slug="north-branch")
    OwnerFactory(jurisdiction=nb, first_name="Dana", last_name="Berg", address_line="14 Elm St")
    resp = client.post(reverse("licensing:counter_start"), {**NEW_OWNER, "jurisdiction": nb.pk})
    assert resp.status_code == 302 and Owner.objects.count() == 3


def test_a_merged_record_is_not_offered(client_as, clerk, north_branch):
    survivor = OwnerFactory(jurisdiction=north_branch)
    OwnerFactory(
        jurisdiction=north_branch,
        first_name="Dana",
        last_name="Berg",
        address_line="12 Elm Street",
        merged_into=survivor,
    )
    resp = client_as(clerk).post(reverse("licensing:counter_start"), NEW_OWNER)
    assert resp.status_code == 302


# --- Kennel applicant by search ------------------------------------------------------------


def test_the_kennel_application_lists_no_owner_until_searched(client_as, clerk, north_branch):
    OwnerFactory.create_batch(3, jurisdiction=north_branch)
    page = client_as(clerk).get(reverse("licensing:kennel_apply")).content.decode()
    assert 'name="owner"' not in page and "Search for the applicant above." in page


def test_the_kennel_search_offers_only_the_clerks_city(client_as, clerk, north_branch, glencoe):
    mine = OwnerFactory(jurisdiction=north_branch, last_name="Zzkennelman")
    theirs = OwnerFactory(jurisdiction=glencoe, last_name="Zzkennelman")
    client = client_as(clerk)
    page = client.get(reverse("licensing:kennel_apply"), {"q": "zzkennelman"}).content.decode()
    assert f'value="{mine.pk}"' in page and f'value="{theirs.pk}"' not in page
    resp = client.post(
        reverse("licensing:kennel_apply") + "?q=zzkennelman",
        {"owner": mine.pk, "business_nature": "Boarding", "dog_count": 5, "cat_count": 0},
    )
    assert resp.status_code == 302 and KennelLicense.objects.get().owner == mine


def test_the_kennel_search_answers_htmx_with_the_choices(client_as, clerk, north_branch):
    mine = OwnerFactory(jurisdiction=north_branch, last_name="Zzkennelman")
    page = (
        client_as(clerk)
        .get(reverse("licensing:kennel_apply"), {"q": "zzkennel"}, HTTP_HX_REQUEST="true")
        .content.decode()
    )
    assert 'id="owner-choices"' in page and f'value="{mine.pk}"' in page


def test_new_pages_make_bounded_queries(
    client_as, clerk, north_branch, django_assert_max_num_queries
):
    OwnerFactory.create_batch(60, jurisdiction=north_branch, last_name="Zzmany")
    client = client_as(clerk)
    kennel = reverse("licensing:kennel_apply")
    client.get(kennel)  # warm the menu's cached rule read
    with django_assert_max_num_queries(10):
        assert client.get(kennel, {"q": "zzmany"}).status_code == 200
