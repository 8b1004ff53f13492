"""A complaint whose outcome is a citation writes the citation from its page: the form
starts from the complaint's animal, time and place, the citation records the complaint
as its source, and the complaint lists it (RES-04, REC-14)."""

import re

import pytest
from django.urls import reverse

from citations.models import Citation
from complaints.models import Complaint, Outcome
from complaints.services import record_outcome
from tests.complaints.helpers import at, take_complaint
from tests.impound.helpers import owned_dog

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-06-15T22:00")]


@pytest.fixture
def cited_complaint(north_branch, clerk, officer):
    dog = owned_dog(north_branch, name="Rufus")
    complaint = take_complaint(
        north_branch,
        clerk,
        kind="running_at_large",
        when=at(2026, 6, 15, 8, 30),
        animal=dog,
        owner=dog.owner,
        address_line="40 Main Street",
    )
    record_outcome(complaint=complaint, actor=officer, outcome=Outcome.CITATION)
    return Complaint.objects.get(pk=complaint.pk)


def test_the_officer_writes_the_citation_from_the_complaint(client_as, officer, cited_complaint):
    client = client_as(officer)
    source = f"complaints.complaint:{cited_complaint.pk}"
    page = client.get(reverse("complaints:detail", args=[cited_complaint.pk])).content.decode()
    assert (
        "Write the citation" in page
        and f"source=complaints.complaint%3A{cited_complaint.pk}" in page
    )

    form = client.get(reverse("citations:issue"), {"source": source}).content.decode()
    assert str(cited_complaint) in form  # "Written from Complaint N: ..."
    assert 'value="40 Main Street"' in form  # where it happened
    city = re.search(rf'<option value="{cited_complaint.jurisdiction_id}"[^>]*>', form)
    assert city and "selected" in city.group(0)  # the complaint's city
    assert 'value="2026-06-15T08:30' in form or 'value="2026-06-15 08:30' in form
    picked = re.search(
        rf'<input[^>]*name="animal"[^>]*value="{cited_complaint.animal_id}"[^>]*>', form
    )
    assert picked and "checked" in picked.group(0)  # the complaint's dog

    response = client.post(
        reverse("citations:issue"),
        {
            "source": source,
            "jurisdiction": cited_complaint.jurisdiction_id,
            "violation_code": "at_large",
            "animal": cited_complaint.animal_id,
            "violated_at": "2026-06-15T08:30",
            "location": "40 Main Street",
            "court": "Chisago County District Court",
            "appearance_on": "2026-07-09",
            "charge_class": "petty_misdemeanor",
            "class_reason": "",
        },
    )
    assert response.status_code == 302, response.context["form"].errors
    citation = Citation.objects.get()
    assert response.status_code == 302 and response.url == citation.get_absolute_url()
    assert citation.source == cited_complaint
    assert citation.source_label == str(cited_complaint)

    page = client.get(reverse("complaints:detail", args=[cited_complaint.pk])).content.decode()
    assert citation.get_absolute_url() in page and "Write another citation" in page


def test_a_complaint_without_a_citation_outcome_offers_no_citation(
    client_as, officer, north_branch, clerk
):
    complaint = take_complaint(north_branch, clerk, kind="running_at_large")
    page = client_as(officer).get(reverse("complaints:detail", args=[complaint.pk]))
    assert "Write the citation" not in page.content.decode()


@pytest.mark.parametrize(
    "source",
    ["licensing.owner:1", "complaints.complaint:x", "complaints.complaint:999999", "nonsense"],
)
def test_a_source_that_is_not_a_complaint_of_the_users_cities_is_404(
    client_as, officer, cited_complaint, source
):
    response = client_as(officer).get(reverse("citations:issue"), {"source": source})
    assert response.status_code == 404


def test_another_citys_officer_cannot_write_from_the_complaint(client_as, glencoe, cited_complaint):
    from tests.conftest import make_user

    glencoe_officer = make_user("gl-officer-cite", "officer", [glencoe])
    response = client_as(glencoe_officer).get(
        reverse("citations:issue"), {"source": f"complaints.complaint:{cited_complaint.pk}"}
    )
    assert response.status_code == 404
