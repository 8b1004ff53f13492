"""A resident links their account to the owner record the clerk keeps.

An exact match of the license number or a currently issued tag's number, the owner's
last name (any case) and ZIP code (first five digits) sets ``Owner.user``; every try is
a ``LinkAttempt`` row, tries are limited per hour (settings.LINK_ATTEMPTS_PER_HOUR, a
security setting), and an owner linked to someone else goes to the clerk of that city,
who links or unlinks on the owner page (style.md "Deny by default"; REC-18: each change
is an Event and a history row). The licenses are issued through the counter's service
(LIC-01, LIC-08 tags, REC-01 receipts).
"""

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from base.roles import RESIDENT
from licensing.models import LinkAttempt, Owner
from licensing.services import licenses as license_svc
from licensing.services import linking
from licensing.services import registry as registry_svc
from licensing.services.assessment import license_term
from licensing.services.tags import tag_replace_lost, tag_stock_receive
from ordinance.models import Event
from ordinance.refusals import Refused
from tests.conftest import make_user
from tests.upload_files import pdf_bytes

CHICAGO = ZoneInfo("America/Chicago")
NOW = datetime(2026, 3, 2, 10, 0, tzinfo=CHICAGO)
TODAY = NOW.date()
PDF = pdf_bytes()
Outcome = LinkAttempt.Outcome


def issue_license(
    city, clerk, *, on=TODAY, last_name="Lindgren", postal_code="55056-1234", user=None
):
    """An owner with a dog licensed at the counter on ``on`` (license, tag, receipt)."""
    _start, expires_on, _renewal = license_term(jurisdiction=city, on=on)
    tag_stock_receive(
        jurisdiction=city,
        year=expires_on.year,
        first_number=101,
        last_number=120,
        received_on=on,
        vendor="Minnesota Tag & Stamp",
        actor=clerk,
    )
    owner = registry_svc.owner_create(
        jurisdiction=city,
        actor=clerk,
        user=user,
        first_name="Lena",
        last_name=last_name,
        address_line="12 Birch Street",
        city=city.short_name,
        state="MN",
        postal_code=postal_code,
    )
    animal = registry_svc.animal_register(
        owner=owner,
        actor=clerk,
        on=on,
        species="dog",
        name="Pepper",
        breed="Beagle",
        color="Tricolor",
        sex="female",
        date_of_birth=date(2021, 5, 1),
    )
    registry_svc.vaccination_record(
        animal=animal,
        actor=clerk,
        on=on,
        vaccinated_on=on - timedelta(days=90),
        duration_years=3,
        veterinarian_name="Dr. Ann Holm",
        veterinarian_license="MN-VET-10442",
        rabies_tag_number="R000777",
        certificate=SimpleUploadedFile("cert.pdf", PDF, content_type="application/pdf"),
    )
    result = license_svc.license_issue(
        animal=animal, owner=owner, actor=clerk, on=on, method="cash", now=now_at(on)
    )
    return owner, result


def now_at(day):
    return NOW if day == NOW.date() else datetime.combine(day, NOW.timetz())


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def licensed(north_branch, clerk):
    with time_machine.travel(NOW, tick=False):
        return issue_license(north_branch, clerk)


def entry(number, last_name="Lindgren", postal_code="55056"):
    return linking.LinkEntry(number=str(number), last_name=last_name, postal_code=postal_code)


def attempt(user, number, **kwargs):
    return linking.link_attempt(user=user, entry=entry(number, **kwargs), ip_address="192.0.2.7")


# --- The service -------------------------------------------------------------------------


def test_the_license_number_last_name_and_zip_link_the_owner(licensed, resident):
    owner, result = licensed
    tried = attempt(resident, result.license.number.lower(), last_name="LINDGREN")
    owner.refresh_from_db()
    assert tried.outcome == Outcome.LINKED and tried.owner == owner
    assert owner.user == resident
    assert (tried.ip_address, tried.number_entered) == ("192.0.2.7", result.license.number.lower())
    event = Event.objects.for_object(owner).get(action="licensing.owner.account_linked")
    assert event.actor == resident and event.data["user"] == resident.pk
    latest = owner.history.latest()
    assert latest.user_id == resident.pk and latest.history_change_reason.startswith("Linked")


def test_the_tag_number_links_the_owner_too(licensed, resident):
    owner, result = licensed
    tried = attempt(resident, result.tag.number, postal_code="55056-9999")
    assert tried.outcome == Outcome.LINKED
    owner.refresh_from_db()
    assert owner.user == resident


@pytest.mark.parametrize(
    "change",
    [
        {"postal_code": "55057"},  # wrong ZIP
        {"last_name": "Lindgreen"},  # wrong last name
        {"number": "999"},  # no such tag
        {"number": "2026-9999"},  # no such license
    ],
)
def test_anything_wrong_links_nothing(licensed, resident, change):
    owner, result = licensed
    fields = {"number": result.license.number, **change}
    tried = attempt(resident, fields.pop("number"), **fields)
    owner.refresh_from_db()
    assert tried.outcome == Outcome.NO_MATCH and tried.owner is None
    assert owner.user is None
    assert not Event.objects.filter(action="licensing.owner.account_linked").exists()


