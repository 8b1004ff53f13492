"""Lost-pet report pages: the resident's own (another resident gets
404, staff 403), the city's staff list (another city's report is 404 or absent; a
resident gets 403), bad input next to its field, a bounded number of queries."""

from datetime import date

import pytest
import time_machine
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from impound.models import LostMatch, LostReport, LostStatus
from tests.conftest import make_user
from tests.impound.factories import make_pound
from tests.impound.helpers import at, take_in
from tests.impound.lost_helpers import FINDER_ADDRESS, FINDER_NAME, NB_GROUND, report
from tests.upload_files import png_bytes

pytestmark = pytest.mark.django_db
NOW = at(2026, 11, 30, 10)


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture(autouse=True)
def _now():
    with time_machine.travel(NOW, tick=False):
        yield


@pytest.fixture
def rita(resident):
    resident.email = "rita@example.org"
    resident.save()
    return resident


@pytest.fixture
def pound(north_branch, glencoe):
    return make_pound(north_branch, glencoe)


@pytest.fixture
def matched(north_branch, pound, officer, rita):
    """Rita's report, matched with a North Branch intake a finder brought in."""
    case = take_in(
        north_branch,
        pound,
        officer,
        at(2026, 11, 29, 10),
        NB_GROUND,
        found_area="Main St and 5th Ave",
        seized_where="Back yard of 12 Elm St",
    )
    lost = report(north_branch, rita, when=NOW)
    assert LostMatch.objects.filter(report=lost, case=case).exists()
    return lost


def _form(**extra):
    data = {
        "jurisdiction": "",
        "species": "dog",
        "breed": "Labrador",
        "color": "Black",
        "sex": "female",
        "approximate_age_months": "24",
        "name": "Juno",
        "distinguishing_marks": "White patch on the chest",
        "tag_number": "",
        "microchip": "",
        "lost_on": "2026-11-28",
        "lost_where": "Main St near 5th Ave",
        "contact_preference": "email",
        "contact_phone": "",
    }
    data.update(extra)
    return data


def test_a_resident_files_a_report_with_a_photo(client, rita, north_branch):
    client.force_login(rita)
    page = client.get(reverse("impound:lost_report_new"))
    assert page.status_code == 200
    photo = SimpleUploadedFile("juno.png", png_bytes(), content_type="image/png")
    response = client.post(
        reverse("impound:lost_report_new"),
        _form(jurisdiction=north_branch.pk, photo=photo),
    )
    lost = LostReport.objects.get()
    assert response.status_code == 302 and response.url == lost.get_absolute_url()
    assert lost.reporter == rita and lost.photo.name.endswith(".png")
    assert "juno" not in lost.photo.name  # stored under our own name
    detail = client.get(lost.get_absolute_url()).content.decode()
    assert "Juno" in detail and "program setting" in detail  # the end's basis, labelled
    assert client.get(reverse("impound:lost_report_photo", args=[lost.pk])).status_code == 200
    listing = client.get(reverse("impound:lost_report_list")).content.decode()
    assert lost.get_absolute_url() in listing


@pytest.mark.parametrize(
    "field, value",
    [
        ("lost_on", "2027-01-05"),  # in the future
        ("lost_on", "0001-01-01"),
        ("color", "Black\x00"),
        ("lost_where", "x" * 201),
        ("microchip", "12ab"),
        ("approximate_age_months", "99999"),
        ("contact_phone", ""),  # with the phone preferred
    ],
)
def test_bad_input_is_shown_next_to_its_field(client, rita, north_branch, field, value):
    client.force_login(rita)
    data = _form(jurisdiction=north_branch.pk, contact_preference="phone")
    data["contact_phone"] = "651-555-0123"
    data[field] = value
    response = client.post(reverse("impound:lost_report_new"), data)
    assert response.status_code == 200
    assert field in response.context["form"].errors
    assert not LostReport.objects.exists()


def test_a_photo_that_is_not_an_image_is_refused(client, rita, north_branch):
    client.force_login(rita)
    fake = SimpleUploadedFile("juno.png", b"\x89PNG\r\n\x1a\nnot really", content_type="image/png")
    response = client.post(
        reverse("impound:lost_report_new"), _form(jurisdiction=north_branch.pk, photo=fake)
    )
    assert response.status_code == 200 and "photo" in response.context["form"].errors


def test_the_resident_sees_the_match_as_the_found_page_would(client, matched, rita):
    client.force_login(rita)
    page = client.get(matched.get_absolute_url()).content.decode()
    assert "Main St and 5th Ave" in page and "County Animal Pound" in page
    case = matched.matches.get().case
    for private in (FINDER_NAME, FINDER_ADDRESS, case.number, case.ground_label):
        assert private not in page


