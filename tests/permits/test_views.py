"""Permit pages as each persona uses them: Glencoe's clerk through a horse permit from
application to PDF, the refusals next to their fields, North Branch's plain statement,
and 403/404 for the wrong role or the other city."""

from datetime import date

import pytest
from django.urls import reverse

from permits.models import HorsePermit, HorseStatus, TemporaryPermit, TemporaryStatus

from .helpers import approved_horse_permit, horse_fields, set_horse_fee, temporary_fields

pytestmark = pytest.mark.django_db


def _post_data(fields):
    return {k: ("on" if v is True else "" if v is False else str(v)) for k, v in fields.items()}


def _text(response):
    return response.content.decode()


@pytest.mark.clock("2026-05-01T09:00")
def test_the_clerk_takes_a_horse_permit_from_application_to_pdf(client_as, glencoe, glencoe_clerk):
    client = client_as(glencoe_clerk)
    url = reverse("permits:horse_apply")
    refused = client.post(url, _post_data(horse_fields(horses=3)))
    assert refused.status_code == 200
    assert "at most 2 for 0.6 acre" in _text(refused) and "Glencoe 702(e)" in _text(refused)
    assert 'value="Lot 4, Block 2' in _text(refused) or "Lot 4, Block 2" in _text(refused)
    assert not HorsePermit.objects.exists()

    created = client.post(url, _post_data(horse_fields()))
    permit = HorsePermit.objects.get()
    assert created.status_code == 302 and created.url == permit.get_absolute_url()

    detail = reverse("permits:horse_detail", args=[permit.pk])
    client.post(
        reverse("permits:horse_checks", args=[permit.pk]),
        {"shelter_ok": "on", "grazing_ok": "on", "sanitation_ok": "on", "checks_note": "ok"},
    )
    council = reverse("permits:horse_council", args=[permit.pk])
    no_resolution = client.post(
        council, {"council_decision": "approved", "council_date": "2026-04-27"}
    )
    assert no_resolution.status_code == 200 and "This field is required" in _text(no_resolution)
    client.post(
        council,
        {
            "council_decision": "approved",
            "council_date": "2026-04-27",
            "resolution_number": "Res. 2026-31",
        },
    )
    permit.refresh_from_db()
    assert permit.status == HorseStatus.APPROVED

    issue = reverse("permits:horse_issue", args=[permit.pk])
    no_fee = client.post(issue)
    assert no_fee.status_code == 200
    assert "not set" in _text(no_fee) and "Glencoe 702" in _text(no_fee)
    set_horse_fee(glencoe, "0.00")
    assert client.post(issue).status_code == 302
    page = _text(client.get(detail))
    permit.refresh_from_db()
    assert permit.expires_on == date(2027, 4, 15)
    assert "Apr 15, 2027" in page and "May 1, 2026" in page
    pdf = client.get(reverse("notices:document_pdf", args=[permit.document.pk]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"


@pytest.mark.clock("2027-03-10T09:00")
def test_issuing_in_march_warns_that_the_permit_lasts_weeks(client_as, glencoe, glencoe_clerk):
    set_horse_fee(glencoe, "10.00")
    permit = approved_horse_permit(glencoe, glencoe_clerk, on=date(2027, 3, 8))
    client = client_as(glencoe_clerk)
    before = _text(client.get(reverse("permits:horse_detail", args=[permit.pk])))
    assert "it lasts only 5 weeks" in before
    response = client.post(reverse("permits:horse_issue", args=[permit.pk]), follow=True)
    assert "it lasts only 5 weeks" in _text(response)


@pytest.mark.clock("2026-05-20T09:00")
def test_a_31_day_temporary_permit_is_refused_next_to_the_field(client_as, glencoe_clerk):
    client = client_as(glencoe_clerk)
    url = reverse("permits:temporary_apply")
    response = client.post(url, _post_data(temporary_fields(ends_on=date(2026, 7, 1))))
    assert response.status_code == 200
    assert "Glencoe 701 Subd. 32(A)" in _text(response) and "31 days" in _text(response)
    assert not TemporaryPermit.objects.exists()
    response = client.post(url, _post_data(temporary_fields()))
    permit = TemporaryPermit.objects.get()
    assert response.status_code == 302
    decide = reverse("permits:temporary_decide", args=[permit.pk])
    response = client.post(
        decide,
        {
            "decision": "approved",
            "decided_by_name": "Mark Larson",
            "decided_by_capacity": "City Administrator",
            "decided_on": "2026-05-20",
        },
    )
    assert response.status_code == 302
    permit.refresh_from_db()
    assert permit.status == TemporaryStatus.ISSUED and permit.document_id
    page = _text(client.get(permit.get_absolute_url()))
    assert (
        "Mark Larson" in page and reverse("notices:document_pdf", args=[permit.document_id]) in page
    )


@pytest.mark.parametrize(
    "field, value",
    [
        ("pasture_acres", "lots"),
        ("pasture_acres", "-1"),
        ("pasture_acres", "1e9999"),
        ("horses", "-2"),
        ("residence_distance_ft", "far"),
        ("fence_material", "hedge"),
        ("applicant_name", ""),
        ("applicant_email", "not-an-address"),
    ],
)
@pytest.mark.clock("2026-05-01T09:00")
def test_bad_horse_input_is_refused_next_to_its_field(client_as, glencoe_clerk, field, value):
    data = _post_data(horse_fields())
    data[field] = value
    response = client_as(glencoe_clerk).post(reverse("permits:horse_apply"), data)
    assert response.status_code == 200
    assert response.context["form"].errors.get(field)
    assert not HorsePermit.objects.exists()


@pytest.mark.parametrize("field, value", [("starts_on", "June 1st"), ("ends_on", "2026-13-40")])
@pytest.mark.clock("2026-05-20T09:00")
def test_bad_temporary_dates_are_refused_next_to_their_field(
    client_as, glencoe_clerk, field, value
):
    data = _post_data(temporary_fields())
    data[field] = value
    response = client_as(glencoe_clerk).post(reverse("permits:temporary_apply"), data)
    assert response.status_code == 200 and response.context["form"].errors.get(field)


@pytest.mark.clock("2026-05-01T09:00")
def test_north_branch_sees_a_plain_statement_and_no_form(client_as, clerk):
    client = client_as(clerk)
    for name in ("permits:list", "permits:horse_apply", "permits:temporary_apply"):
        response = client.get(reverse(name))
        assert response.status_code == 200
        text = _text(response)
        assert "has no such permit" in text
        assert "<form" not in text.split("<main")[-1].split("</main>")[0]
        assert "Glencoe" not in text and "702" not in text
    response = client.post(reverse("permits:horse_apply"), _post_data(horse_fields()))
    assert response.status_code == 200 and not HorsePermit.objects.exists()
    assert reverse("permits:list") not in _text(client.get(reverse("licensing:search")))


@pytest.mark.clock("2026-05-01T09:00")
def test_the_menu_offers_permits_to_glencoe_staff(client_as, glencoe_clerk):
    page = _text(client_as(glencoe_clerk).get(reverse("licensing:search")))
    assert reverse("permits:list") in page


@pytest.mark.clock("2026-05-01T09:00")
def test_wrong_role_gets_403_and_other_city_404(
    client, glencoe, glencoe_clerk, clerk, officer, resident
):
    permit = approved_horse_permit(glencoe, glencoe_clerk, on=date(2026, 5, 1))
    detail = reverse("permits:horse_detail", args=[permit.pk])
    issue = reverse("permits:horse_issue", args=[permit.pk])
    client.force_login(resident)
    for url in (reverse("permits:list"), detail, reverse("permits:horse_apply")):
        assert client.get(url).status_code == 403
    client.force_login(officer)  # the officer may view, not act
    assert client.get(detail).status_code == 200
    assert client.get(reverse("permits:horse_apply")).status_code == 403
    assert client.post(issue).status_code == 403
    client.force_login(clerk)  # North Branch's clerk: not theirs to see
    assert client.get(detail).status_code == 404
    assert client.post(issue).status_code == 404
    client.logout()
    assert client.get(detail).status_code == 302


@pytest.mark.clock("2026-05-01T09:00")
def test_the_list_filters_by_kind_and_status(client_as, glencoe, glencoe_clerk):
    approved_horse_permit(glencoe, glencoe_clerk, on=date(2026, 5, 1))
    client = client_as(glencoe_clerk)
    both = _text(client.get(reverse("permits:list")))
    assert "Zzgl Hanna Horseowner" in both
    only_temporary = _text(client.get(reverse("permits:list") + "?kind=temporary"))
    assert "Zzgl Hanna Horseowner" not in only_temporary
    issued = _text(client.get(reverse("permits:list") + "?status=issued"))
    assert "Zzgl Hanna Horseowner" not in issued
    approved = _text(client.get(reverse("permits:list") + "?kind=horse&status=approved"))
    assert "Zzgl Hanna Horseowner" in approved
