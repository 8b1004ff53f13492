"""The clinic reports: certificates received by clinic and month, and
each clinic's match rate; the page's table, its chart and its CSV are one service's rows;
each user sees their own cities; a clinic and an officer get 403; hundreds of
certificates stay within the page's query budget. Rules: RAB-01..05, REC-02."""

import csv
import io
from datetime import date

import pytest
from django.urls import reverse

from clinics import reports
from clinics.models import CertificateSubmission, SubmissionStatus
from tests.clinics.helpers import make_clinic, make_vet

QUERY_BUDGET = 10
S = SubmissionStatus
JAN = date(2026, 1, 1)
TODAY = date(2026, 12, 31)


def certificates(clinic, city, vet, when, statuses):
    CertificateSubmission.objects.bulk_create(
        CertificateSubmission(
            clinic=clinic,
            jurisdiction=city,
            submitted_by=vet,
            submitted_at=when,
            status=status,
            owner_last_name=f"Owner{i}",
            owner_address=f"{i} Main Street",
            animal_name="Rex",
            species="dog",
            vaccinated_on="2026-03-01",
            duration_years=1,
            veterinarian_name="Dr. Ada Lind",
            veterinarian_license="MN-4411",
        )
        for i, status in enumerate(statuses)
    )


@pytest.fixture
def world(north_branch, glencoe):
    lakes = make_clinic([north_branch, glencoe])
    pines = make_clinic([glencoe], name="Pines Animal Hospital", license_number="MN-5522")
    vet = make_vet(lakes)
    # March, North Branch, Lakes: 7 matched, 1 confirmed, 1 registered, 1 rejected.
    certificates(
        lakes,
        north_branch,
        vet,
        "2026-03-10T15:00Z",
        [S.MATCHED] * 7 + [S.CONFIRMED, S.REGISTERED, S.REJECTED],
    )
    # April, North Branch, Lakes: 2 matched, 1 waiting.
    certificates(lakes, north_branch, vet, "2026-04-02T15:00Z", [S.MATCHED] * 2 + [S.QUEUED])
    # March 31 at 8 p.m. in Minnesota is April 1 in UTC: it counts in March.
    certificates(lakes, north_branch, vet, "2026-04-01T01:00Z", [S.MATCHED])
    # Glencoe: Pines sends three, one matched.
    certificates(pines, glencoe, vet, "2026-05-05T15:00Z", [S.MATCHED, S.QUEUED, S.QUEUED])
    return lakes, pines


def test_certificates_are_counted_by_city_clinic_and_local_month(world, north_branch, glencoe):
    rows = reports.certificates_by_clinic_month(
        jurisdiction_ids=[north_branch.pk, glencoe.pk], start=JAN, end=TODAY
    )
    assert [(r["city"], r["clinic"], r["month"], r["received"]) for r in rows] == [
        ("Glencoe", "Pines Animal Hospital", "2026-05", 3),
        ("North Branch", "Lakes Veterinary Clinic", "2026-03", 11),
        ("North Branch", "Lakes Veterinary Clinic", "2026-04", 3),
    ]
    march = rows[1]
    assert (march["matched"], march["confirmed"], march["registered"], march["rejected"]) == (
        8,
        1,
        1,
        1,
    )
    assert march["waiting"] == 0 and march["match_rate"] == "73%"  # 8 of 11
    assert rows[2]["match_rate"] == "67%" and rows[2]["waiting"] == 1


def test_the_match_rate_covers_the_range_and_a_city_sees_only_its_own(world, north_branch):
    (lakes,) = reports.match_rate_by_clinic(
        jurisdiction_ids=[north_branch.pk], start=JAN, end=TODAY
    )
    assert lakes["received"] == 14 and lakes["matched"] == 10
    assert lakes["match_rate"] == "71%"  # 10 of 14
    assert lakes["recorded_rate"] == "86%"  # 12 of 14: matched, confirmed, registered
    april_only = reports.match_rate_by_clinic(
        jurisdiction_ids=[north_branch.pk], start=date(2026, 4, 1), end=date(2026, 4, 30)
    )
    assert [r["received"] for r in april_only] == [3]


def test_the_page_and_its_csv_show_the_same_rows(world, client, administrator):
    client.force_login(administrator)
    url = reverse("clinics:report_certificates")
    page = client.get(url, {"start": "2026-01-01", "end": "2026-12-31"})
    assert page.status_code == 200
    text = page.content.decode()
    assert "Pines Animal Hospital" in text and "73%" in text and "<svg" in text
    response = client.get(url, {"start": "2026-01-01", "end": "2026-12-31", "format": "csv"})
    assert response["Content-Type"].startswith("text/csv")
    table = list(csv.reader(io.StringIO(response.content.decode())))
    assert table[0] == list(reports.BY_MONTH_COLUMNS)
    assert ["North Branch", "Lakes Veterinary Clinic", "2026-03", "11"] == table[2][:4]
    assert len(table) == 4


def test_a_clerk_of_one_city_sees_its_clinics_only(world, client, glencoe_clerk):
    client.force_login(glencoe_clerk)
    text = client.get(
        reverse("clinics:report_match_rate"), {"start": "2026-01-01", "end": "2026-12-31"}
    ).content.decode()
    assert "Pines Animal Hospital" in text and "Lakes Veterinary Clinic" not in text
    assert "33%" in text


def test_a_clinic_and_an_officer_get_403(world, client, officer):
    vet = world[0].members.get().user
    for user in (vet, officer):
        client.force_login(user)
        for name in ("clinics:report_certificates", "clinics:report_match_rate"):
            assert client.get(reverse(name)).status_code == 403


def test_a_backwards_range_is_refused_beside_the_field(world, client, clerk):
    client.force_login(clerk)
    response = client.get(
        reverse("clinics:report_certificates"), {"start": "2026-12-01", "end": "2026-01-01"}
    )
    assert response.status_code == 400
    assert "must not be before the start date" in response.content.decode()


def test_the_reports_page_links_them_for_the_clerk(world, client, clerk):
    client.force_login(clerk)
    text = client.get(reverse("licensing:reports")).content.decode()
    assert reverse("clinics:report_certificates") in text
    assert reverse("clinics:report_match_rate") in text
    assert reverse("clinics:unlicensed_results") in text
    assert reverse("clinics:balances") in text


def test_hundreds_of_certificates_stay_within_the_query_budget(
    world, client, clerk, north_branch, django_assert_max_num_queries
):
    vet = world[0].members.get().user
    for month in range(1, 13):
        certificates(world[0], north_branch, vet, f"2026-{month:02d}-15T15:00Z", [S.MATCHED] * 30)
    client.force_login(clerk)
    client.get(reverse("clinics:report_certificates"))
    for name in ("clinics:report_certificates", "clinics:report_match_rate"):
        with django_assert_max_num_queries(QUERY_BUDGET):
            response = client.get(reverse(name), {"start": "2026-01-01", "end": "2026-12-31"})
        assert response.status_code == 200
