"""Changes residents report, applied by the clerk with the counter's
own services: a new address (LIC-11, late after North Branch Sec. 6-61's 30 days; the
new premises' limit, KEN-01), a death (closes the license, the animal deceased), a new
owner (LIC-12: the new owner accepts on their own account, then the transfer fee of
North Branch Sec. 6-65(d)), a lost tag (LIC-10: the duplicate-tag fee of Sec. 6-63).

Personas: the resident who owns the dog, another resident, the clerk, the Glencoe clerk,
the officer.
"""

from datetime import date

import pytest
import time_machine
from django.urls import reverse

from licensing.models import (
    AnimalStatus,
    ChangeKind,
    ChangeStatus,
    LicenseStatus,
    Owner,
    ReportedChange,
    TagStatus,
)
from licensing.services import changes as svc
from licensing.services.licenses import license_issue
from ordinance.models import Event
from ordinance.refusals import Refused
from tests.licensing.factories import (
    AnimalFactory,
    OwnerFactory,
    PremisesFactory,
    RabiesVaccinationFactory,
)
from tests.licensing.license_factories import TagStockFactory

NOW = "2026-03-02 10:00 -06:00"  # a Monday inside the 2026 license year
TODAY = date(2026, 3, 2)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def frozen():
    with time_machine.travel(NOW, tick=False):
        yield


@pytest.fixture
def owner(north_branch, resident):
    resident.email = "rita@example.org"
    resident.save()
    return OwnerFactory(
        jurisdiction=north_branch,
        user=resident,
        first_name="Rita",
        last_name="Resident",
        address_line="38520 Grand Avenue",
        email="rita@example.org",
    )


@pytest.fixture
def license(north_branch, clerk, owner):
    TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2026, last_number=20)
    dog = AnimalFactory(jurisdiction=north_branch, owner=owner, name="Biscuit")
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))
    return license_issue(
        animal=dog, owner=owner, actor=clerk, on=date(2026, 1, 15), method="cash"
    ).license


@pytest.fixture
def dog(license):
    return license.animal


def report_url(dog, kind):
    return reverse("licensing:change_report", args=[dog.pk, kind])


def report(dog, resident, kind, happened_on=date(2026, 2, 20), **details):
    return svc.change_report(
        animal=dog, kind=kind, happened_on=happened_on, details=details, user=resident
    )


ADDRESS = {
    "address_line": "12 Elm Street",
    "unit": "",
    "city": "North Branch",
    "state": "MN",
    "postal_code": "55056",
}
NEW_OWNER = {
    "first_name": "Bob",
    "last_name": "Neighbour",
    "address_line": "7 Oak Lane",
    "unit": "",
    "city": "North Branch",
    "state": "MN",
    "postal_code": "55056",
    "email": "bob@example.org",
    "phone": "651-555-0101",
}


# --- The resident reports -------------------------------------------------------------


def test_the_resident_reports_a_move_and_sees_it_waiting(client_as, resident, dog):
    client = client_as(resident)
    page = client.get(report_url(dog, "address")).content.decode()
    assert "A move is reported within 30 days (North Branch Sec. 6-61)" in page
    response = client.post(
        report_url(dog, "address"), {"happened_on": "2026-02-20", **ADDRESS, "state": "mn"}
    )
    change = ReportedChange.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("licensing:change_detail", args=[change.pk])
    assert (change.kind, change.status, change.happened_on) == (
        ChangeKind.ADDRESS,
        ChangeStatus.SUBMITTED,
        date(2026, 2, 20),
    )
    assert change.details == {**ADDRESS, "state": "MN"}
    assert (change.owner, change.license) == (dog.owner, dog.licenses.get())
    assert change.submitted_by == resident
    detail = client.get(response.url).content.decode()
    assert "Waiting for the clerk" in detail and "12 Elm Street" in detail
    assert "Reported in time (due by Mar 22, 2026, North Branch Sec. 6-61)" in detail
    animal_page = client.get(reverse("licensing:portal_animal", args=[dog.pk])).content.decode()
    assert "Your reports" in animal_page and "Waiting for the clerk" in animal_page
    assert Event.objects.filter(action="licensing.change.reported").count() == 1


def test_a_move_reported_after_the_30_days_is_flagged_late(client_as, resident, dog):
    """LIC-11: moved December 15, reported March 2: due by January 14."""
    change = report(dog, resident, ChangeKind.ADDRESS, date(2025, 12, 15), **ADDRESS)
    page = client_as(resident).get(reverse("licensing:change_detail", args=[change.pk]))
    assert (
        "Reported late: a move was to be reported by Jan 14, 2026 (North Branch Sec. 6-61)"
        in page.content.decode()
    )


