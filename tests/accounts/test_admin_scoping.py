"""Django admin follows the city rules: a Glencoe-only administrator
walks every registered admin URL and reads nothing of North Branch; the installation's
own rows (beat schedules, lockouts, role groups) are a superuser's; nobody raises their
own roles, cities or superuser flag."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.contrib import admin
from django.urls import NoReverseMatch, reverse

from base.roles import ADMINISTRATOR, CLERK
from impound.models import ImpoundCase, Pound
from notices.services import document_issue
from ordinance.models import ClosedDay, Event, FeeScheduleEntry, Jurisdiction, RuleValue
from tests.conftest import make_user
from tests.impound.factories import make_pound
from tests.impound.helpers import take_in
from tests.notices.conftest import receipt_context

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-11-30T10:00")]
CHICAGO = ZoneInfo("America/Chicago")
MARK = "zznb"


@pytest.fixture
def gl_admin(glencoe):
    return make_user("gladys", ADMINISTRATOR, [glencoe])


@pytest.fixture
def north_branch_rows(north_branch, clerk, officer):
    """One row of each scoped model that only North Branch may see, carrying MARK."""
    pound = make_pound(north_branch, name="Zznb Pound")
    case = take_in(
        north_branch,
        pound,
        officer,
        datetime(2026, 11, 30, 9, tzinfo=CHICAGO),
        "unlicensed_at_large",
        color="Zznbcolor",
    )
    document = document_issue(
        kind="receipt",
        template="sample_receipt.html",
        context=receipt_context(),
        jurisdiction=north_branch,
        actor=clerk,
        title="Zznb receipt",
        number="NB-ZZNB-1",
        now=datetime(2026, 11, 30, 9, tzinfo=CHICAGO),
    )
    return {
        Jurisdiction: north_branch,
        Pound: pound,
        ImpoundCase: case,
        type(document): document,
        Event: Event.record(
            "test.zznb", north_branch, jurisdiction=north_branch, summary="Zznb event"
        ),
        ClosedDay: ClosedDay.objects.create(
            jurisdiction=north_branch, date=date(2026, 12, 24), reason="Zznb closed"
        ),
        FeeScheduleEntry: FeeScheduleEntry.objects.create(
            jurisdiction=north_branch,
            code="zznb",
            description="Zznb fee",
            amount="1.00",
            effective_from=date(2026, 1, 1),
            resolution="Res. zznb",
        ),
        RuleValue: RuleValue.objects.filter(jurisdiction=north_branch).first(),
        type(clerk): make_user("zznbclerk", CLERK, [north_branch]),
    }


def url(model, view, *args):
    try:
        return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)
    except NoReverseMatch:
        return None


def test_a_glencoe_administrator_reads_nothing_of_north_branch(
    client_as, gl_admin, north_branch_rows
):
    client = client_as(gl_admin)
    pages = 0
    for model, model_admin in admin.site._registry.items():
        scoped = getattr(model_admin, "city_scoped", False)
        for view in ("changelist", "add"):
            address = url(model, view)
            response = client.get(address)
            # A scoped list opens; an add page opens or is refused (read-only records,
            # cities); the installation's own rows are refused whole.
            allowed = {200} if view == "changelist" else {200, 403}
            assert response.status_code in (allowed if scoped else {403}), (
                address,
                response.status_code,
            )
            assert MARK not in response.content.decode().lower(), address
            pages += 1
        if scoped and model_admin.search_fields:
            search = client.get(url(model, "changelist"), {"q": "zznb"})
            assert search.context["cl"].result_count == 0, model
        obj = north_branch_rows.get(model) or model._default_manager.first()
        if obj is None:
            continue
        for view in ("change", "history", "delete"):
            address = url(model, view, obj.pk)
            if address is None:
                continue
            response = client.get(address)
            assert response.status_code in (302, 403, 404), (address, response.status_code)
            assert MARK not in response.content.decode().lower(), address
            if response.status_code == 302:
                assert "/admin/" in response["Location"] and str(obj.pk) not in response["Location"]
            pages += 1
    assert pages > 40
    # Autocomplete answers from the scoped lists too.
    response = client.get(
        reverse("admin:autocomplete"),
        {"app_label": "impound", "model_name": "pound", "field_name": "jurisdictions", "term": "Z"},
    )
    assert MARK not in response.content.decode().lower()


def test_an_administrator_cannot_raise_their_own_roles_cities_or_superuser(
    client_as, gl_admin, north_branch, glencoe
):
    client = client_as(gl_admin)
    change = reverse("admin:accounts_user_change", args=[gl_admin.pk])
    page = client.get(change).content.decode()
    assert 'name="is_superuser"' not in page and 'name="jurisdictions"' not in page
    assert 'name="groups"' not in page
    client.post(
        change,
        {
            "username": "gladys",
            "first_name": "Gladys",
            "is_superuser": "on",
            "is_staff": "on",
            "jurisdictions": [north_branch.pk, glencoe.pk],
            "date_joined_0": "2026-11-30",
            "date_joined_1": "10:00:00",
        },
    )
    gl_admin.refresh_from_db()
    assert not gl_admin.is_superuser
    assert list(gl_admin.jurisdictions.all()) == [glencoe]


def test_an_administrator_grants_only_their_own_cities_and_never_superuser(
    client_as, gl_admin, north_branch, glencoe
):
    both = make_user("bea", CLERK, [north_branch, glencoe])
    client = client_as(gl_admin)
    change = reverse("admin:accounts_user_change", args=[both.pk])
    page = client.get(change).content.decode()
    assert 'name="is_superuser"' not in page and "North Branch" not in page
    response = client.post(
        change,
        {
            "username": "bea",
            "first_name": "Bea",
            "is_active": "on",
            "jurisdictions": [glencoe.pk],
            "groups": [g.pk for g in both.groups.all()],
            "date_joined_0": "2026-11-30",
            "date_joined_1": "10:00:00",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    both.refresh_from_db()
    # North Branch stays: it is not hers to take away.
    assert set(both.jurisdictions.all()) == {north_branch, glencoe}
    assert not both.is_superuser


def test_a_superuser_sees_every_city_and_the_installations_rows(client, north_branch_rows, glencoe):
    from accounts.models import User

    root = User.objects.create_superuser("root", "root@example.org", "a-long-pass-phrase-here")
    make_user("gladys2", ADMINISTRATOR, [glencoe])
    client.force_login(root)
    assert MARK in client.get(url(ImpoundCase, "changelist")).content.decode().lower()
    assert client.get(reverse("admin:auth_group_changelist")).status_code == 200
