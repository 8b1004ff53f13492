"""The compliance, registration and seizure pages and sections: 403 for a wrong role, 404
for another city's case, bad input next to its field, at most 10 queries."""

from datetime import date

import pytest
from django.urls import reverse

from base.roles import RESIDENT
from dangerous_dogs.models import CaseStatus, ComplianceProof
from tests.conftest import make_user
from tests.impound.factories import make_pound
from tests.impound.helpers import set_fee

from .helpers import declared
from .test_compliance_proofs import PNG, all_proofs

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-12-08T10:00")]


@pytest.fixture
def case(glencoe, officer):
    return declared(glencoe, officer, on=date(2026, 11, 20), received_on=date(2026, 11, 23))


def url(name, case, *args):
    return reverse(f"dangerous_dogs:{name}", args=[case.pk, *args])


def test_the_case_page_shows_the_checklist_the_superseded_50_and_stays_within_10_queries(
    client_as, officer, case, django_assert_max_num_queries, case_page_queries
):
    all_proofs(case, officer)
    client = client_as(officer)
    with django_assert_max_num_queries(case_page_queries):
        page = client.get(case.get_absolute_url()).content.decode()
    assert "Comply by Dec 7, 2026 (Glencoe 701 Subd. 15(E), (J), (K))" in page
    assert "1 day overdue" in page
    assert "$50.00 (Glencoe 701 Subd. 15(E)(2), (J)(2))" in page
    assert "$300,000.00 (Minn. Stat. 347.51 subd. 2)" in page
    assert "superseded" in page and "almost certainly a truncated figure" in page
    assert "Not registered" in page
    assert url("registration_issue", case) in page and url("seizure_create", case) in page


def test_the_seized_case_page_stays_within_10_queries(
    client_as, officer, case, glencoe, django_assert_max_num_queries, case_page_queries
):
    from dangerous_dogs.services.seizure import case_seize
    from tests.dangerous_dogs.test_seizure_reclaim import SEIZED_AT

    case_seize(
        case,
        pound=make_pound(glencoe),
        placed_at=SEIZED_AT,
        seized_where="Yard",
        ground="deadline",
        actor=officer,
    )
    client = client_as(officer)
    with django_assert_max_num_queries(case_page_queries):
        page = client.get(case.get_absolute_url()).content.decode()
    assert "Reclaim by Tue, Dec 15, 2026" in page
    assert "Seizure notice (PDF)" in page and url("seizure_reclaim", case) in page
    response = client.get(url("seizure_notice", case))
    assert response.status_code == 302 and "/pdf/" in response["Location"]


def test_a_potentially_dangerous_case_says_there_are_no_requirements(client_as, officer, glencoe):
    case = declared(glencoe, officer, on=date(2026, 11, 20), designation="potentially")
    page = client_as(officer).get(case.get_absolute_url()).content.decode()
    assert "no requirements to meet" in page


def test_wrong_role_403_and_other_city_404(client_as, case, north_branch):
    resident = make_user("rita", RESIDENT, [case.jurisdiction])
    clerk = make_user("gclerk", "clerk", [case.jurisdiction])
    nb_officer = make_user("nbo", "officer", [north_branch])
    for name, args in [
        ("compliance_proof", ["coverage"]),
        ("compliance_destroyed", []),
        ("seizure_create", []),
    ]:
        assert client_as(resident).get(url(name, case, *args)).status_code == 403
        assert client_as(clerk).get(url(name, case, *args)).status_code == 403
        assert client_as(nb_officer).get(url(name, case, *args)).status_code == 404
    assert client_as(clerk).get(url("registration_issue", case)).status_code == 200
    assert client_as(clerk).post(url("registration_issue", case), {}).status_code == 403
    assert client_as(clerk).post(url("seizure_reclaim", case), {}).status_code == 403
    assert client_as(nb_officer).get(url("registration_issue", case)).status_code == 404


def test_an_unknown_requirement_is_404(client_as, officer, case):
    assert client_as(officer).get(url("compliance_proof", case, "fee")).status_code == 404


def test_coverage_under_the_minimum_is_shown_next_to_the_amount_nothing_lost(
    client_as, officer, case
):
    response = client_as(officer).post(
        url("compliance_proof", case, "coverage"),
        {
            "verified_on": "2026-12-08",
            "coverage_kind": "insurance",
            "issuer": "North Star Mutual",
            "policy_number": "HP-5512",
            "amount": "50",
            "expires_on": "2027-12-31",
        },
    )
    assert response.status_code == 200
    form = response.context["form"]
    assert "Minn. Stat. 347.51 subd. 2" in form.errors["amount"][0]
    assert form["issuer"].value() == "North Star Mutual"
    assert not ComplianceProof.objects.exists()


def test_an_upload_that_is_not_a_photo_is_refused_next_to_the_field(client_as, officer, case):
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = client_as(officer).post(
        url("compliance_proof", case, "enclosure"),
        {
            "verified_on": "2026-12-08",
            "details": "Kennel with roof",
            "document": SimpleUploadedFile("sign.png", b"MZ not an image", "image/png"),
        },
    )
    assert "document" in response.context["form"].errors
    ok = client_as(officer).post(
        url("compliance_proof", case, "enclosure"),
        {
            "verified_on": "2026-12-08",
            "details": "Kennel with roof",
            "document": SimpleUploadedFile("sign.png", PNG, "image/png"),
        },
    )
    assert ok.status_code == 302 and ComplianceProof.objects.count() == 1


def test_a_future_date_is_refused_next_to_the_field(client_as, officer, case):
    response = client_as(officer).post(
        url("compliance_destroyed", case), {"on": "2026-12-09", "veterinarian": "Dr. Lind"}
    )
    assert "on" in response.context["form"].errors


def test_the_registration_page_names_the_blank_fee_then_issues(client_as, officer, case, glencoe):
    all_proofs(case, officer)
    client = client_as(officer)
    page = client.get(url("registration_issue", case)).content.decode()
    assert "Subd. 15(E)(3)" in page and "not set" in page
    response = client.post(
        url("registration_issue", case), {"method": "cash", "amount_tendered": "1000"}
    )
    assert "Subd. 15(E)(3)" in response.content.decode()
    set_fee(glencoe, "dd_registration", "250.00")
    page = client.get(url("registration_issue", case)).content.decode()
    assert "not more than $500.00 (Minn. Stat. 347.51 subd. 2)" in page
    assert (
        client.post(
            url("registration_issue", case), {"method": "cash", "amount_tendered": "1000"}
        ).status_code
        == 302
    )
    case.refresh_from_db()
    assert case.status == CaseStatus.REGISTERED


def test_seize_with_bad_input_keeps_it_next_to_the_field(client_as, officer, case, glencoe):
    pound = make_pound(glencoe)
    response = client_as(officer).post(
        url("seizure_create", case),
        {
            "ground": "breach",
            "pound": pound.pk,
            "placed_at": "2026-12-08T09:30",
            "seized_where": "Yard",
        },
    )
    form = response.context["form"]
    assert "ground" in form.errors  # the deadline passed: a breach is no longer the ground
    assert form["seized_where"].value() == "Yard"
    ok = client_as(officer).post(
        url("seizure_create", case),
        {
            "ground": "deadline",
            "pound": pound.pk,
            "placed_at": "2026-12-08T09:30",
            "seized_where": "Yard",
        },
    )
    assert ok.status_code == 302
    case.refresh_from_db()
    assert case.status == CaseStatus.SEIZED
