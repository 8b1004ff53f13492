"""Part D's pages: the case page sections, the forms, roles and cities, bad input, queries."""

from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from dangerous_dogs.models import CaseStatus, Charge, ReviewRequest, SterilizationOrder
from dangerous_dogs.services.owner_reports import ReportFacts, report_record
from dangerous_dogs.services.sterilization import sterilization_order
from tests.conftest import make_user
from tests.licensing.factories import OwnerFactory

from .helpers import declared

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-12-01T10:00")]


@pytest.fixture
def case(glencoe, officer):
    return declared(glencoe, officer, on=date(2026, 11, 10))


def test_the_case_page_shows_part_ds_sections_within_ten_queries(
    client_as, officer, case, django_assert_max_num_queries, case_page_queries
):
    sterilization_order(case=case, ordered_on=date(2026, 11, 12), actor=officer)
    lease = ReportFacts(
        kind="lease",
        event_on=date(2026, 11, 15),
        notified_on=date(2026, 11, 16),
        party_name="Pat Landlord",
        party_address="14 Oak St",
        lease_term="1 year",
    )
    report_record(case=case, report=lease, actor=officer)
    ReviewRequest.objects.create(
        case=case, requested_on=date(2026, 11, 20), evidence="Training", recorded_by=officer
    )
    Charge.objects.create(
        case=case, charged_on=date(2026, 11, 20), offence="Not muzzled", recorded_by=officer
    )
    client = client_as(officer)
    with django_assert_max_num_queries(case_page_queries):
        page = client.get(case.get_absolute_url()).content.decode()
    for text in (
        "owner-reports-heading",
        "Sterilization",
        "Review of the designation",
        "Charges and court orders",
        "Summary destruction",
        "Minn. Stat. 347.52(d)",
        "Glencoe 701 Subd. 15(G)(4)",
        "Glencoe 701 Subd. 15(G)(6)",
        "Pat Landlord",
        "The owner may ask for a review from Nov 20, 2027 (Glencoe 701 Subd. 15(F))",
    ):
        assert text in page, text


def test_a_clerk_sees_the_sections_but_cannot_act(client_as, officer, case, glencoe):
    clerk = make_user("gina", "clerk", [glencoe])
    page = client_as(clerk).get(case.get_absolute_url()).content.decode()
    assert "Review of the designation" in page
    assert reverse("dangerous_dogs:owner_report_new", args=[case.pk]) not in page
    assert (
        client_as(clerk).get(reverse("dangerous_dogs:owner_report_new", args=[case.pk])).status_code
        == 403
    )


def test_another_citys_officer_gets_404(client_as, case, north_branch):
    nb_officer = make_user("ned", "officer", [north_branch])
    for name in ("owner_report_new", "owner_sterilization_new", "review_request_new"):
        url = reverse(f"dangerous_dogs:{name}", args=[case.pk])
        assert client_as(nb_officer).get(url).status_code == 404


def test_a_late_death_report_through_the_form_closes_the_case(client_as, officer, case):
    url = reverse("dangerous_dogs:owner_report_new", args=[case.pk])
    response = client_as(officer).post(
        url, {"kind": "death", "event_on": "2026-11-10", "notified_on": "2026-12-11"}
    )
    assert response.status_code == 200  # the notice is dated in the future: refused
    assert "cannot be in the future" in response.content.decode()
    response = client_as(officer).post(
        url, {"kind": "death", "event_on": "2026-10-30", "notified_on": "2026-11-30"}
    )
    # The death is before the declaration of Nov 10: refused next to its field.
    assert "before the declaration" in response.content.decode()
    case.declared_on = date(2026, 10, 1)
    case.save(update_fields=["declared_on"])
    response = client_as(officer).post(
        url, {"kind": "death", "event_on": "2026-10-30", "notified_on": "2026-11-30"}
    )
    assert response.status_code == 302
    case.refresh_from_db()
    assert case.status == CaseStatus.DECEASED
    page = client_as(officer).get(case.get_absolute_url()).content.decode()
    assert "Late" in page


def test_a_sale_form_searches_the_registry_and_moves_the_case(client_as, officer, case, glencoe):
    buyer = OwnerFactory(jurisdiction=glencoe, last_name="Zimmermann")
    url = reverse("dangerous_dogs:owner_report_new", args=[case.pk])
    page = client_as(officer).get(url + "?q=Zimmermann").content.decode()
    assert buyer.name in page
    data = {
        "kind": "sale",
        "event_on": "2026-11-20",
        "notified_on": "2026-11-25",
        "buyer_in_city": "on",
        "buyer": buyer.pk,
        "buyer_informed": "on",
        "q": "Zimmermann",
        "party_phone": "320-555-0110",
    }
    assert client_as(officer).post(url, data).status_code == 302
    case.refresh_from_db()
    assert case.owner == buyer


def test_bad_input_keeps_what_was_typed(client_as, officer, case):
    url = reverse("dangerous_dogs:review_request_new", args=[case.pk])
    response = client_as(officer).post(
        url, {"requested_on": "2026-11-30", "evidence": "Finished obedience class"}
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "A review may be asked for from May 10, 2027" in page or "2027-05-10" in page
    assert "Finished obedience class" in page
    response = client_as(officer).post(url, {"requested_on": "not a date"})
    assert response.status_code == 200


def test_an_upload_of_the_wrong_type_is_refused(client_as, officer, case):
    order = sterilization_order(case=case, ordered_on=date(2026, 11, 12), actor=officer)
    url = reverse("dangerous_dogs:owner_sterilization_done", args=[order.pk])
    fake = SimpleUploadedFile("cert.pdf", b"MZ not a pdf", content_type="application/pdf")
    response = client_as(officer).post(
        url, {"done_on": "2026-11-20", "veterinarian": "Dr. Vet", "certificate": fake}
    )
    assert response.status_code == 200 and "not a PDF" in response.content.decode()
    order.refresh_from_db()
    assert order.done_on is None
    response = client_as(officer).post(url, {"done_on": "2026-11-20", "veterinarian": "Dr. Vet"})
    assert response.status_code == 302
    assert SterilizationOrder.objects.get(pk=order.pk).done_on == date(2026, 11, 20)


def test_summary_destruction_form_refuses_without_a_hearing(client_as, officer, case):
    url = reverse("dangerous_dogs:review_destruction_case", args=[case.pk])
    response = client_as(officer).post(
        url, {"ground": "vicious", "facts": "Attack", "officer_name": "O. Officer"}
    )
    page = response.content.decode()
    assert response.status_code == 200 and "no destruction without it" in page
    assert not case.summary_destructions.exists()


def test_a_resident_gets_403(client_as, case, resident):
    url = reverse("dangerous_dogs:review_charge_new", args=[case.pk])
    assert client_as(resident).get(url).status_code == 403
