"""The quarantine pages through the browser's eyes: the walks from the bite to the release
for North Branch and Glencoe, refusals shown next to their fields, roles and cities."""

from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from rabies.models import BiteStatus, Inspection, Quarantine, QuarantineStatus
from tests.conftest import make_user
from tests.rabies.helpers import at
from tests.rabies.qhelpers import BITE_DAY, END, bite
from tests.upload_files import pdf_bytes

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-12-18T14:00")]
PDF = pdf_bytes()


def url(name, pk):
    return reverse(f"rabies:{name}", args=[pk])


def order_home(client, b):
    return client.post(
        url("quarantine_order", b.pk),
        {
            "place": "home",
            "consent_by_name": "Olivia Officer",
            "consent_on": BITE_DAY.isoformat(),
            "home_address": "",
        },
    )


def test_north_branch_bite_home_confinement_inspection_and_release_by_permission(
    client, north_branch, officer, time_machine
):
    client.force_login(officer)
    b = bite(north_branch, officer)
    page = client.get(b.get_absolute_url())
    assert "Order confinement" in page.content.decode()
    form = client.get(url("quarantine_order", b.pk)).content.decode()
    assert "Currently vaccinated" in form and "North Branch Sec. 6-98(1)" in form
    response = order_home(client, b)
    q = Quarantine.objects.get(bite_report=b)
    assert response.status_code == 302 and response.url == q.get_absolute_url()
    html = client.get(q.get_absolute_url()).content.decode()
    for text in (
        "Confined at home",
        "Mon, Dec 28, 2026",
        "North Branch Sec. 6-98",
        "10 days left",
        "not exceeding 6 feet",
        "Quarantine order (PDF)",
        "Written permission of the animal control officer or the Chief of Police",
        "Missing",
    ):
        assert text in html, text
    condition = q.conditions[0]["text"]
    response = client.post(
        url("quarantine_inspect", q.pk),
        {
            "kind": "inspection",
            "at": "2026-12-18T13:30",
            "inspector_name": "Olivia Officer",
            "checks": [condition],
            "compliant": "yes",
            "notes": "Kept in the locked kennel",
        },
    )
    assert response.status_code == 302
    assert Inspection.objects.get(quarantine=q).checks[0] == {"text": condition, "kept": True}

    time_machine.move_to(at(END, 9), tick=False)  # ten days later
    refused = client.post(url("quarantine_release", q.pk))
    assert refused.status_code == 400
    body = refused.content.decode()
    assert (
        "Missing: Written permission of the animal control officer or the Chief of Police" in body
    )
    assert "North Branch Sec. 6-98(3)" in body
    q.refresh_from_db()
    assert q.status == QuarantineStatus.HOME
    response = client.post(
        url("quarantine_permission", q.pk),
        {
            "signer_name": "Olivia Officer",
            "capacity": "Animal control officer",
            "permission_on": END.isoformat(),
            "reason": "Ten days over, no signs",
        },
    )
    assert response.status_code == 302
    assert "Written permission (PDF)" in client.get(q.get_absolute_url()).content.decode()
    assert client.post(url("quarantine_release", q.pk)).status_code == 302
    q.refresh_from_db()
    assert q.status == QuarantineStatus.RELEASED


def test_glencoe_releases_only_once_the_report_reached_the_officer_and_the_board(
    client, glencoe, officer, time_machine
):
    client.force_login(officer)
    b = bite(glencoe, officer)
    assert order_home(client, b).status_code == 302
    q = Quarantine.objects.get(bite_report=b)
    day = END + timedelta(days=1)
    time_machine.move_to(at(day, 9), tick=False)
    response = client.post(
        url("quarantine_exam", q.pk),
        {
            "examined_on": day.isoformat(),
            "examiner_name": "Dr. Vera Vet",
            "examiner_capacity": "Veterinarian",
            "clinical_signs": "no",
        },
    )
    assert response.status_code == 302
    bad = client.post(
        url("quarantine_report", q.pk),
        {
            "veterinarian": "Dr. Vera Vet",
            "inspected_on": day.isoformat(),
            "no_signs": "on",
            "report_file": SimpleUploadedFile(
                "r.pdf", b"not a pdf", content_type="application/pdf"
            ),
        },
    )
    assert bad.status_code == 400
    assert "This file is not a PDF" in bad.content.decode()
    response = client.post(
        url("quarantine_report", q.pk),
        {
            "veterinarian": "Dr. Vera Vet",
            "inspected_on": day.isoformat(),
            "no_signs": "on",
            "report_file": SimpleUploadedFile("r.pdf", PDF, content_type="application/pdf"),
            "received_by_officer_on": day.isoformat(),
        },
    )
    assert response.status_code == 302
    refused = client.post(url("quarantine_release", q.pk))
    assert refused.status_code == 400
    assert "Missing: Received by Minnesota Board of Animal Health" in refused.content.decode()
    assert "Glencoe 701 Subd. 21(E), 22(E)" in refused.content.decode()
    form = client.get(url("quarantine_report", q.pk)).content.decode()
    assert "Received by Minnesota Board of Animal Health on" in form
    assert "Received by Animal Control Officer on" not in form  # already recorded
    response = client.post(
        url("quarantine_report", q.pk), {"received_by_board_on": day.isoformat()}
    )
    assert response.status_code == 302
    assert client.post(url("quarantine_release", q.pk)).status_code == 302
    q.refresh_from_db()
    assert q.status == QuarantineStatus.RELEASED


