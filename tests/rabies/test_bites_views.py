"""The bite pages: the report form, the actions on the bite page, the animal
page's section; roles (403), the other city (404), errors at their fields, queries."""

from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import RequestFactory
from django.urls import reverse

from base.roles import OFFICER
from licensing.models import Animal, Species
from licensing.selectors import animal_for_detail
from licensing.services.vaccination import vaccination_status
from ordinance.rules import rules_read_once
from rabies.models import (
    BiteDecision,
    BiteReport,
    BiteStatus,
    DocumentRequest,
    LabResult,
    RequestedDocument,
)
from rabies.sections import animal_bites
from rabies.services.bites import bite_decide, document_request_log
from tests.conftest import make_user
from tests.impound.helpers import PDF, owned_dog
from tests.rabies.helpers import make_bite, make_quarantine, vaccinate
from tests.upload_files import png_bytes

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-12-07T10:00")]

TODAY = date(2026, 12, 7)


def report_data(**fields):
    data = {
        "jurisdiction": "",
        "reporter_kind": "victim",
        "reporter_name": "Dana Reyes",
        "reporter_phone": "651-555-0101",
        "reported_at": "2026-12-06T19:00",
        "bitten_at": "2026-12-06T17:30",
        "bitten_where": "Sidewalk, Main St",
        "victim_kind": "person",
        "victim_name": "Dana Reyes",
        "victim_address": "12 Elm St",
        "skin_broken": "true",
        "saliva_exposure": "unknown",
        "provoked": "false",
        "biter_kind": "registered",
        "animal": "",
        "biter_species": "",
    }
    data.update(fields)
    return data


def test_clerk_may_not_report_or_act(client, north_branch, clerk, officer):
    client.force_login(clerk)
    assert client.get(reverse("rabies:bite_report")).status_code == 403
    bite = make_bite(north_branch, officer)
    response = client.post(reverse("rabies:bite_decide", args=[bite.pk]), {"decision": "no_action"})
    assert response.status_code == 403
    assert client.get(bite.get_absolute_url()).status_code == 200


def test_report_from_the_animal_page(client, north_branch, officer):
    dog = owned_dog(north_branch, name="Biscuit")
    vaccinate(dog, date(2026, 5, 1))
    client.force_login(officer)
    url = reverse("rabies:bite_report") + f"?animal={dog.pk}"
    page = client.get(url)
    assert page.status_code == 200 and "Biscuit" in page.text
    response = client.post(url, report_data(reporter_kind="owner", animal=str(dog.pk)))
    bite = BiteReport.objects.get()
    assert response.status_code == 302 and response.url == bite.get_absolute_url()
    assert bite.animal == dog and bite.jurisdiction == north_branch
    assert bite.vaccination_state == "current" and not bite.owner_report_late


def test_form_errors_at_their_fields_with_nothing_lost(client, north_branch, officer):
    dog = owned_dog(north_branch)
    client.force_login(officer)
    url = reverse("rabies:bite_report")
    response = client.post(
        url, report_data(animal=str(dog.pk), bitten_at="2026-12-08T09:00", reporter_name="Zed Q")
    )
    assert response.status_code == 400
    form = response.context["form"]
    assert "bitten_at" in form.errors and "future" in form.errors["bitten_at"][0]
    assert 'value="Zed Q"' in response.text
    response = client.post(url, report_data(reported_at="2026-12-06T17:00", animal=str(dog.pk)))
    assert response.status_code == 400 and "reported_at" in response.context["form"].errors
    response = client.post(url, report_data(biter_kind="wild", jurisdiction=str(north_branch.pk)))
    assert "biter_species" in response.context["form"].errors
    assert not BiteReport.objects.exists()


def test_animal_of_another_city_is_404(client, north_branch, glencoe):
    nb_only = make_user("nora", OFFICER, [north_branch])
    client.force_login(nb_only)
    gl_dog = owned_dog(glencoe)
    assert client.get(reverse("rabies:bite_report") + f"?animal={gl_dog.pk}").status_code == 404
    response = client.post(reverse("rabies:bite_report"), report_data(animal=str(gl_dog.pk)))
    assert response.status_code == 400 and "animal" in response.context["form"].errors


def test_actions_on_the_other_citys_bite_are_404(client, north_branch, glencoe, officer):
    bite = make_bite(glencoe, officer)
    nb_only = make_user("nora", OFFICER, [north_branch])
    client.force_login(nb_only)
    for name in ("bite_decide", "bite_document_request", "bite_lab_result"):
        assert client.post(reverse(f"rabies:{name}", args=[bite.pk]), {}).status_code == 404
    assert client.get(bite.get_absolute_url()).status_code == 404