def test_a_lost_tag_no_longer_links(licensed, resident, clerk):
    owner, result = licensed
    with time_machine.travel(NOW + timedelta(days=1), tick=False):
        tag_replace_lost(
            license=result.license, actor=clerk, on=NOW.date() + timedelta(days=1), method="cash"
        )
    assert attempt(resident, result.tag.number).outcome == Outcome.NO_MATCH


def test_the_limit_counts_the_guesses_of_the_last_hour(licensed, resident, settings):
    settings.LINK_ATTEMPTS_PER_HOUR = 3
    owner, result = licensed
    with time_machine.travel(NOW, tick=False) as clock:
        for _ in range(3):
            assert attempt(resident, "2026-0000").outcome == Outcome.NO_MATCH
        # The right answer now is refused too, and not even looked up.
        limited = attempt(resident, result.license.number)
        assert limited.outcome == Outcome.LIMITED and limited.owner is None
        clock.shift(timedelta(minutes=59))
        assert attempt(resident, result.license.number).outcome == Outcome.LIMITED
        clock.shift(timedelta(minutes=2))
        assert attempt(resident, result.license.number).outcome == Outcome.LINKED
    assert LinkAttempt.objects.filter(user=resident).count() == 6
    owner.refresh_from_db()
    assert owner.user == resident


def test_another_account_cannot_take_a_linked_owner(licensed, resident, other_resident):
    owner, result = licensed
    attempt(resident, result.license.number)
    taken = attempt(other_resident, result.license.number)
    owner.refresh_from_db()
    assert taken.outcome == Outcome.TAKEN and taken.owner == owner
    assert owner.user == resident
    assert list(linking.pending_attempts(owner)) == [taken]
    # Linking again to the same account is a no-op, not a request.
    assert attempt(resident, result.license.number).outcome == Outcome.LINKED
    assert Event.objects.filter(action="licensing.owner.account_linked").count() == 1


# --- The resident's page -------------------------------------------------------------