def test_a_refused_order_keeps_what_was_typed_next_to_the_field(client, north_branch, officer):
    client.force_login(officer)
    b = bite(north_branch, officer, vaccinated=False)
    response = order_home(client, b)
    assert response.status_code == 400
    html = response.content.decode()
    assert "No proof of current vaccination" in html
    assert "North Branch Sec. 6-98(1)" in html
    assert 'value="Olivia Officer"' in html
    b.refresh_from_db()
    assert b.status == BiteStatus.OPEN


def test_the_exam_before_the_end_is_refused_with_the_section(client, north_branch, officer):
    client.force_login(officer)
    b = bite(north_branch, officer)
    order_home(client, b)
    q = Quarantine.objects.get(bite_report=b)
    response = client.post(
        url("quarantine_exam", q.pk),
        {
            "examined_on": BITE_DAY.isoformat(),
            "examiner_name": "Dr. Vera Vet",
            "examiner_capacity": "Veterinarian",
            "clinical_signs": "no",
        },
    )
    assert response.status_code == 400
    assert "not before Dec 28, 2026" in response.content.decode()


@pytest.fixture
def nb_quarantine(client, north_branch, officer):
    client.force_login(officer)
    b = bite(north_branch, officer)
    order_home(client, b)
    client.logout()
    return Quarantine.objects.get(bite_report=b)


ACTING = (
    "quarantine_inspect",
    "quarantine_facility",
    "quarantine_exam",
    "quarantine_permission",
    "quarantine_report",
    "quarantine_release",
)


def test_a_clerk_sees_the_page_but_may_not_act(client, clerk, nb_quarantine):
    client.force_login(clerk)
    html = client.get(nb_quarantine.get_absolute_url()).content.decode()
    assert "Confined at home" in html
    assert "Log an inspection" not in html and "Release from quarantine</a>" not in html
    for name in ACTING:
        assert client.get(url(name, nb_quarantine.pk)).status_code == 403, name
        assert client.post(url(name, nb_quarantine.pk)).status_code == 403, name
    assert client.get(url("quarantine_order", nb_quarantine.bite_report.pk)).status_code == 403


def test_the_other_citys_officer_gets_404(client, glencoe, nb_quarantine):
    client.force_login(make_user("gil", "officer", [glencoe]))
    assert client.get(nb_quarantine.get_absolute_url()).status_code == 404
    for name in ACTING:
        assert client.get(url(name, nb_quarantine.pk)).status_code == 404, name
    assert client.get(url("quarantine_order", nb_quarantine.bite_report.pk)).status_code == 404


def test_the_quarantine_page_makes_at_most_ten_queries(
    client, officer, nb_quarantine, django_assert_max_num_queries
):
    client.force_login(officer)
    for hour in (10, 11, 12):
        Inspection.objects.create(
            quarantine=nb_quarantine,
            jurisdiction=nb_quarantine.jurisdiction,
            at=at(BITE_DAY, hour),
            inspector_name="O",
            compliant=True,
            recorded_by=officer,
        )
    client.get(nb_quarantine.get_absolute_url())
    with django_assert_max_num_queries(10):
        response = client.get(nb_quarantine.get_absolute_url())
    assert response.status_code == 200


def test_an_owners_report_is_put_before_the_officer_who_answers_it(client, officer, nb_quarantine):
    from ordinance.models import Event

    client.force_login(officer)
    response = client.post(
        url("quarantine_inspect", nb_quarantine.pk),
        {
            "kind": "owner_report",
            "at": "2026-12-18T13:00",
            "inspector_name": "Owner, by phone",
            "compliant": "yes",
            "notes": "Stopped eating",
        },
    )
    assert response.status_code == 302
    html = client.get(nb_quarantine.get_absolute_url()).content.decode()
    assert "Needs a person:" in html and "Stopped eating" in html
    assert "North Branch Sec. 6-98(4)" in html
    assert client.post(url("quarantine_resolve", nb_quarantine.pk), {"note": ""}).status_code == 302
    nb_quarantine.refresh_from_db()
    assert nb_quarantine.attention  # nothing said, nothing answered
    client.post(url("quarantine_resolve", nb_quarantine.pk), {"note": "Vet visit: eating again"})
    nb_quarantine.refresh_from_db()
    assert not nb_quarantine.attention
    assert Event.objects.filter(action="rabies.quarantine.resolved").count() == 1


def test_the_other_gates_page_says_the_city_does_not_use_it(client, officer, nb_quarantine):
    client.force_login(officer)
    html = client.get(url("quarantine_report", nb_quarantine.pk)).content.decode()
    assert "does not release by a veterinarian's report" in html
    exam = client.get(url("quarantine_exam", nb_quarantine.pk)).content.decode()
    assert "Animal control officer" in exam and "Rabies Control Authority" not in exam


def test_a_breach_offers_the_move_to_the_facility(client, officer, nb_quarantine, pound):
    client.force_login(officer)
    client.post(
        url("quarantine_inspect", nb_quarantine.pk),
        {
            "kind": "inspection",
            "at": "2026-12-18T13:00",
            "inspector_name": "Olivia Officer",
            "compliant": "no",
            "notes": "Dog loose in the yard",
        },
    )
    html = client.get(nb_quarantine.get_absolute_url()).content.decode()
    assert "Move to the facility (North Branch Sec. 6-98(6))" in html
    response = client.post(
        url("quarantine_facility", nb_quarantine.pk),
        {"pound": pound.pk, "reason": "Not kept in the enclosure"},
    )
    assert response.status_code == 302
    nb_quarantine.refresh_from_db()
    assert nb_quarantine.status == QuarantineStatus.FACILITY
    assert nb_quarantine.impound_case.gates.get().is_open
