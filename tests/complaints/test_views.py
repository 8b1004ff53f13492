"""Complaint pages: roles (403), cities (404), intake with repeat addresses, bad input,
facts and the reading, the outcome, the sections on the animal's and owner's pages."""

import pytest
from django.urls import reverse

from complaints.models import Complaint, Outcome
from tests.complaints.helpers import take_complaint
from tests.licensing.factories import AnimalFactory

pytestmark = pytest.mark.clock("2026-06-15T22:00")


def _intake_data(**extra):
    data = {
        "kind": "barking",
        "channel": "counter",
        "address_line": "12 North Elm Street",
        "unit": "",
        "occurred_at": "2026-06-15T21:00",
        "received_at": "2026-06-15T21:05",
        "complainant_name": "Nora Neighbour",
        "complainant_phone": "651-555-0100",
        "narrative": "Barking since nine.",
    }
    data.update(extra)
    return data


@pytest.fixture
def nb_complaint(north_branch, clerk):
    return take_complaint(north_branch, clerk, kind="running_at_large")


def test_residents_never_reach_the_complaint_pages(client, resident, nb_complaint):
    client.force_login(resident)
    for url in (
        reverse("complaints:list"),
        reverse("complaints:intake"),
        reverse("complaints:detail", args=[nb_complaint.pk]),
        reverse("complaints:facts", args=[nb_complaint.pk]),
        reverse("complaints:outcome", args=[nb_complaint.pk]),
    ):
        assert client.get(url).status_code == 403, url


def test_anonymous_visitors_are_sent_to_log_in(client, nb_complaint):
    response = client.get(reverse("complaints:detail", args=[nb_complaint.pk]))
    assert response.status_code == 302 and "login" in response.url


def test_the_clerk_takes_complaints_but_records_no_facts_or_outcome(client, clerk, nb_complaint):
    client.force_login(clerk)
    assert client.get(reverse("complaints:intake")).status_code == 200
    for name in ("complaints:facts", "complaints:entry", "complaints:outcome"):
        assert client.get(reverse(name, args=[nb_complaint.pk])).status_code == 403, name


def test_another_citys_complaint_is_404(client, glencoe_clerk, nb_complaint):
    client.force_login(glencoe_clerk)
    assert client.get(reverse("complaints:detail", args=[nb_complaint.pk])).status_code == 404
    assert nb_complaint.address_line not in client.get(reverse("complaints:list")).content.decode()


def test_the_clerk_records_a_complaint_at_the_counter(client, clerk, north_branch):
    client.force_login(clerk)
    response = client.post(reverse("complaints:intake"), _intake_data())
    complaint = Complaint.objects.get()
    assert response.status_code == 302 and response.url == complaint.get_absolute_url()
    assert complaint.jurisdiction == north_branch and complaint.taken_by == clerk
    page = client.get(response.url).content.decode()
    assert "Barking since nine." in page and "Nora Neighbour" in page


def test_checking_the_address_shows_earlier_complaints_and_the_registrys_dogs(
    client, clerk, north_branch
):
    earlier = take_complaint(north_branch, clerk, kind="litter", address_line="12 N. Elm St.")
    dog = AnimalFactory(
        jurisdiction=north_branch, owner__address_line="12 North Elm St", name="Zeus"
    )
    client.force_login(clerk)
    data = _intake_data(check_address="1", address_line="12 north elm street")
    page = client.post(reverse("complaints:intake"), data).content.decode()
    assert reverse("complaints:detail", args=[earlier.pk]) in page
    assert "Litter (feces)" in page and "Jun 15, 2026" in page
    assert "Zeus" in page and dog.owner.name in page
    assert Complaint.objects.count() == 1  # checking records nothing
    response = client.post(reverse("complaints:intake"), _intake_data(animal=dog.pk))
    assert Complaint.objects.latest("pk").animal == dog and response.status_code == 302
    assert Complaint.objects.latest("pk").owner == dog.owner
    response = client.post(reverse("complaints:intake"), _intake_data(owner=dog.owner.pk))
    latest = Complaint.objects.latest("pk")
    assert latest.owner == dog.owner and latest.animal is None


@pytest.mark.parametrize(
    "bad, field",
    [
        ({"narrative": ""}, "narrative"),
        ({"occurred_at": "yesterday"}, "occurred_at"),
        ({"kind": "arson"}, "kind"),
        ({"complainant_name": "", "complainant_phone": ""}, "complainant_name"),
        ({"received_at": "2026-06-15T23:30"}, "received_at"),  # in the future
        ({"animal": "99999999"}, "animal"),
        ({"owner": "x"}, "owner"),
    ],
)
def test_bad_input_is_shown_next_to_its_field_and_nothing_is_lost(client, clerk, bad, field):
    client.force_login(clerk)
    response = client.post(reverse("complaints:intake"), _intake_data(**bad))
    assert response.status_code == 200
    form = response.context["form"]
    assert field in form.errors, form.errors
    assert "12 North Elm Street" in response.content.decode()
    assert Complaint.objects.count() == 0


