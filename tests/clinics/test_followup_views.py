"""The vaccinated-but-unlicensed pages: the report by city and
its CSV, the run button (POST, twice: each letter and e-mail once), each batch's letters
as a PDF, the results report and its CSV. Clerks and administrators of the city only:
an officer, a clinic or a resident gets 403, another city's batch 404; every page within
the query budget with hundreds of animals; bad input gets a message, never a 500."""

import csv
import io
from datetime import date

import pytest
from django.core import mail
from django.urls import reverse

from clinics.models import FollowUpBatch, FollowUpLetter
from tests.clinics.followup_helpers import CLOCK, build_followup_world, dog, licensed
from tests.clinics.helpers import make_clinic, make_vet
from tests.pdf import pdf_text
from tests.rabies.helpers import vaccinate

pytestmark = pytest.mark.clock(CLOCK)
QUERY_BUDGET = 10
REPORT = "clinics:unlicensed"
RUN = "clinics:unlicensed_run"
RESULTS = "clinics:unlicensed_results"


@pytest.fixture(autouse=True)
def _site(settings):
    settings.SITE_URL = "https://animals.example.gov"


@pytest.fixture
def world(north_branch, glencoe, clerk):
    return build_followup_world(north_branch, glencoe, clerk)


def _run(client, capture, data=None):
    with capture(execute=True):
        response = client.post(reverse(RUN), data or {})
    assert response.status_code == 302, response.content[:500]
    return client.get(response.url)


def _csv(response) -> list[dict]:
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def test_the_report_lists_the_citys_vaccinated_unlicensed_dogs_with_counts(world, clerk, client_as):
    page = client_as(clerk).get(reverse(REPORT))
    assert page.status_code == 200
    html = page.content.decode()
    for name in ("Rex", "Molly", "Pip", "Zed"):
        assert f">{name}</a>" in html
    for name in ("Lucky", "Nova", "Old", "Pup", "Tom", "Fritz"):
        assert f">{name}</a>" not in html
    assert "License expired" in html and "No mailing address" in html
    assert "North Branch Sec. 6-60" in html  # the license requirement's section
    assert "Glencoe" not in html  # a one-city clerk sees no trace of the other city
    counts = page.context["cities"][0]["species"][0]
    assert (counts["animals"], counts["letters_to_send"], counts["emails_to_send"]) == (4, 3, 3)


def test_the_report_csv_has_every_animal_with_its_contact_and_certificate(world, clerk, client_as):
    rows = _csv(client_as(clerk).get(reverse(REPORT), {"format": "csv"}))
    by_name = {row["animal"]: row for row in rows}
    assert set(by_name) == {"Rex", "Molly", "Pip", "Zed"}
    assert by_name["Rex"]["address"] == "12 Elm Street Apt 3, North Branch, MN 55056"
    assert by_name["Rex"]["email"] == "ann@example.org"
    assert by_name["Rex"]["vaccinated_on"] == "2025-09-01"
    assert by_name["Rex"]["clinic"] == "Lakes Animal Clinic"
    assert by_name["Pip"]["standing"] == "License expired"
    assert by_name["Rex"]["letter_on"] == ""


def test_running_twice_from_the_page_sends_each_letter_and_email_once(
    world, clerk, client_as, django_capture_on_commit_callbacks
):
    client = client_as(clerk)
    page = _run(client, django_capture_on_commit_callbacks)
    assert "3 letters and 3 e-mails recorded" in page.content.decode()
    assert len(mail.outbox) == 2 and FollowUpLetter.objects.count() == 6
    page = _run(client, django_capture_on_commit_callbacks)
    assert "nothing new to send" in page.content.decode()
    assert len(mail.outbox) == 2 and FollowUpLetter.objects.count() == 6
    # The report now shows each letter and e-mail as sent, nothing left to send but
    # Nora's letter (no mailing address).
    counts = page.context["cities"][0]["species"][0]
    assert (counts["letters_sent"], counts["letters_to_send"]) == (3, 0)
    assert (counts["emails_sent"], counts["emails_to_send"]) == (3, 0)
    rex = next(r for r in page.context["animals"] if r["animal"] == "Rex")
    assert rex["letter_on"] == rex["email_on"] == date(2026, 3, 2)


def test_the_batch_pdf_prints_its_letters(
    world, clerk, client_as, django_capture_on_commit_callbacks
):
    client = client_as(clerk)
    page = _run(client, django_capture_on_commit_callbacks)
    batch = FollowUpBatch.objects.get()
    url = reverse("clinics:unlicensed_batch_pdf", args=[batch.pk])
    assert url in page.content.decode()
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content)
    assert "Ann Berg" in text and "Carl Dahl" in text and "Demo Res. 2025-14" in text


@pytest.mark.parametrize("persona", ["officer", "resident"])
def test_other_roles_are_refused(world, client_as, request, persona):
    client = client_as(request.getfixturevalue(persona))
    for name in (REPORT, RESULTS):
        assert client.get(reverse(name)).status_code == 403
    assert client.post(reverse(RUN)).status_code == 403
    assert not FollowUpLetter.objects.exists()


def test_a_clinic_is_refused(world, north_branch, client_as):
    client = client_as(make_vet(make_clinic([north_branch])))
    assert client.get(reverse(REPORT)).status_code == 403
    assert client.post(reverse(RUN)).status_code == 403