def test_the_resident_home_offers_linking_until_something_is_linked(client, resident, licensed):
    client.force_login(resident)
    home = client.get(reverse("licensing:portal_home")).content.decode()
    assert "Link your animals" in home and reverse("licensing:portal_link") in home
    owner, result = licensed
    response = client.post(
        reverse("licensing:portal_link"),
        {"number": result.license.number, "last_name": "lindgren", "postal_code": "55056"},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == reverse("licensing:portal_home")
    body = response.content.decode()
    assert "Pepper" in body and "Your account is linked" in body
    assert 'id="link-heading"' not in body


def test_a_wrong_entry_says_so_next_to_the_form_and_keeps_what_was_typed(
    client, resident, licensed
):
    client.force_login(resident)
    response = client.post(
        reverse("licensing:portal_link"),
        {"number": "2026-0404", "last_name": "Lindgren", "postal_code": "55056"},
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert "No license or tag matches" in body
    assert 'value="2026-0404"' in body and 'value="Lindgren"' in body


def test_a_short_zip_is_refused_next_to_its_field(client, resident, cities):
    client.force_login(resident)
    response = client.post(
        reverse("licensing:portal_link"),
        {"number": "2026-0001", "last_name": "Lindgren", "postal_code": "550"},
    )
    assert response.status_code == 400
    assert "Enter the five digits of your ZIP code." in response.content.decode()
    assert not LinkAttempt.objects.exists()


def test_the_limited_resident_is_told_to_wait(client, resident, licensed, settings):
    settings.LINK_ATTEMPTS_PER_HOUR = 1
    client.force_login(resident)
    data = {"number": "2026-0404", "last_name": "Lindgren", "postal_code": "55056"}
    client.post(reverse("licensing:portal_link"), data)
    response = client.post(reverse("licensing:portal_link"), data)
    assert "Too many tries in the last hour" in response.content.decode()
    assert LinkAttempt.objects.filter(outcome=Outcome.LIMITED).count() == 1


def test_a_taken_owner_tells_the_resident_the_clerk_will_review(
    client, other_resident, licensed, resident
):
    owner, result = licensed
    attempt(resident, result.license.number)
    client.force_login(other_resident)
    response = client.post(
        reverse("licensing:portal_link"),
        {"number": result.license.number, "last_name": "Lindgren", "postal_code": "55056"},
    )
    assert response.status_code == 200
    assert "The clerk will review your request" in response.content.decode()
    assert "Pepper" not in response.content.decode()


def test_staff_get_403_on_the_resident_page(client, clerk, officer, cities):
    for user in (clerk, officer):
        client.force_login(user)
        assert client.get(reverse("licensing:portal_link")).status_code == 403


# --- The clerk's decisions on the owner page ------------------------------------------------


@pytest.fixture
def taken(licensed, resident, other_resident):
    owner, result = licensed
    attempt(resident, result.license.number)
    return owner, attempt(other_resident, result.license.number)


def _post(client, owner, **data):
    return client.post(reverse("licensing:owner_account", args=[owner.pk]), data)


def test_the_owner_page_shows_the_account_and_the_waiting_request(client, clerk, taken):
    owner, request = taken
    client.force_login(clerk)
    body = client.get(reverse("licensing:owner_detail", args=[owner.pk])).content.decode()
    assert "rita" in body and "Unlink this account" in body
    assert "Requests to link an online account" in body and "Link bob" in body


def test_the_clerk_links_the_waiting_account(client, clerk, taken, other_resident):
    owner, request = taken
    client.force_login(clerk)
    response = _post(client, owner, action="link", attempt=request.pk)
    assert response.status_code == 302 and response.url == owner.get_absolute_url()
    owner.refresh_from_db()
    request.refresh_from_db()
    assert owner.user == other_resident
    assert request.resolved_by == clerk and request.resolved_at is not None
    event = Event.objects.for_object(owner).filter(action="licensing.owner.account_linked")
    assert event.first().actor == clerk and event.first().data["previous_user"] is not None
    assert not linking.pending_attempts(owner).exists()
    # Done once: the same request cannot be used again.
    assert _post(client, owner, action="link", attempt=request.pk).status_code == 404


def test_the_clerk_unlinks_the_current_account(client, clerk, taken, resident):
    owner, request = taken
    client.force_login(clerk)
    assert _post(client, owner, action="unlink").status_code == 302
    owner.refresh_from_db()
    assert owner.user is None
    event = Event.objects.for_object(owner).get(action="licensing.owner.account_unlinked")
    assert event.actor == clerk and event.data["previous_user"] == resident.pk
    assert owner.history.latest().history_change_reason == "Unlinked by the clerk"
    # The request still waits: the clerk may now link it, or dismiss it.
    assert list(linking.pending_attempts(owner)) == [request]
    response = client.post(
        reverse("licensing:owner_account", args=[owner.pk]), {"action": "unlink"}, follow=True
    )
    assert "No online account is linked." in response.content.decode()


def test_the_clerk_dismisses_a_request(client, clerk, taken, resident):
    owner, request = taken
    client.force_login(clerk)
    assert _post(client, owner, action="dismiss", attempt=request.pk).status_code == 302
    owner.refresh_from_db()
    assert owner.user == resident and not linking.pending_attempts(owner).exists()
    assert Event.objects.filter(action="licensing.owner.account_request_dismissed").exists()


def test_bad_input_to_the_clerks_action_is_a_404_never_a_500(client, clerk, taken):
    owner, request = taken
    client.force_login(clerk)
    for data in ({"action": "link", "attempt": "x"}, {"action": "link"}, {"action": "zap"}):
        assert _post(client, owner, **data).status_code == 404, data


def test_the_other_citys_clerk_gets_404(client, glencoe_clerk, taken, resident):
    owner, request = taken
    client.force_login(glencoe_clerk)
    assert _post(client, owner, action="link", attempt=request.pk).status_code == 404
    assert _post(client, owner, action="unlink").status_code == 404
    owner.refresh_from_db()
    assert owner.user == resident


def test_residents_and_officers_get_403_on_the_clerks_actions(
    client, taken, officer, other_resident, resident
):
    owner, request = taken
    for user in (officer, other_resident):
        client.force_login(user)
        assert _post(client, owner, action="link", attempt=request.pk).status_code == 403
        assert _post(client, owner, action="unlink").status_code == 403
    owner.refresh_from_db()
    assert owner.user == resident


def test_the_service_refuses_a_clerk_of_another_city(glencoe_clerk, taken):
    owner, request = taken
    with pytest.raises(Refused, match="You do not serve"):
        linking.owner_account_unlink(owner=owner, actor=glencoe_clerk)


def test_a_new_resident_owns_nothing_until_linked(client, cities, licensed):
    newcomer = make_user("nina", RESIDENT)
    client.force_login(newcomer)
    owner, _ = licensed
    assert (
        client.get(reverse("licensing:portal_animal", args=[owner.animals.get().pk])).status_code
        == 404
    )
    assert not Owner.objects.filter(user=newcomer).exists()


def test_the_pages_read_a_bounded_number_of_queries(client, resident, clerk, taken, licensed):
    """The resident's page reads at most ten; the owner page reads the waiting requests
    in one query, however many there are (it read 14 before them: standing, limits,
    history)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    owner, request = taken
    client.force_login(resident)
    with CaptureQueriesContext(connection) as link_page:
        assert client.get(reverse("licensing:portal_link")).status_code == 200
    assert len(link_page) <= 10
    client.force_login(clerk)
    url = reverse("licensing:owner_detail", args=[owner.pk])
    client.get(url)  # the clerk's row, roles and cities and the rules: cached from here
    with CaptureQueriesContext(connection) as one:
        client.get(url)
    for name in ("tess", "theo", "tim"):
        attempt(make_user(name, RESIDENT), licensed[1].license.number)
    with CaptureQueriesContext(connection) as four:
        body = client.get(url).content.decode()
    assert "Link tim" in body and len(four) == len(one) <= 10
