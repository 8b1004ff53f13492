"""Merging two owner records of the same city: every row that points
to the duplicate moves (found through ``Owner._meta.related_objects``), receipts keep
the payer they were issued to (REC-01), the duplicate is kept and marked merged, and
an Event records who merged what (REC-18)."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from licensing.models import KennelLicense, License, Owner, OwnerSearch, Receipt
from licensing.services.kennels.applications import KennelRequest, kennel_apply, kennel_premises_for
from licensing.services.licenses import license_issue
from licensing.services.owner_merge import KEPT_AS_ISSUED, owner_merge, owner_merge_preview
from ordinance.models import Event
from ordinance.refusals import Refused
from tests.licensing.factories import AnimalFactory, OwnerFactory, RabiesVaccinationFactory
from tests.licensing.license_factories import TagStockFactory

pytestmark = pytest.mark.clock("2026-01-15T10:00")
CHICAGO = ZoneInfo("America/Chicago")
ON = date(2026, 1, 15)


@pytest.fixture
def pair(north_branch, clerk):
    """A survivor and its duplicate, the duplicate with a licensed dog (license, tag,
    receipt), a second dog and a kennel application."""
    survivor = OwnerFactory(jurisdiction=north_branch, first_name="Dana", last_name="Berg")
    duplicate = OwnerFactory(jurisdiction=north_branch, first_name="Dana", last_name="Berg")
    TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2026, last_number=20)
    dog = AnimalFactory(jurisdiction=north_branch, owner=duplicate)
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))
    license_issue(
        animal=dog,
        owner=duplicate,
        actor=clerk,
        on=ON,
        method="cash",
        tendered=None,
        now=datetime(2026, 1, 15, 10, tzinfo=CHICAGO),
    )
    AnimalFactory(
        jurisdiction=north_branch,
        owner=duplicate,
        premises=dog.premises,
        name="Second",
    )
    kennel_apply(
        owner=duplicate,
        premises=kennel_premises_for(duplicate),
        application=KennelRequest(
            business_nature="Boarding", dog_count=5, cat_count=0, cup_reference="CUP-1"
        ),
        actor=clerk,
        on=ON,
    )
    return survivor, duplicate


def _pointing_at(owner) -> dict[str, int]:
    counts = {}
    for rel in Owner._meta.related_objects:
        if rel.related_model is OwnerSearch:  # each record's own search copy, not moved
            continue
        label = (rel.related_model._meta.label, rel.field.name)
        counts[label] = rel.related_model._base_manager.filter(**{rel.field.name: owner}).count()
    return counts


def test_every_row_pointing_to_the_duplicate_moves_except_issued_receipts(pair, clerk):
    survivor, duplicate = pair
    before = _pointing_at(duplicate)
    assert before[("licensing.Animal", "owner")] == 2
    assert before[("licensing.License", "owner")] == 1
    assert before[("licensing.KennelLicense", "owner")] == 1
    assert before[("licensing.Receipt", "payer")] >= 1
    moved = owner_merge(survivor=survivor, duplicate=duplicate, actor=clerk)
    after = _pointing_at(duplicate)
    for relation, count in after.items():
        expected = before[relation] if relation in KEPT_AS_ISSUED else 0
        assert count == expected, relation  # nothing pointing at an owner is missed
    assert survivor.animals.count() == 2
    assert License.objects.get().owner == survivor
    assert KennelLicense.objects.get().owner == survivor
    assert Receipt.objects.filter(payer=duplicate).exists()  # as issued (REC-01)
    assert moved["licensing.Animal"] == 2 and moved["licensing.Ownership"] >= 2


def test_the_duplicate_is_kept_marked_merged_with_event_and_history(pair, clerk):
    survivor, duplicate = pair
    owner_merge(survivor=survivor, duplicate=duplicate, actor=clerk)
    duplicate.refresh_from_db()
    assert duplicate.merged_into == survivor  # kept, not deleted
    event = Event.objects.for_object(survivor).get(action="licensing.owner.merged")
    assert event.actor == clerk and event.data["duplicate"] == duplicate.pk
    assert event.data["moved"]["licensing.Animal"] == 2
    assert Event.objects.for_object(duplicate).filter(action="licensing.owner.merged_away")
    dog = survivor.animals.order_by("pk").first()
    latest = dog.history.first()
    assert latest.owner_id == survivor.pk and latest.history_user == clerk
    assert "merged into" in latest.history_change_reason
    assert duplicate.history.first().merged_into_id == survivor.pk


def test_the_preview_counts_what_moves_and_what_stays(pair):
    survivor, duplicate = pair
    preview = owner_merge_preview(duplicate)
    moving = {line.label: line.count for line in preview.moving}
    assert moving["animals"] == 2 and moving["licenses"] == 1
    assert [line.label for line in preview.kept] == ["receipts"]


def test_owners_of_different_cities_cannot_be_merged(north_branch, glencoe, administrator):
    nb, gl = OwnerFactory(jurisdiction=north_branch), OwnerFactory(jurisdiction=glencoe)
    AnimalFactory(jurisdiction=glencoe, owner=gl)
    with pytest.raises(Refused, match="different cities"):
        owner_merge(survivor=nb, duplicate=gl, actor=administrator)
    gl.refresh_from_db()
    assert gl.merged_into is None and gl.animals.count() == 1


def test_a_record_cannot_be_merged_twice_or_into_itself(north_branch, clerk):
    a, b = OwnerFactory(jurisdiction=north_branch), OwnerFactory(jurisdiction=north_branch)
    with pytest.raises(Refused):
        owner_merge(survivor=a, duplicate=a, actor=clerk)
    owner_merge(survivor=a, duplicate=b, actor=clerk)
    with pytest.raises(Refused, match="merged already"):
        owner_merge(survivor=a, duplicate=b, actor=clerk)


def test_records_merged_into_the_duplicate_follow_it(north_branch, clerk):
    a, b, c = (OwnerFactory(jurisdiction=north_branch) for _ in range(3))
    owner_merge(survivor=b, duplicate=c, actor=clerk)
    owner_merge(survivor=a, duplicate=b, actor=clerk)
    c.refresh_from_db()
    assert c.merged_into == a


# --- Pages ------------------------------------------------------------------------------


def test_the_clerk_finds_the_duplicate_confirms_and_merges(client_as, clerk, pair):
    survivor, duplicate = pair
    client = client_as(clerk)
    detail = client.get(survivor.get_absolute_url()).content.decode()
    search_url = reverse("licensing:owner_merge", args=[survivor.pk])
    assert search_url in detail
    page = client.get(search_url, {"q": "berg"}).content.decode()
    confirm_url = reverse("licensing:owner_merge_confirm", args=[survivor.pk, duplicate.pk])
    assert confirm_url in page
    assert f'href="{reverse("licensing:owner_merge_confirm", args=[survivor.pk] * 2)}"' not in page
    page = client.get(confirm_url).content.decode()
    assert "2 animals" in page and "1 licenses" in page and "as issued" in page
    resp = client.post(confirm_url)
    assert resp.status_code == 302 and resp.url == survivor.get_absolute_url()
    assert survivor.animals.count() == 2
    merged = client.get(duplicate.get_absolute_url()).content.decode()
    assert "This record was merged into another owner record." in merged


def test_the_page_refuses_a_cross_city_merge(client_as, administrator, north_branch, glencoe):
    nb, gl = OwnerFactory(jurisdiction=north_branch), OwnerFactory(jurisdiction=glencoe)
    client = client_as(administrator)
    url = reverse("licensing:owner_merge_confirm", args=[nb.pk, gl.pk])
    assert "cannot be merged" in client.get(url).content.decode()
    resp = client.post(url)
    assert resp.status_code == 200 and "Owners of different cities cannot be merged." in (
        resp.content.decode()
    )
    gl.refresh_from_db()
    assert gl.merged_into is None


def test_wrong_role_403_and_another_citys_owner_404(
    client_as, officer, resident, clerk, north_branch, glencoe
):
    nb, other = OwnerFactory(jurisdiction=north_branch), OwnerFactory(jurisdiction=north_branch)
    gl = OwnerFactory(jurisdiction=glencoe)
    search = reverse("licensing:owner_merge", args=[nb.pk])
    confirm = reverse("licensing:owner_merge_confirm", args=[nb.pk, other.pk])
    for user in (officer, resident):
        client = client_as(user)
        assert client.get(search).status_code == 403
        assert client.post(confirm).status_code == 403
    client = client_as(clerk)
    assert client.get(reverse("licensing:owner_merge", args=[gl.pk])).status_code == 404
    cross = reverse("licensing:owner_merge_confirm", args=[nb.pk, gl.pk])
    assert client.post(cross).status_code == 404
    other.refresh_from_db()
    assert other.merged_into is None


def test_merge_pages_make_bounded_queries(
    client_as, clerk, pair, north_branch, django_assert_max_num_queries
):
    survivor, duplicate = pair
    OwnerFactory.create_batch(40, jurisdiction=north_branch, last_name="Berg")
    client = client_as(clerk)
    search = reverse("licensing:owner_merge", args=[survivor.pk])
    confirm = reverse("licensing:owner_merge_confirm", args=[survivor.pk, duplicate.pk])
    client.get(search)  # warm the menu's cached rule read
    with django_assert_max_num_queries(10):
        assert client.get(search, {"q": "berg"}).status_code == 200
    with django_assert_max_num_queries(10):
        assert client.get(confirm).status_code == 200


def test_the_counter_offers_the_survivor_not_the_merged_record(client_as, clerk, north_branch):
    a = OwnerFactory(jurisdiction=north_branch, last_name="Zzmerged")
    b = OwnerFactory(jurisdiction=north_branch, last_name="Zzmerged")
    owner_merge(survivor=a, duplicate=b, actor=clerk)
    client = client_as(clerk)
    page = client.get(reverse("licensing:counter_start"), {"q": "zzmerged"}).content.decode()
    counter = "licensing:counter_animal"
    assert reverse(counter, args=[a.pk]) in page and reverse(counter, args=[b.pk]) not in page
    resp = client.get(reverse(counter, args=[b.pk]))
    assert resp.status_code == 302 and resp.url == reverse(counter, args=[a.pk])
