"""Citation pages: roles (a resident gets 403), another city's citation (404), issuing
through the page with the proposal shown, bad input next to its field, the list."""

from datetime import date

import pytest
from django.urls import reverse

from citations.models import Citation
from tests.conftest import make_user
from tests.impound.helpers import owned_dog

from .helpers import NOW, cite

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-06-15T10:00")]


@pytest.fixture
def nb_citation(north_branch, officer):
    return cite(north_branch, officer, owned_dog(north_branch, name="Rufus"))


@pytest.fixture
def gl_citation(glencoe, officer):
    return cite(glencoe, officer, owned_dog(glencoe), "barking")


def _urls(citation):
    return [
        reverse("citations:list"),
        reverse("citations:issue"),
        reverse("citations:detail", args=[citation.pk]),
    ]


def test_a_resident_is_refused_every_page(client_as, resident, nb_citation):
    client = client_as(resident)
    for url in _urls(nb_citation):
        assert client.get(url).status_code == 403, url
    status_url = reverse("citations:status", args=[nb_citation.pk])
    assert client.post(status_url, {"status": "paid", "on": "2026-06-15"}).status_code == 403
    nb_citation.refresh_from_db()
    assert nb_citation.status == "issued"


def test_another_citys_citation_is_not_found(client_as, glencoe_clerk, nb_citation, gl_citation):
    client = client_as(glencoe_clerk)
    assert client.get(reverse("citations:detail", args=[nb_citation.pk])).status_code == 404
    response = client.post(
        reverse("citations:status", args=[nb_citation.pk]), {"status": "paid", "on": "2026-06-15"}
    )
    assert response.status_code == 404
    assert client.get(reverse("citations:detail", args=[gl_citation.pk])).status_code == 200
    listed = client.get(reverse("citations:list")).content.decode()
    assert f">{gl_citation.number}<" in listed and nb_citation.defendant_name not in listed


def _form(city, pet, **extra):
    data = {
        "violation_code": "at_large",
        "animal": pet.pk,
        "violated_at": "2026-06-15T08:30",
        "location": "Central Park, off leash",
        "court": "Chisago County District Court",
        "appearance_on": "2026-07-09",
        "charge_class": "petty_misdemeanor",
        "class_reason": "",
    }
    if city is not None:
        data["jurisdiction"] = city.pk
    data.update(extra)
    return data


def test_the_officer_sees_the_proposal_then_issues(client_as, officer, north_branch):
    dog = owned_dog(north_branch, name="Rufus")
    client = client_as(officer)
    proposed = client.post(
        reverse("citations:issue"), _form(north_branch, dog, charge_class="", propose="1")
    )
    page = proposed.content.decode()
    assert proposed.status_code == 200 and not Citation.objects.exists()
    assert "Proposed: Petty misdemeanor (North Branch Sec. 6-27)" in page
    assert "Prior adjudicated violations of the dog: 0" in page
    assert 'value="petty_misdemeanor" selected' in page
    response = client.post(reverse("citations:issue"), _form(north_branch, dog))
    citation = Citation.objects.get()
    assert response.status_code == 302 and response.url == citation.get_absolute_url()
    assert (citation.number, citation.owner, citation.animal) == (1, dog.owner, dog)
    detail = client.get(citation.get_absolute_url()).content.decode()
    assert "Petty misdemeanor" in detail and "North Branch Sec. 6-66; Sec. 6-69" in detail
    assert reverse("notices:document_pdf", args=[citation_document_pk(citation)]) in detail


def citation_document_pk(citation):
    from citations.services.issuance import citation_document

    return citation_document(citation).pk


@pytest.mark.parametrize(
    "field,value",
    [
        ("violation_code", "no_such_code"),
        ("violated_at", "2026-06-16T08:30"),  # the future
        ("violated_at", "yesterday"),
        ("location", ""),
        ("court", ""),
        ("appearance_on", "2026-06-15"),  # the day of issue
        ("appearance_on", "9999-12-31"),
        ("charge_class", "felony"),
        ("class_reason", ""),  # another class than proposed, no reason
        ("animal", "999999"),
    ],
)
def test_bad_input_is_shown_next_to_its_field_and_nothing_is_lost(
    client_as, officer, north_branch, field, value
):
    dog = owned_dog(north_branch)
    data = _form(north_branch, dog, **{field: value})
    if field == "class_reason":
        data["charge_class"] = "misdemeanor"
    response = client_as(officer).post(reverse("citations:issue"), data)
    assert response.status_code == 200
    form = response.context["form"]
    assert field in form.errors, form.errors
    assert response.context["form"].data["location"] == data["location"]
    assert not Citation.objects.exists()


def test_the_clerk_records_a_status_and_it_shows_in_the_history(client_as, clerk, nb_citation):
    client = client_as(clerk)
    url = reverse("citations:status", args=[nb_citation.pk])
    bad = client.post(url, {"status": "issued", "on": "2026-06-15"})
    assert bad.status_code == 200 and "status" in bad.context["form"].errors
    future = client.post(url, {"status": "paid", "on": "2026-07-01"})
    assert future.status_code == 200 and "on" in future.context["form"].errors
    done = client.post(url, {"status": "paid", "on": "2026-06-15", "note": "Paid at the counter."})
    assert done.status_code == 302
    nb_citation.refresh_from_db()
    assert (nb_citation.status, nb_citation.status_changed_by) == ("paid", clerk)
    page = client.get(nb_citation.get_absolute_url()).content.decode()
    assert "Paid at the counter." in page and "This citation has its outcome." in page


def test_the_list_filters_by_status_and_class(client_as, administrator, nb_citation, gl_citation):
    from citations.services.status import citation_status_change

    citation_status_change(
        citation=gl_citation, status="contested", on=date(2026, 6, 15), actor=administrator
    )
    client = client_as(administrator)
    url = reverse("citations:list")

    def numbers(query):
        return {
            (c.jurisdiction.slug, c.number) for c in client.get(url + query).context["citations"]
        }

    both = {(nb_citation.jurisdiction.slug, 1), (gl_citation.jurisdiction.slug, 1)}
    assert numbers("") == both
    assert numbers("?status=contested") == {(gl_citation.jurisdiction.slug, 1)}
    assert numbers("?charge_class=petty_misdemeanor") == both
    assert numbers("?charge_class=misdemeanor") == set()
    assert numbers("?status=bogus").issubset(both)  # an unknown choice is not a 500


def test_a_staff_member_of_no_city_gets_404_on_the_issue_page(client):
    nobody = make_user("nina", "officer", [])
    client.force_login(nobody)
    assert client.get(reverse("citations:issue")).status_code == 404


def test_the_menu_offers_citations_to_staff_only(client_as, clerk, resident):
    assert (
        reverse("citations:list")
        in client_as(clerk).get(reverse("accounts:staff_home")).content.decode()
    )
    assert NOW  # the clock marker is in force