def test_the_lost_tag_and_transfer_pages_show_their_fee_and_section(client_as, resident, dog):
    client = client_as(resident)
    lost = client.get(report_url(dog, "lost_tag")).content.decode()
    assert "$3.00 (North Branch Sec. 6-63)" in lost
    transfer = client.get(report_url(dog, "transfer")).content.decode()
    assert "$5.00 (North Branch Sec. 6-65(d))" in transfer


def test_bad_input_is_shown_next_to_the_field_and_kept(client_as, resident, dog):
    client = client_as(resident)
    response = client.post(
        report_url(dog, "address"),
        {"happened_on": "2026-03-09", **ADDRESS, "postal_code": "5505"},
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "Enter a 5-digit ZIP code" in page and 'value="12 Elm Street"' in page
    response = client.post(report_url(dog, "death"), {"happened_on": "2026-03-09"})
    assert "The date cannot be in the future." in response.content.decode()
    assert 'value="2026-03-09"' in response.content.decode()
    assert not ReportedChange.objects.exists()


def test_a_second_report_of_the_same_change_is_refused(client_as, resident, dog):
    report(dog, resident, ChangeKind.LOST_TAG, where="Dog park")
    response = client_as(resident).post(
        report_url(dog, "lost_tag"), {"happened_on": "2026-02-21", "where": "Park"}
    )
    assert "You already reported this change" in response.content.decode()
    assert ReportedChange.objects.count() == 1


def test_another_residents_animal_and_report_are_404_and_staff_get_403(
    client_as, resident, other_resident, clerk, dog
):
    change = report(dog, resident, ChangeKind.LOST_TAG, where="Dog park")
    urls = [
        report_url(dog, "address"),
        reverse("licensing:change_detail", args=[change.pk]),
    ]
    client = client_as(other_resident)
    for url in urls:
        assert client.get(url).status_code == 404, url
    assert client.post(urls[0], {"happened_on": "2026-02-20", **ADDRESS}).status_code == 404
    client = client_as(clerk)
    for url in urls:
        assert client.get(url).status_code == 403, url
    assert client_as(resident).get(report_url(dog, "nonsense")).status_code == 404


def test_the_resident_pages_stay_within_ten_queries(
    client_as, resident, dog, django_assert_max_num_queries
):
    change = report(dog, resident, ChangeKind.ADDRESS, **ADDRESS)
    client = client_as(resident)
    for url in (
        report_url(dog, "address"),
        report_url(dog, "lost_tag"),
        reverse("licensing:change_detail", args=[change.pk]),
    ):
        with django_assert_max_num_queries(10):
            assert client.get(url).status_code == 200


# --- The clerk's queue --------------------------------------------------------------


def test_the_queue_lists_waiting_first_within_ten_queries(
    client_as, clerk, resident, dog, north_branch, django_assert_max_num_queries
):
    done = report(dog, resident, ChangeKind.LOST_TAG, where="Park")
    svc.change_decline(change=done, actor=clerk, reason="Found it")
    waiting = report(dog, resident, ChangeKind.ADDRESS, **ADDRESS)
    for i in range(30):  # rows enough that a query per row would show
        other = AnimalFactory(jurisdiction=north_branch, name=f"Bulk {i}")
        ReportedChange.objects.create(
            jurisdiction=north_branch,
            kind=ChangeKind.DEATH,
            status=ChangeStatus.DECLINED,
            animal=other,
            owner=other.owner,
            submitted_by=resident,
            submitted_at=done.submitted_at,
            happened_on=TODAY,
        )
    client = client_as(clerk)
    with django_assert_max_num_queries(10):
        page = client.get(reverse("changes:list")).content.decode()
    assert page.index(reverse("changes:detail", args=[waiting.pk])) < page.index(
        reverse("changes:detail", args=[done.pk])
    )
    with django_assert_max_num_queries(10):
        detail = client.get(reverse("changes:detail", args=[waiting.pk]))
    text = detail.content.decode()
    assert "12 Elm Street" in text and "38520 Grand Avenue" in text  # entered beside on file


def test_another_city_gets_404_and_officer_and_resident_403(
    client_as, glencoe_clerk, officer, resident, clerk, dog
):
    change = report(dog, resident, ChangeKind.DEATH)
    url = reverse("changes:detail", args=[change.pk])
    assert client_as(glencoe_clerk).get(url).status_code == 404
    assert client_as(glencoe_clerk).post(url, {"decision": "decline"}).status_code == 404
    assert "Biscuit" not in client_as(glencoe_clerk).get(reverse("changes:list")).content.decode()
    for user in (officer, resident):
        assert client_as(user).get(url).status_code == 403
        assert client_as(user).get(reverse("changes:list")).status_code == 403


# --- Applying each kind with the counter's service --------------------------------------


def apply(client, change, **data):
    return client.post(
        reverse("changes:detail", args=[change.pk]),
        {"decision": "apply", **{f"apply-{k}": v for k, v in data.items()}},
    )


def test_the_clerk_applies_a_move_with_license_address_change(
    client_as, clerk, resident, dog, mailoutbox, django_capture_on_commit_callbacks
):
    change = report(dog, resident, ChangeKind.ADDRESS, date(2025, 12, 15), **ADDRESS)
    with django_capture_on_commit_callbacks(execute=True):
        response = apply(client_as(clerk), change, within_city="yes", note="Thanks")
    assert response.status_code == 302
    change.refresh_from_db()
    assert (change.status, change.handled_by, change.handled_note) == (
        ChangeStatus.APPLIED,
        clerk,
        "Thanks",
    )
    owner = Owner.objects.get(pk=dog.owner_id)
    assert (owner.address_line, owner.postal_code) == ("12 Elm Street", "55056")
    dog.refresh_from_db()
    assert dog.premises.address_line == "12 Elm Street"
    event = Event.objects.get(action="licensing.license.address_changed")
    assert event.data["late"] is True and event.data["reported_on"] == "2026-03-02"
    assert Event.objects.filter(action="licensing.change.applied", actor=clerk).count() == 1
    assert [m.to for m in mailoutbox] == [["rita@example.org"]]
    assert mailoutbox[0].subject == "North Branch: your report about Biscuit: done"
    assert "Thanks" in mailoutbox[0].body


def test_a_move_to_a_full_premises_is_refused_and_kept_waiting(
    client_as, clerk, resident, dog, north_branch
):
    """KEN-01, North Branch Sec. 6-29: three adult dogs already live at 12 Elm Street."""
    premises = PremisesFactory(jurisdiction=north_branch, address_line="12 Elm Street")
    for _ in range(3):
        AnimalFactory(jurisdiction=north_branch, premises=premises)
    change = report(dog, resident, ChangeKind.ADDRESS, **ADDRESS)
    response = apply(client_as(clerk), change, within_city="yes")
    assert response.status_code == 200
    assert "North Branch Sec. 6-29" in response.content.decode()
    change.refresh_from_db()
    assert change.status == ChangeStatus.SUBMITTED
    assert Owner.objects.get(pk=dog.owner_id).address_line == "38520 Grand Avenue"


def test_the_clerk_applies_a_death_closing_the_license(client_as, clerk, resident, dog, license):
    change = report(dog, resident, ChangeKind.DEATH, date(2026, 2, 27))
    assert apply(client_as(clerk), change).status_code == 302
    license.refresh_from_db()
    dog.refresh_from_db()
    assert license.status == LicenseStatus.CLOSED
    assert dog.status == AnimalStatus.DECEASED
    change.refresh_from_db()
    assert change.status == ChangeStatus.APPLIED


def test_the_clerk_applies_a_lost_tag_with_the_duplicate_fee(
    client_as, clerk, resident, dog, license
):
    old_tag = license.tags.get()
    change = report(dog, resident, ChangeKind.LOST_TAG, where="Dog park")
    assert apply(client_as(clerk), change, method="cash", amount_tendered="10").status_code == 302
    old_tag.refresh_from_db()
    assert old_tag.status == TagStatus.LOST
    new_tag = license.tags.get(status=TagStatus.ISSUED)
    assert new_tag.number != old_tag.number
    change.refresh_from_db()
    assert change.receipt.total == 3  # North Branch Sec. 6-63
    assert change.receipt.payer == dog.owner
    page = client_as(resident).get(reverse("licensing:change_detail", args=[change.pk]))
    assert f"Receipt {change.receipt.number}: $3.00" in page.content.decode()


def test_a_transfer_waits_for_the_new_owner_who_accepts_then_the_clerk_applies(
    client_as,
    client,
    clerk,
    resident,
    other_resident,
    dog,
    license,
    mailoutbox,
    django_capture_on_commit_callbacks,
    settings,
):
    settings.SITE_URL = "https://animals.example.gov"
    with django_capture_on_commit_callbacks(execute=True):
        change = report(dog, resident, ChangeKind.TRANSFER, **NEW_OWNER)
    assert change.status == ChangeStatus.WAITING_NEW_OWNER
    (invitation,) = mailoutbox
    assert invitation.to == ["bob@example.org"] and "Biscuit" in invitation.subject
    token = svc.transfer_token(change)
    url = reverse("licensing:transfer_accept", args=[token])
    assert f"https://animals.example.gov{url}" in invitation.body
    # The clerk cannot apply it yet; the reporting resident cannot accept it.
    with pytest.raises(Refused):
        svc.change_apply(change=change, actor=clerk, entry=svc.ClerkEntry(method="cash"))
    assert client_as(resident).post(url).status_code == 302
    change.refresh_from_db()
    assert change.status == ChangeStatus.WAITING_NEW_OWNER
    # The new owner, signed in, accepts.
    client.force_login(other_resident)
    assert "Accept the animal" in client.get(url).content.decode()
    assert client.post(url).status_code == 302
    change.refresh_from_db()
    assert (change.status, change.new_owner_user) == (ChangeStatus.SUBMITTED, other_resident)
    assert client.get(reverse("licensing:transfer_accept", args=["forged"])).status_code == 404
    # The clerk applies license_transfer: a new owner record linked to Bob's account.
    assert apply(client_as(clerk), change, method="check", reference="1042").status_code == 302
    license.refresh_from_db()
    new_owner = license.owner
    assert (new_owner.user, new_owner.last_name, new_owner.email) == (
        other_resident,
        "Neighbour",
        "bob@example.org",
    )
    dog.refresh_from_db()
    assert dog.owner == new_owner
    change.refresh_from_db()
    assert change.status == ChangeStatus.APPLIED
    assert (change.receipt.total, change.receipt.payer) == (5, new_owner)  # Sec. 6-65(d)
    # Bob now sees the dog on his own pages; Rita does not.
    animal_url = reverse("licensing:portal_animal", args=[dog.pk])
    assert client_as(other_resident).get(animal_url).status_code == 200
    assert client_as(resident).get(animal_url).status_code == 404


def test_the_clerk_declines_with_a_reason_the_resident_reads(
    client_as, clerk, resident, dog, mailoutbox, django_capture_on_commit_callbacks
):
    change = report(dog, resident, ChangeKind.LOST_TAG, where="Park")
    client = client_as(clerk)
    url = reverse("changes:detail", args=[change.pk])
    blank = client.post(url, {"decision": "decline", "decline-reason": ""})
    assert blank.status_code == 200 and "This field is required." in blank.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            url, {"decision": "decline", "decline-reason": "The tag was found at City Hall."}
        )
    assert response.status_code == 302
    change.refresh_from_db()
    assert change.status == ChangeStatus.DECLINED
    page = client_as(resident).get(reverse("licensing:change_detail", args=[change.pk]))
    assert "The tag was found at City Hall." in page.content.decode()
    assert mailoutbox[0].subject == "North Branch: your report about Biscuit: declined"
    assert Event.objects.filter(action="licensing.change.declined").count() == 1


