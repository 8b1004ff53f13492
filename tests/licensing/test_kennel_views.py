"""Kennel pages: list, apply, detail and actions; access (403/404); bounded queries."""

from datetime import date

import pytest
from django.urls import reverse

from licensing.models import KennelLicense, KennelStatus
from licensing.services.kennels.applications import KennelRequest, kennel_apply, kennel_premises_for
from tests.licensing.factories import OwnerFactory


def application(jurisdiction, user, **extra):
    owner = OwnerFactory(jurisdiction=jurisdiction)
    return kennel_apply(
        owner=owner,
        premises=kennel_premises_for(owner),
        application=KennelRequest(
            business_nature=extra.get("business_nature", "Boarding"),
            dog_count=5,
            cat_count=0,
            cup_reference="CUP-1",
        ),
        actor=user,
        on=date(2026, 3, 2),
    )


def test_a_clerk_records_an_application(client_as, clerk, north_branch):
    owner = OwnerFactory(jurisdiction=north_branch)
    response = client_as(clerk).post(
        reverse("licensing:kennel_apply"),
        {
            "owner": owner.pk,
            "business_nature": "Breeding",
            "dog_count": 8,
            "cat_count": 0,
            "cup_reference": "CUP-77",
        },
    )
    kennel = KennelLicense.objects.get()
    assert response.status_code == 302 and response.url == kennel.get_absolute_url()
    assert kennel.premises.address_line == owner.address_line and kennel.dog_count == 8


def test_bad_input_keeps_what_was_typed_and_says_why(client_as, clerk, north_branch):
    owner = OwnerFactory(jurisdiction=north_branch)
    response = client_as(clerk).post(
        reverse("licensing:kennel_apply"),
        {
            "owner": owner.pk,
            "business_nature": "Boarding kennel",
            "dog_count": 0,
            "cat_count": 0,
            "cup_reference": "CUP-5",
        },
    )
    assert response.status_code == 200
    assert b"Enter how many dogs or cats" in response.content
    assert b"Boarding kennel" in response.content and b"CUP-5" in response.content


def test_an_owner_of_another_city_cannot_be_chosen(client_as, clerk, glencoe):
    other = OwnerFactory(jurisdiction=glencoe)
    response = client_as(clerk).post(
        reverse("licensing:kennel_apply"), {"owner": other.pk, "dog_count": 5, "cat_count": 0}
    )
    assert response.status_code == 200 and not KennelLicense.objects.exists()


def test_the_detail_page_shows_steps_fee_and_citation(client_as, clerk, north_branch):
    kennel = application(north_branch, clerk)
    response = client_as(clerk).get(kennel.get_absolute_url())
    body = response.content.decode()
    assert response.status_code == 200
    assert "CUP approved by Council" in body and "not yet recorded" in body
    assert "Demo Res. 2025-01" in body  # fee with its authority


def test_recording_a_step_through_the_page(client_as, glencoe_clerk, glencoe):
    kennel = application(glencoe, glencoe_clerk)
    url = reverse("licensing:kennel_action", args=[kennel.pk, "decide"])
    response = client_as(glencoe_clerk).post(
        url,
        {
            "decide-step": "City Administrator review",
            "decide-outcome": "denied",
            "decide-decided_by_name": "Ann Admin",
            "decide-decided_by_capacity": "City Administrator",
            "decide-decided_on": "2026-03-05",
            "decide-reasons": "Not zoned for kennels.",
            "decide-notified_on": "2026-03-06",
        },
    )
    assert response.status_code == 302
    kennel.refresh_from_db()
    assert kennel.status == KennelStatus.DENIED and kennel.appeal_deadline == date(2026, 3, 16)
    page = client_as(glencoe_clerk).get(kennel.get_absolute_url()).content.decode()
    assert "Mar 16, 2026" in page and "Glencoe 701 Subd. 4(E)" in page


def test_a_refused_action_re_renders_with_the_reason_and_the_input(
    client_as, glencoe_clerk, glencoe
):
    kennel = application(glencoe, glencoe_clerk)
    url = reverse("licensing:kennel_action", args=[kennel.pk, "decide"])
    response = client_as(glencoe_clerk).post(
        url,
        {
            "decide-step": "City Administrator review",
            "decide-outcome": "conditions",
            "decide-decided_by_name": "Ann Admin",
            "decide-decided_by_capacity": "Administrator",
            "decide-decided_on": "2026-03-05",
            "decide-reasons": "Typed reasons",
        },
    )
    assert response.status_code == 400
    assert b"Write the conditions." in response.content and b"Typed reasons" in response.content


def test_the_glencoe_page_warns_that_no_term_is_set(client_as, glencoe_clerk, glencoe):
    kennel = application(glencoe, glencoe_clerk)
    body = client_as(glencoe_clerk).get(kennel.get_absolute_url()).content.decode()
    assert "blank in the ordinance" in body and "Glencoe 701 Subd. 4" in body


def test_another_citys_kennel_is_404(client_as, clerk, glencoe, glencoe_clerk):
    kennel = application(glencoe, glencoe_clerk)
    client = client_as(clerk)
    assert client.get(kennel.get_absolute_url()).status_code == 404
    url = reverse("licensing:kennel_action", args=[kennel.pk, "pay"])
    assert client.post(url, {"pay-method": "cash"}).status_code == 404


@pytest.mark.parametrize("persona", ["officer", "resident"])
def test_other_roles_get_403(client_as, request, persona, north_branch, clerk):
    kennel = application(north_branch, clerk)
    client = client_as(request.getfixturevalue(persona))
    assert client.get(reverse("licensing:kennel_list")).status_code == 403
    assert client.get(kennel.get_absolute_url()).status_code == 403


def test_list_and_detail_queries_are_bounded(
    client_as, administrator, north_branch, glencoe, django_assert_max_num_queries
):
    kennels = [application(city, administrator) for city in [north_branch, glencoe] * 150]
    client = client_as(administrator)
    with django_assert_max_num_queries(15):
        response = client.get(reverse("licensing:kennel_list"))
    assert response.status_code == 200 and b"North Branch" in response.content
    with django_assert_max_num_queries(30):
        assert client.get(kennels[0].get_absolute_url()).status_code == 200


def test_steps_recorded_through_the_page_approve_and_issue(client_as, glencoe_clerk, glencoe):
    """Regression: the page's prefetched decisions must not hide the step just recorded."""
    kennel = application(glencoe, glencoe_clerk)
    client = client_as(glencoe_clerk)
    for step in ["City Administrator review", "Planning Division zoning referral", "Issue or deny"]:
        response = client.post(
            reverse("licensing:kennel_action", args=[kennel.pk, "decide"]),
            {
                "decide-step": step,
                "decide-outcome": "approved",
                "decide-decided_by_name": "Ann Admin",
                "decide-decided_by_capacity": "Administrator",
                "decide-decided_on": "2026-03-05",
                "decide-reasons": "Met.",
            },
        )
        assert response.status_code == 302
    kennel.refresh_from_db()
    assert kennel.status == KennelStatus.APPROVED
    response = client.post(
        reverse("licensing:kennel_action", args=[kennel.pk, "issue"]),
        {"issue-method": "cash", "issue-amount_tendered": "500"},
    )
    kennel.refresh_from_db()
    assert response.status_code == 302 and kennel.status == KennelStatus.ACTIVE
    response = client.post(reverse("licensing:kennel_document", args=[kennel.pk]))
    assert response.status_code == 302 and "/pdf/" in response.url
