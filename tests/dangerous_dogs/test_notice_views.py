"""The notice stage's pages: who may act, bad input next to the field, the case page's
sections within the query budget (DD-03, DD-04, DD-09, DD-26, DD-27, DD-29)."""

from datetime import date, timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from base.roles import OFFICER, RESIDENT
from dangerous_dogs.models import CaseStatus, DesignationCase
from tests.conftest import make_user
from tests.impound.helpers import owned_dog

from .helpers import make_case

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-11-02T10:00")]
TODAY = date(2026, 11, 2)


def form_data(**over):
    data = {
        "incident_kind": "bite_human",
        "occurred_at": "2026-10-30T17:30",
        "location": "Greeley Ave and 11th St",
        "off_owner_property": "on",
        "victim": "Dana Reyes",
        "injuries": "Stitches",
        "criterion": "substantial_harm",
        "designation": "dangerous",
        "exemption_findings": "On the public sidewalk; no provocation; no crime.",
        "investigated_by_name": "Olivia Officer",
        "investigated_on": "2026-11-01",
    }
    data.update(over)
    return data


def open_url(animal):
    return reverse("dangerous_dogs:case_open", args=[animal.pk])


def test_an_officer_opens_a_case_from_the_dogs_page(client_as, officer, glencoe):
    dog = owned_dog(glencoe, name="Rex")
    client = client_as(officer)
    animal_page = client.get(dog.get_absolute_url()).content.decode()
    assert open_url(dog) in animal_page
    assert client.get(open_url(dog)).status_code == 200
    response = client.post(open_url(dog), form_data())
    case = DesignationCase.objects.get()
    assert response.status_code == 302 and response.url == case.get_absolute_url()
    assert case.status == CaseStatus.DETERMINED and case.animal == dog


def test_roles_and_cities(client_as, officer, glencoe, north_branch, glencoe_clerk):
    dog = owned_dog(glencoe)
    assert client_as(glencoe_clerk).get(open_url(dog)).status_code == 403
    resident = make_user("rita", RESIDENT, [glencoe])
    assert client_as(resident).get(open_url(dog)).status_code == 403
    nb_officer = make_user("nate", OFFICER, [north_branch])
    assert client_as(nb_officer).get(open_url(dog)).status_code == 404
    case = make_case(glencoe, officer)
    url = reverse("dangerous_dogs:notice_issue", args=[case.pk])
    assert client_as(glencoe_clerk).post(url).status_code == 403
    assert client_as(nb_officer).post(url).status_code == 404
    assert client_as(officer).get(url).status_code == 405


def test_north_branch_and_a_police_dog_are_refused_with_the_section(
    client_as, officer, glencoe, north_branch
):
    client = client_as(officer)
    page = client.get(open_url(owned_dog(north_branch))).content.decode()
    assert "no procedure to declare a dog dangerous" in page and "Sec. 6-73" in page
    page = client.get(open_url(owned_dog(glencoe, is_law_enforcement=True))).content.decode()
    assert "Glencoe 701 Subd. 15(M)" in page
    response = client.post(open_url(owned_dog(north_branch)), form_data())
    assert response.status_code == 400 and not DesignationCase.objects.exists()


def test_bad_input_is_shown_next_to_the_field_and_kept(client_as, officer, glencoe):
    dog = owned_dog(glencoe)
    client = client_as(officer)
    response = client.post(
        open_url(dog), form_data(criterion="chased", exemption_findings="", victim="Dana R.")
    )
    assert response.status_code == 400
    form = response.context["form"]
    assert "exemption_findings" in form.errors
    response = client.post(open_url(dog), form_data(criterion="chased"))
    form = response.context["form"]
    assert "potentially dangerous dog" in form.errors["designation"][0]
    assert 'value="Greeley Ave and 11th St"' in response.content.decode()
    assert not DesignationCase.objects.exists()


def test_an_upload_of_the_wrong_type_is_refused(client_as, officer, glencoe):
    dog = owned_dog(glencoe)
    upload = SimpleUploadedFile("x.exe", b"MZ\x90\x00binary", content_type="application/pdf")
    response = client_as(officer).post(open_url(dog), form_data(evidence_file=upload))
    assert response.status_code == 400
    assert "evidence_file" in response.context["form"].errors


def test_the_exemption_stops_the_notice_and_the_page_says_why(client_as, officer, glencoe):
    dog = owned_dog(glencoe)
    client = client_as(officer)
    client.post(open_url(dog), form_data(exempt_trespass="on"))
    case = DesignationCase.objects.get()
    assert case.status == CaseStatus.EXEMPT
    page = client.get(case.get_absolute_url()).content.decode()
    assert "No notice of intent can be issued" in page and "Glencoe 701 Subd. 15(L)" in page
    assert "Issue the notice of intent" not in page
    response = client.post(reverse("dangerous_dogs:notice_issue", args=[case.pk]))
    assert response.status_code == 400
    assert "No notice of intent can be issued" in response.content.decode()