def test_a_handled_report_is_not_applied_again(clerk, resident, dog, license):
    change = report(dog, resident, ChangeKind.LOST_TAG, where="Park")
    svc.change_apply(change=change, actor=clerk, entry=svc.ClerkEntry(method="cash"))
    with pytest.raises(Refused) as refused:
        svc.change_apply(change=change, actor=clerk, entry=svc.ClerkEntry(method="cash"))
    assert "only a report waiting for the clerk is applied" in str(refused.value.messages)
    with pytest.raises(Refused):
        svc.change_decline(change=change, actor=clerk, reason="Too late")
    assert license.tags.filter(status=TagStatus.LOST).count() == 1


def test_a_refusing_service_keeps_nothing(clerk, resident, dog, license):
    """The license closed meanwhile: tag_replace_lost refuses (LIC-10), the report waits."""
    change = report(dog, resident, ChangeKind.LOST_TAG, where="Park")
    license.close(actor=clerk, on=TODAY, reason="Moved", at=None)
    with pytest.raises(Refused):
        svc.change_apply(change=change, actor=clerk, entry=svc.ClerkEntry(method="cash"))
    change.refresh_from_db()
    assert change.status == ChangeStatus.SUBMITTED and change.receipt is None


def test_a_move_out_of_the_city_closes_the_license(client_as, clerk, resident, dog, license):
    """LIC-11: the clerk sees the address is elsewhere and applies it as out of the city."""
    change = report(dog, resident, ChangeKind.ADDRESS, **{**ADDRESS, "city": "Stacy"})
    assert apply(client_as(clerk), change, within_city="no").status_code == 302
    license.refresh_from_db()
    dog.refresh_from_db()
    assert license.status == LicenseStatus.CLOSED
    assert dog.status == AnimalStatus.TRANSFERRED_OUT


def test_without_a_current_license_only_a_death_is_offered(
    client_as, resident, owner, north_branch
):
    unlicensed = AnimalFactory(jurisdiction=north_branch, owner=owner, name="Mochi")
    client = client_as(resident)
    page = client.get(reverse("licensing:portal_animal", args=[unlicensed.pk])).content.decode()
    assert report_url(unlicensed, "death") in page
    assert report_url(unlicensed, "lost_tag") not in page
    assert "No current license is on file" in page
    response = client.post(
        report_url(unlicensed, "lost_tag"), {"happened_on": "2026-02-20", "where": "Park"}
    )
    assert "No current license is on file for this animal" in response.content.decode()
    assert not ReportedChange.objects.exists()