def test_another_citys_clerk_gets_404_for_the_batch_and_runs_nothing_here(
    world, clerk, glencoe_clerk, client_as, django_capture_on_commit_callbacks
):
    _run(client_as(clerk), django_capture_on_commit_callbacks)
    batch = FollowUpBatch.objects.get()
    client = client_as(glencoe_clerk)
    assert client.get(reverse("clinics:unlicensed_batch_pdf", args=[batch.pk])).status_code == 404
    page = client.get(reverse(REPORT))
    html = page.content.decode()
    assert "Glencoe issues no dog licenses" in html and "701 Subd. 2(D)" in html
    assert "Rex" not in html and "Ann Berg" not in html and "carol" not in html
    assert _csv(client.get(reverse(REPORT), {"format": "csv"})) == []
    page = _run(client, django_capture_on_commit_callbacks)
    assert "Glencoe issues no dog licenses" in page.content.decode()
    assert FollowUpLetter.objects.count() == 6  # North Branch's only
    results = client.get(reverse(RESULTS), {"start": "2026-01-01", "end": "2026-12-31"})
    assert "No letters or e-mails sent in this range." in results.content.decode()


def test_an_administrator_of_both_cities_picks_one(
    world, administrator, north_branch, glencoe, client_as, django_capture_on_commit_callbacks
):
    client = client_as(administrator)
    html = client.get(reverse(REPORT)).content.decode()
    assert 'name="city"' in html and "All my cities" in html
    page = _run(client, django_capture_on_commit_callbacks, {"city": str(glencoe.pk)})
    assert "Glencoe issues no dog licenses" in page.content.decode()
    assert not FollowUpLetter.objects.exists()
    _run(client, django_capture_on_commit_callbacks, {"city": str(north_branch.pk)})
    assert FollowUpLetter.objects.count() == 6


@pytest.mark.parametrize("value", ["999999", "abc", "1\x00", "9" * 5000, "-1"])
def test_a_bad_city_is_refused_beside_the_field(world, administrator, client_as, value):
    response = client_as(administrator).post(reverse(RUN), {"city": value})
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert not FollowUpLetter.objects.exists()


@pytest.mark.parametrize(
    "params",
    [
        {"start": "2026-02-30", "end": "2026-03-01"},
        {"start": "x\x00", "end": "9" * 5000},
        {"start": "2026-12-31", "end": "2026-01-01"},
        {"start": "0001-01-01", "end": "9999-12-31"},
    ],
)
def test_the_results_form_refuses_bad_dates_with_a_message(world, clerk, client_as, params):
    response = client_as(clerk).get(reverse(RESULTS), params)
    assert response.status_code == 400
    assert 'class="invalid-feedback' in response.content.decode()


def test_the_results_page_and_csv_give_the_share_licensed_in_the_period(
    world, clerk, client_as, django_capture_on_commit_callbacks
):
    import time_machine

    client = client_as(clerk)
    _run(client, django_capture_on_commit_callbacks)
    licensed(world["rex"], clerk, year=2026, issued_on=date(2026, 4, 10))
    with time_machine.travel("2026-06-01T10:00-05:00", tick=False):
        client = client_as(clerk)  # a new session: the March one has expired
        page = client.get(reverse(RESULTS))
        html = page.content.decode()
        assert "March 2026" in html and "25.0%" in html
        assert "(a program measure, not an ordinance rule): 60 days" in html
        assert "North Branch: not in ordinance (program measure)" in html
        rows = _csv(client.get(reverse(RESULTS), {"format": "csv"}))
    assert rows == [
        {
            "city": "North Branch",
            "month": "2026-03-01",
            "letters": "3",
            "emails": "3",
            "animals": "4",
            "licensed": "1",
            "waiting": "0",
            "share": "25.0",
        }
    ]


def test_each_page_stays_within_the_query_budget_with_hundreds_of_animals(
    world,
    clerk,
    administrator,
    client_as,
    django_assert_max_num_queries,
    django_capture_on_commit_callbacks,
):
    owner = world["carl"]
    for n in range(320):
        vaccinate(dog(owner, f"Bulk {n:03d}"), date(2025, 9, 1), years=3)
    client = client_as(administrator)
    client.get(reverse(REPORT))  # what any first page reads, kept in the cache
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse(RUN), {})
    for n in range(320, 340):  # and some not yet written to
        vaccinate(dog(owner, f"Bulk {n:03d}"), date(2025, 9, 1), years=3)
    batch = FollowUpBatch.objects.get()
    for url, params in (
        (reverse(REPORT), {}),
        (reverse(REPORT), {"format": "csv"}),
        (reverse(RESULTS), {}),
        (reverse(RESULTS), {"format": "csv"}),
        (reverse("clinics:unlicensed_batch_pdf", args=[batch.pk]), {}),
    ):
        with django_assert_max_num_queries(QUERY_BUDGET):
            response = client.get(url, params)
        assert response.status_code == 200, url
    page = client.get(reverse(REPORT))
    assert page.context["truncated"]
    [north_branch] = [r for r in page.context["cities"] if r["plan"].city.slug == "north-branch"]
    counts = north_branch["species"][0]
    assert (counts["animals"], counts["letters_sent"], counts["letters_to_send"]) == (344, 323, 20)
    assert len(_csv(client.get(reverse(REPORT), {"format": "csv"}))) == 344