def test_renew_and_close_from_the_resident_pages(client, rita, north_branch):
    lost = report(north_branch, rita, when=at(2026, 11, 1, 9), lost_on=date(2026, 10, 30))
    client.force_login(rita)
    response = client.post(reverse("impound:lost_report_renew", args=[lost.pk]))
    assert response.status_code == 302
    lost.refresh_from_db()
    assert lost.expires_on == date(2026, 12, 30)
    assert client.get(reverse("impound:lost_report_close", args=[lost.pk])).status_code == 200
    client.post(reverse("impound:lost_report_close", args=[lost.pk]), {"note": "Found her"})
    lost.refresh_from_db()
    assert lost.status == LostStatus.CLOSED
    assert client.get(reverse("impound:lost_report_renew", args=[lost.pk])).status_code == 405


def test_the_report_page_offers_only_what_its_status_allows(client, rita, north_branch):
    lost = report(north_branch, rita, when=at(2026, 11, 1, 9), lost_on=date(2026, 10, 30))
    renew = reverse("impound:lost_report_renew", args=[lost.pk])
    close = reverse("impound:lost_report_close", args=[lost.pk])
    client.force_login(rita)
    page = client.get(lost.get_absolute_url()).content.decode()
    assert renew in page and close in page
    LostReport.apply_all(LostReport.objects.filter(pk=lost.pk), "expire", at=NOW)
    page = client.get(lost.get_absolute_url()).content.decode()
    assert renew in page and close not in page  # an expired report is renewed, not closed
    client.post(renew)
    client.post(close, {"note": "Found her"})
    page = client.get(lost.get_absolute_url()).content.decode()
    assert renew not in page and close not in page


def test_another_resident_gets_404_on_every_page_of_the_report(client, matched, other_resident):
    client.force_login(other_resident)
    for name in ("lost_report_detail", "lost_report_close", "lost_report_photo"):
        assert client.get(reverse(f"impound:{name}", args=[matched.pk])).status_code == 404
    for name in ("lost_report_renew", "lost_report_close"):
        assert client.post(reverse(f"impound:{name}", args=[matched.pk])).status_code == 404
    listing = client.get(reverse("impound:lost_report_list")).content.decode()
    assert matched.get_absolute_url() not in listing
    matched.refresh_from_db()
    assert matched.status == LostStatus.MATCHED


def test_staff_get_403_on_the_resident_pages_and_a_resident_on_the_staff_list(
    client, matched, clerk, rita
):
    client.force_login(clerk)
    assert client.get(reverse("impound:lost_report_detail", args=[matched.pk])).status_code == 403
    assert client.get(reverse("impound:lost_report_new")).status_code == 403
    client.force_login(rita)
    assert client.get(reverse("impound:lost_reports")).status_code == 403


def test_the_staff_list_shows_the_report_contact_and_case_to_the_city_only(
    client, matched, clerk, glencoe_clerk
):
    case = matched.matches.get().case
    client.force_login(clerk)
    page = client.get(reverse("impound:lost_reports")).content.decode()
    assert "rita@example.org" in page and "651-555-0123" in page
    assert case.get_absolute_url() in page and "Lost reports and likely matches" in page
    client.force_login(glencoe_clerk)
    page = client.get(reverse("impound:lost_reports") + "?status=all").content.decode()
    assert "rita@example.org" not in page and case.get_absolute_url() not in page
    assert client.get(reverse("impound:lost_report_photo", args=[matched.pk])).status_code == 404


def test_pages_make_a_bounded_number_of_queries(
    client, north_branch, pound, officer, rita, django_assert_max_num_queries
):
    for i in range(12):
        take_in(north_branch, pound, officer, at(2026, 11, 29, 8 + i % 8), NB_GROUND)
    others = [make_user(f"res{i}", "resident", email=f"res{i}@example.org") for i in range(8)]
    for who in [rita, *others]:
        for _ in range(2):
            report(north_branch, who, when=NOW)
    assert LostMatch.objects.count() == 18 * 12
    mine = LostReport.objects.filter(reporter=rita).first()
    client.force_login(rita)
    client.get(reverse("impound:lost_report_list"))  # the user's roles, once cached
    for url in (
        reverse("impound:lost_report_list"),
        mine.get_absolute_url(),
        reverse("impound:lost_report_new"),
    ):
        with django_assert_max_num_queries(10):
            assert client.get(url).status_code == 200
    staff = make_user("nora", "officer", [north_branch])
    client.force_login(staff)
    client.get(reverse("impound:lost_reports"))
    for query in ("", "?status=matched", "?status=all", "?status=nonsense&page=99"):
        with django_assert_max_num_queries(10):
            assert client.get(reverse("impound:lost_reports") + query).status_code == 200


def test_the_case_page_shows_the_reports_it_may_answer_to_staff(client, matched, officer):
    case = matched.matches.get().case
    client.force_login(officer)
    page = client.get(case.get_absolute_url()).content.decode()
    assert "Lost reports this animal may answer" in page
    assert "rita@example.org" in page and "Juno" in page