def test_issue_serve_and_the_clock_on_the_case_page(client_as, officer, glencoe):
    case = make_case(glencoe, officer)
    client = client_as(officer)
    page = client.get(case.get_absolute_url()).content.decode()
    assert "Issue the notice of intent" in page
    client.post(reverse("dangerous_dogs:notice_issue", args=[case.pk]))
    case.refresh_from_db()
    assert case.status == CaseStatus.NOTICE_ISSUED
    page = client.get(case.get_absolute_url()).content.decode()
    assert "No clock runs until the owner's receipt is recorded" in page
    assert reverse("notices:document_pdf", args=[case.notice_id]) in page
    url = reverse("dangerous_dogs:notice_served", args=[case.pk])
    bad = client.post(
        url, {"method": "personal", "served_at": "2026-11-02T10:00", "received_on": "2026-11-03"}
    )
    assert bad.status_code == 400
    assert "The date cannot be in the future" in bad.content.decode()
    ok = client.post(
        url, {"method": "personal", "served_at": "2026-11-02T10:00", "received_on": "2026-11-02"}
    )
    assert ok.status_code == 302
    page = client.get(case.get_absolute_url()).content.decode()
    assert "Mon, Nov 16, 2026" in page and "Glencoe 701 Subd. 15(B), (J)" in page
    assert "14 days left" in page


def test_a_contest_in_time_and_a_late_one(client_as, officer, glencoe):
    client = client_as(officer)
    in_time = make_case(
        glencoe,
        officer,
        status=CaseStatus.NOTICE_SERVED,
        notice_received_on=date(2026, 10, 25),
        contest_deadline=date(2026, 11, 8),
        contest_citation="Glencoe 701 Subd. 15(B), (J)",
    )
    url = reverse("dangerous_dogs:contest_received", args=[in_time.pk])
    assert (
        client.post(
            url, {"received_on": "2026-11-02", "delivered_to": "officer", "in_writing": "on"}
        ).status_code
        == 302
    )
    in_time.refresh_from_db()
    assert in_time.status == CaseStatus.CONTESTED
    late = make_case(
        glencoe,
        officer,
        status=CaseStatus.DEFAULTED,
        notice_received_on=date(2026, 10, 1),
        contest_deadline=date(2026, 10, 15),
        contest_citation="Glencoe 701 Subd. 15(B), (J)",
        defaulted_on=date(2026, 10, 16),
    )
    url = reverse("dangerous_dogs:contest_received", args=[late.pk])
    client.post(url, {"received_on": "2026-11-02", "delivered_to": "police", "in_writing": "on"})
    page = client.get(late.get_absolute_url()).content.decode()
    assert "A late request for a hearing: a person decides" in page
    assert "Decide the late request" in page
    assert "no appeal to the City Council from a default" in page
    response = client.post(reverse("dangerous_dogs:declaration_issue", args=[late.pk]))
    assert response.status_code == 400 and "decide it first" in response.content.decode()
    decide = reverse("dangerous_dogs:contest_late_decide", args=[late.pk])
    bad = client.post(
        decide,
        {
            "accept": "1",
            "decided_by_name": "",
            "capacity": "",
            "decided_on": "2026-11-02",
            "reasons": "",
        },
    )
    assert bad.status_code == 400 and "This field is required" in bad.content.decode()
    client.post(
        decide,
        {
            "accept": "0",
            "decided_by_name": "Olivia Officer",
            "capacity": "Animal control officer",
            "decided_on": "2026-11-02",
            "reasons": "No reason for the delay.",
        },
    )
    late.refresh_from_db()
    assert late.status == CaseStatus.DEFAULTED and late.attention == ""


def test_the_declaration_and_its_receipt(client_as, officer, glencoe):
    case = make_case(
        glencoe,
        officer,
        status=CaseStatus.DEFAULTED,
        notice_received_on=date(2026, 10, 1),
        contest_deadline=date(2026, 10, 15),
        contest_citation="Glencoe 701 Subd. 15(B), (J)",
        defaulted_on=date(2026, 10, 16),
    )
    client = client_as(officer)
    assert (
        client.post(reverse("dangerous_dogs:declaration_issue", args=[case.pk])).status_code == 302
    )
    case.refresh_from_db()
    assert case.status == CaseStatus.DECLARED
    url = reverse("dangerous_dogs:declaration_received", args=[case.pk])
    bad = client.post(url, {"received_on": "2026-11-05"})
    assert bad.status_code == 400 and "cannot be in the future" in bad.content.decode()
    client.post(url, {"received_on": "2026-11-02"})
    case.refresh_from_db()
    assert case.compliance_deadline == TODAY + timedelta(days=14)
    page = client.get(case.get_absolute_url()).content.decode()
    assert "Mon, Nov 16, 2026" in page and "Glencoe 701 Subd. 15(E), (J), (K)" in page


@pytest.mark.parametrize(
    "status", [CaseStatus.NOTICE_SERVED, CaseStatus.DEFAULTED, CaseStatus.DECLARED]
)
def test_the_case_page_stays_within_ten_queries(
    client_as, officer, glencoe, status, django_assert_max_num_queries, case_page_queries
):
    extra = {
        "notice_received_on": date(2026, 10, 1),
        "contest_deadline": date(2026, 10, 15),
        "contest_citation": "Glencoe 701 Subd. 15(B), (J)",
        "contest_late": True,
        "contest_received_on": date(2026, 10, 20),
    }
    if status == CaseStatus.DECLARED:
        extra.update(declared_by="default", declared_designation="dangerous", declared_on=TODAY)
    case = make_case(glencoe, officer, status=status, **extra)
    client = client_as(officer)
    client.get(case.get_absolute_url())
    with django_assert_max_num_queries(case_page_queries):
        response = client.get(case.get_absolute_url())
    assert response.status_code == 200
    with django_assert_max_num_queries(10):
        assert client.get(reverse("dangerous_dogs:notice_stage", args=[case.pk])).status_code == 200