def test_decide_from_the_page(client, north_branch, officer):
    bite = make_bite(north_branch, officer)
    client.force_login(officer)
    url = reverse("rabies:bite_decide", args=[bite.pk])
    response = client.post(url, {"decision": "destroy", "reasons": "Signs", "laboratory": "Lab"})
    assert response.status_code == 400
    assert "destroyed_on" in response.context["form"].errors
    assert 'value="Lab"' in response.text
    response = client.post(
        url,
        {
            "decision": "destroy",
            "reasons": "Signs",
            "laboratory": "Lab",
            "destroyed_on": "2026-12-07",
            "submitted_on": "2026-12-07",
        },
    )
    assert response.status_code == 302
    bite.refresh_from_db()
    assert bite.status == BiteStatus.TESTING
    page = client.get(bite.get_absolute_url())
    assert "Record the laboratory" in page.text
    bad = SimpleUploadedFile("r.pdf", b"not a pdf", content_type="application/pdf")
    result_url = reverse("rabies:bite_lab_result", args=[bite.pk])
    response = client.post(
        result_url, {"result": "negative", "result_on": "2026-12-07", "result_file": bad}
    )
    assert response.status_code == 400 and "result_file" in response.context["form"].errors
    good = SimpleUploadedFile("r.pdf", PDF, content_type="application/pdf")
    response = client.post(
        result_url, {"result": "negative", "result_on": "2026-12-07", "result_file": good}
    )
    assert response.status_code == 302
    bite.refresh_from_db()
    assert bite.status == BiteStatus.CLOSED
    assert bite.lab_submissions.get().result == LabResult.NEGATIVE


def test_glencoe_dog_page_offers_no_destruction(client, glencoe, officer):
    bite = make_bite(glencoe, officer)
    client.force_login(officer)
    page = client.get(bite.get_absolute_url())
    assert "Glencoe 701 Subd. 21(A), (B)" in page.text
    choices = (
        [c[0] for c in page.context["decision_form"].fields["decision"].choices]
        if "decision_form" in page.context
        else None
    )
    response = client.post(
        reverse("rabies:bite_decide", args=[bite.pk]), {"decision": "destroy", "reasons": "x"}
    )
    assert response.status_code == 400 and "decision" in response.context["form"].errors
    assert choices is None or "destroy" not in choices


def test_document_request_and_receipt(client, north_branch, officer, settings):
    bite = make_bite(north_branch, officer)
    client.force_login(officer)
    response = client.post(
        reverse("rabies:bite_document_request", args=[bite.pk]),
        {"kind": "insurance", "why_warranted": "", "requested_on": "2026-12-07"},
    )
    assert response.status_code == 400 and "why_warranted" in response.context["form"].errors
    client.post(
        reverse("rabies:bite_document_request", args=[bite.pk]),
        {"kind": "insurance", "why_warranted": "Serious injury", "requested_on": "2026-12-07"},
    )
    doc = DocumentRequest.objects.get()
    url = reverse("rabies:bite_document_received", args=[bite.pk, doc.pk])
    big = SimpleUploadedFile("a.png", png_bytes(), content_type="image/png")
    from django.test import override_settings

    with override_settings(UPLOAD_MAX_BYTES=50):
        response = client.post(url, {"received_on": "2026-12-07", "file": big})
    assert response.status_code == 400 and "file" in response.context["form"].errors
    response = client.post(
        url, {"received_on": "2026-12-07", "file": SimpleUploadedFile("p.pdf", PDF)}
    )
    assert response.status_code == 302
    doc.refresh_from_db()
    assert doc.received_on == TODAY
    page = client.get(bite.get_absolute_url()).text
    assert "Pertinent insurance information" in page
    # The copy on file is served by a view, never from MEDIA_URL.
    download = reverse("rabies:record_file", args=["document", doc.pk])
    assert download in page and f"/{settings.MEDIA_URL}" not in page
    response = client.get(download)
    assert response["Content-Type"] == "application/pdf"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Content-Disposition"] == f'attachment; filename="rabies-document-{doc.pk}.pdf"'
    assert doc.file.name.endswith(".pdf") and "p.pdf" not in doc.file.name


def test_bite_page_queries(client, glencoe, officer, django_assert_max_num_queries):
    pet = owned_dog(glencoe, species=Species.OTHER)
    bite = make_bite(glencoe, officer, animal=pet)
    document_request_log(
        bite,
        actor=officer,
        kind=RequestedDocument.VACCINATION,
        why_warranted="x",
        requested_on=TODAY,
    )
    bite_decide(bite, BiteDecision.HEARING, "Bit a child", officer, owner_known=False)
    client.force_login(officer)
    client.get(bite.get_absolute_url())  # the menu's cached rule read is warm
    with django_assert_max_num_queries(10):
        response = client.get(bite.get_absolute_url())
    assert response.status_code == 200
    assert "Hearing Examiner" in response.text


def test_animal_section(
    client, north_branch, officer, clerk, resident, django_assert_max_num_queries
):
    dog = owned_dog(north_branch)
    vaccinate(dog, date(2026, 5, 1))
    bite = make_bite(north_branch, officer, animal=dog, status=BiteStatus.QUARANTINE)
    quarantine = make_quarantine(north_branch, officer, bite=bite)
    animal = animal_for_detail(Animal.objects).get(pk=dog.pk)
    list(animal.vaccinations.all())
    request = RequestFactory().get("/")
    request.user = officer
    assert officer.is_staff_member  # the page header has read the roles
    with rules_read_once():
        vaccination_status(animal, on=TODAY)  # the page has read the city's rules
        with django_assert_max_num_queries(1):
            template, context = animal_bites(request, animal=animal)
    assert [(r.kind, r.number) for r in context["records"]] == [
        ("quarantine", quarantine.number),
        ("bite", bite.number),
    ] or {r.number for r in context["records"]} == {bite.number, quarantine.number}
    assert "report_url" in context
    request.user = clerk
    assert "report_url" not in animal_bites(request, animal=animal)[1]
    request.user = resident
    assert animal_bites(request, animal=animal) is None
    client.force_login(officer)
    page = client.get(dog.get_absolute_url())
    assert bite.number in page.text and quarantine.number in page.text
    assert f"?animal={dog.pk}" in page.text
