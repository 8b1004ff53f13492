"""The search box's copy of each owner (licensing.models.search) stays in
step with the owner: saved through the services, merged, or written in bulk and then
refreshed by the one set-based function bulk writers call."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from licensing.models import Owner, OwnerSearch
from licensing.models.search import city_code
from licensing.selectors import registry_search
from licensing.services.owner_merge import owner_merge
from licensing.services.registry import owner_create, owner_update
from tests.licensing.factories import OwnerFactory


def _row(owner) -> tuple:
    row = OwnerSearch.objects.get(owner=owner)
    return row.jurisdiction_id, row.sort_last, row.sort_first, row.sort_org, row.text


def _found(user, query) -> set[int]:
    return {hit.owner.pk for hit in registry_search(user=user, query=query)}


def test_a_new_owner_gets_its_row(north_branch, clerk):
    owner = owner_create(
        jurisdiction=north_branch,
        actor=clerk,
        first_name="Ingrid",
        last_name="Halvorson",
        address_line="6125 Maple Street",
        city="North Branch",
        postal_code="55056",
    )
    assert _row(owner) == (
        north_branch.pk,
        "halvorson",
        "ingrid",
        "",
        f"{city_code(north_branch.pk)}|INGRID HALVORSON  6125 MAPLE STREET",
    )
    assert _found(clerk, "halv") == {owner.pk}


def test_a_changed_name_or_address_is_searched_as_changed(north_branch, clerk):
    # A first name of its own: a random one could hold "elm" (Helmut) and be found by it.
    owner = OwnerFactory(
        jurisdiction=north_branch, first_name="Ruth", last_name="Halvorson", address_line="1 Elm St"
    )
    owner_update(owner=owner, actor=clerk, last_name="Lindqvist", address_line="9 Birch Lane")
    assert _found(clerk, "lindqvist") == {owner.pk}
    assert _found(clerk, "birch") == {owner.pk}
    assert _found(clerk, "halvorson") == set()
    assert _found(clerk, "elm") == set()


def test_a_save_of_other_fields_only_leaves_the_row_alone(north_branch):
    owner = OwnerFactory(jurisdiction=north_branch, phone="")
    owner.phone = "(651) 555-0147"
    with CaptureQueriesContext(connection) as queries:
        owner.save(update_fields=["phone"])
    assert not [q for q in queries if "ownersearch" in q["sql"]]
    owner.last_name = "Renamed"
    owner.save(update_fields=["last_name"])
    assert _row(owner)[1] == "renamed"


def test_an_organization_is_found_and_sorted_by_its_name(north_branch, clerk):
    shelter = OwnerFactory(
        jurisdiction=north_branch,
        kind=Owner.Kind.ORGANIZATION,
        first_name="",
        last_name="",
        organization_name="Chisago Humane Society",
    )
    assert _row(shelter)[3] == "chisago humane society"
    assert _found(clerk, "humane") == {shelter.pk}


def test_a_merge_leaves_both_rows_in_step(north_branch, clerk):
    survivor = OwnerFactory(jurisdiction=north_branch, first_name="Dana", last_name="Berg")
    duplicate = OwnerFactory(jurisdiction=north_branch, first_name="Dana", last_name="Berg")
    owner_merge(survivor=survivor, duplicate=duplicate, actor=clerk)
    for owner in (survivor, duplicate):
        owner.refresh_from_db()
        assert _row(owner)[:3] == (north_branch.pk, "berg", "dana")
    assert OwnerSearch.objects.count() == Owner.objects.count()


def test_a_bulk_insert_is_found_once_refreshed_in_one_set_based_call(
    north_branch, clerk, django_assert_max_num_queries
):
    owners = Owner.objects.bulk_create(
        Owner(
            jurisdiction=north_branch,
            first_name="Astrid",
            last_name=f"Bulkload{n:02d}",
            address_line=f"{n} Pine Street",
            city="North Branch",
            postal_code="55056",
        )
        for n in range(40)
    )
    assert _found(clerk, "bulkload") == set()  # bulk_create skips Owner.save()
    # A fixed number of statements whatever the count (a DELETE and an INSERT ... SELECT
    # per chunk, in one transaction).
    with django_assert_max_num_queries(4):
        assert OwnerSearch.objects.refresh(o.pk for o in owners) == 40
    hits = registry_search(user=clerk, query="bulkload")
    assert [hit.owner.last_name for hit in hits] == [f"Bulkload{n:02d}" for n in range(25)]
    # Again: the rows are rebuilt, not doubled.
    assert OwnerSearch.objects.refresh(o.pk for o in owners) == 40
    assert OwnerSearch.objects.filter(owner__in=owners).count() == 40


def test_a_refresh_after_a_bulk_update_follows_the_new_values(north_branch, clerk):
    owners = [OwnerFactory(jurisdiction=north_branch, last_name="Before") for _ in range(3)]
    Owner.objects.filter(pk__in=[o.pk for o in owners]).update(last_name="Afterward")
    OwnerSearch.objects.refresh([o.pk for o in owners])
    assert _found(clerk, "afterward") == {o.pk for o in owners}
    assert _found(clerk, "before") == set()


def test_refresh_all_rebuilds_every_row(north_branch, glencoe):
    OwnerFactory(jurisdiction=north_branch)
    OwnerFactory(jurisdiction=glencoe)
    OwnerSearch.objects.all().delete()
    assert OwnerSearch.objects.refresh_all() == Owner.objects.count() == 2


def test_letters_beyond_ascii_are_found_as_typed(north_branch, clerk):
    owner = OwnerFactory(jurisdiction=north_branch, first_name="Åsa", last_name="Öberg")
    assert _found(clerk, "Ås") == _found(clerk, "ÖBERG") == {owner.pk}


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="SQLite's UPPER and LIKE fold ASCII letters only (so did icontains there)",
)
def test_letters_beyond_ascii_are_found_in_any_case_on_postgresql(north_branch, clerk):
    owner = OwnerFactory(jurisdiction=north_branch, first_name="Åsa", last_name="Öberg")
    assert _found(clerk, "åsa") == _found(clerk, "öberg") == {owner.pk}


def test_the_city_code_is_punctuation_so_no_trigram_is_made_of_it():
    assert city_code(1) == "#" and city_code(20) == "$!" and city_code(1234567890) == "#$&()*+,-!"
    assert not any(c.isalnum() or c in "%_\\|'" for c in city_code(1234567890))


def test_wildcards_typed_in_the_box_are_literal(north_branch, clerk):
    # First names of their own: a random one could hold "and" (Sandra) and be found by it.
    anderson = OwnerFactory(jurisdiction=north_branch, first_name="Ruth", last_name="Anderson")
    percent = OwnerFactory(
        jurisdiction=north_branch, first_name="Pat", last_name="Fifty", address_line="50% Road"
    )
    assert _found(clerk, "a%n") == set()
    assert _found(clerk, "a_d") == set()
    assert _found(clerk, "50%") == {percent.pk}
    assert _found(clerk, "and") == {anderson.pk}


def test_a_city_s_words_are_not_found_in_the_other_city(north_branch, glencoe, clerk, officer):
    OwnerFactory(jurisdiction=glencoe, last_name="Hennepin")
    nb = OwnerFactory(jurisdiction=north_branch, last_name="Olson")
    assert _found(clerk, "hennepin") == set()
    assert len(_found(officer, "hennepin")) == 1
    assert _found(officer, "olson") == {nb.pk}