def test_the_officer_records_facts_and_sees_the_reading_with_its_section(
    client, officer, nb_complaint
):
    client.force_login(officer)
    url = reverse("complaints:facts", args=[nb_complaint.pk])
    assert client.get(url).status_code == 200
    response = client.post(
        url, {"location": "park", "restraint": "leash_held", "leash_length_ft": "10"}
    )
    assert response.status_code == 302
    page = client.get(response.url).content.decode()
    assert "The facts meet the ordinance" in page
    assert "North Branch Sec. 6-28" in page and "longer than 6 feet" in page


def test_facts_with_bad_input_come_back_with_the_message(client, officer, glencoe):
    complaint = take_complaint(glencoe, officer)
    client.force_login(officer)
    url = reverse("complaints:facts", args=[complaint.pk])
    data = {
        "started_at": "2026-06-15T21:00",
        "ended_at": "2026-06-15T20:00",
        "pattern": "continuous",
        "distance_ft": "-5",
    }
    response = client.post(url, data)
    assert response.status_code == 200 and "distance_ft" in response.context["form"].errors
    data["distance_ft"] = "120"
    response = client.post(url, data)
    assert "ended_at" in response.context["form"].errors  # the service's refusal


def test_a_complaint_kind_without_facts_has_no_facts_page(client, officer, north_branch):
    complaint = take_complaint(north_branch, officer, kind="abandonment")
    client.force_login(officer)
    assert client.get(reverse("complaints:facts", args=[complaint.pk])).status_code == 404


def test_glencoe_outcome_without_impoundment_asks_for_a_reason_on_the_page(
    client, officer, glencoe
):
    complaint = take_complaint(glencoe, officer, kind="running_at_large")
    client.force_login(officer)
    url = reverse("complaints:outcome", args=[complaint.pk])
    page = client.get(url).content.decode()
    assert "Glencoe 701 Subd. 13" in page
    response = client.post(url, {"outcome": "warning"})
    assert response.status_code == 200
    assert "Glencoe 701 Subd. 13" in str(response.context["form"].errors["reason"])
    response = client.post(url, {"outcome": "warning", "reason": "Owner took the dog in."})
    assert response.status_code == 302
    complaint.refresh_from_db()
    assert complaint.outcome == Outcome.WARNING


def test_impoundment_on_the_page_needs_pound_and_ground(client, officer, nb_complaint):
    client.force_login(officer)
    url = reverse("complaints:outcome", args=[nb_complaint.pk])
    response = client.post(url, {"outcome": "impoundment"})
    errors = response.context["form"].errors
    assert response.status_code == 200 and "pound" in errors and "ground" in errors


def test_the_list_filters_by_kind_and_status(client, clerk, north_branch):
    take_complaint(north_branch, clerk, kind="barking", address_line="1 Bark Lane")
    take_complaint(north_branch, clerk, kind="litter", address_line="2 Litter Lane")
    client.force_login(clerk)
    page = client.get(reverse("complaints:list"), {"kind": "litter"}).content.decode()
    assert "2 Litter Lane" in page and "1 Bark Lane" not in page
    page = client.get(reverse("complaints:list"), {"status": "closed"}).content.decode()
    assert "No complaints match." in page
    assert client.get(reverse("complaints:list"), {"kind": "nonsense"}).status_code == 200


def test_complaints_show_on_the_owners_page_and_the_animals_page_links_them(
    client, clerk, north_branch
):
    dog = AnimalFactory(jurisdiction=north_branch)
    other = take_complaint(north_branch, clerk, address_line="99 Other Road")
    complaint = take_complaint(north_branch, clerk, animal=dog)
    client.force_login(clerk)
    link = reverse("complaints:detail", args=[complaint.pk])
    assert link in client.get(dog.owner.get_absolute_url()).content.decode()
    page = client.get(dog.get_absolute_url()).content.decode()
    listed = f"{reverse('complaints:list')}?animal={dog.pk}"
    assert listed in page
    page = client.get(listed).content.decode()
    assert link in page and reverse("complaints:detail", args=[other.pk]) not in page


def test_checking_the_address_shows_no_other_citys_complaints(
    client, clerk, glencoe, glencoe_clerk
):
    gl = take_complaint(glencoe, glencoe_clerk, address_line="12 North Elm Street")
    client.force_login(clerk)
    data = _intake_data(check_address="1")
    page = client.post(reverse("complaints:intake"), data).content.decode()
    assert reverse("complaints:detail", args=[gl.pk]) not in page
    client.force_login(glencoe_clerk)
    page = client.post(reverse("complaints:intake"), data).content.decode()
    assert reverse("complaints:detail", args=[gl.pk]) in page
