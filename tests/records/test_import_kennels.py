"""Kennel licenses imported: a kennel-license list mapped in the
browser (``ImportLayout.KENNEL_SHEET``) and this system's own export
(``ImportLayout.KENNELS``). History as history: the number, status, term and counts as
they were, no receipt, "Imported from" on the page, the kennel series continued (KEN-04,
LIC-06); the counter's kennel form's words (KEN-03); idempotent; duplicates for a clerk;
undo."""

from datetime import date

import pytest
import time_machine
from django.db import transaction
from django.urls import reverse

from kernel.models import NumberSeries
from kernel.numbers import year_number
from licensing.models import (
    Animal,
    KennelAnimal,
    KennelLicense,
    KennelStatus,
    Owner,
    Premises,
)
from ordinance.refusals import Refused
from records.forms import MappingForm
from records.models import (
    ImportAction,
    ImportBatch,
    ImportIssue,
    ImportLayout,
    ImportRecord,
    ImportStatus,
)
from records.services.imports import dry_run, import_apply, import_queue, import_undo
from records.services.imports.fields import KENNEL_KEYS, SHEET_KEYS, default_mapping
from tests.records.helpers import NOW
from tests.records.import_helpers import csv_bytes, make_batch

pytestmark = pytest.mark.django_db

COLUMNS = {
    "owner_name": "Owner",
    "address_line": "Addr",
    "postal_code": "Zip",
    "phone": "Tel",
    "premises_address_line": "Kennel at",
    "license_number": "Kennel license",
    "status": "Status",
    "dog_count": "Dogs",
    "cat_count": "Cats",
    "applied_on": "Applied",
    "issued_on": "Issued",
    "expires_on": "Expires",
    "business_nature": "Business",
    "conditions": "Conditions",
    "cup_reference": "CUP",
}
MAPPING = {"columns": COLUMNS, "date_order": "mdy", "name_order": "last_first"}
SHEET = ImportLayout.KENNEL_SHEET


def _row(n, **over):
    row = {
        "Owner": f"Kenner{n}, Kay",
        "Addr": f"{n} Elm Street",
        "Zip": "55056",
        "Tel": f"(651) 555-02{n:02d}",
        "Kennel at": f"{n} Farm Road",
        "Kennel license": f"2026-{40 + n:04d}",
        "Status": "Active",
        "Dogs": "6",
        "Cats": "0",
        "Applied": "11/15/2025",
        "Issued": "1/5/2026",
        "Expires": "12/31/2026",
        "Business": "Breeding",
        "Conditions": "No outdoor runs after 10 p.m.",
        "CUP": f"CUP-{n}",
    }
    row.update(over)
    return row


def _sheet():
    return csv_bytes(
        [
            _row(1),
            _row(2, **{"Kennel license": "2024-0007", "Status": "", "Expires": "12/31/2024"})
            | {"Applied": "1/2/2024", "Issued": "1/10/2024"},
            _row(3, **{"Kennel license": "", "Status": "Pending", "Issued": "", "Expires": ""}),
            _row(4, Dogs="0", Cats="0"),  # the counter's form refuses it
            _row(5, Dogs="many"),
            _row(6, Issued="1/5/2027"),  # issued in the future
        ]
    )


def _run(batch, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        import_queue(batch)
    with time_machine.travel(NOW, tick=False):
        return import_apply(batch.pk)


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


# -- the spreadsheet layout ----------------------------------------------------------------


def test_the_mapping_page_offers_each_layouts_fields_and_guesses_the_kennel_columns():
    kennel = MappingForm(headers=["Owner"], mapping={}, layout=SHEET)
    dog = MappingForm(headers=["Owner"], mapping={}, layout=ImportLayout.SHEET)
    assert [n[4:] for n in kennel.fields if n.startswith("col_")] == KENNEL_KEYS
    assert [n[4:] for n in dog.fields if n.startswith("col_")] == SHEET_KEYS
    assert "col_dog_count" not in dog.fields and "col_species" not in kennel.fields
    headers = ["Owner", "Kennel Address", "Kennel License", "Dogs", "Cats", "Expires", "CUP"]
    columns = default_mapping(SHEET, headers)["columns"]
    assert columns == {
        "owner_name": "Owner",
        "premises_address_line": "Kennel Address",
        "license_number": "Kennel License",
        "dog_count": "Dogs",
        "cat_count": "Cats",
        "expires_on": "Expires",
        "cup_reference": "CUP",
    }


def test_the_dry_run_says_what_and_why_in_the_counters_words(north_branch, administrator):
    batch = make_batch(north_branch, administrator, _sheet(), mapping=MAPPING, layout=SHEET)
    with time_machine.travel(NOW, tick=False):
        dry_run(batch)
    assert (batch.total_rows, batch.created_count, batch.error_count) == (6, 3, 3)
    assert not KennelLicense.objects.exists() and not Owner.objects.exists()
    rows = {r["row"]: r for r in batch.report["rows"]}
    assert rows[2]["actions"] == {
        "owner": "created",
        "premises": "created",
        "kennellicense": "created",
    }
    assert rows[5]["why"] == ["Enter how many dogs or cats the kennel keeps."]
    assert rows[6]["why"] == ["Number of dogs: Enter a whole number."]
    assert rows[7]["why"][0].startswith("Issued on: The date cannot be in the future.")


def test_apply_keeps_history_gives_no_receipt_and_the_kennel_series_continues(
    north_branch, administrator, client_as, django_capture_on_commit_callbacks
):
    batch = make_batch(north_branch, administrator, _sheet(), mapping=MAPPING, layout=SHEET)
    batch = _run(batch, django_capture_on_commit_callbacks)
    assert (batch.created_count, batch.error_count) == (3, 3)
    active = KennelLicense.objects.get(number="2026-0041")
    assert (active.status, active.issued_on, active.expires_on, active.applied_on) == (
        KennelStatus.ACTIVE,
        date(2026, 1, 5),
        date(2026, 12, 31),
        date(2025, 11, 15),
    )
    assert (active.dog_count, active.cat_count, active.cup_reference) == (6, 0, "CUP-1")
    assert active.conditions == "No outdoor runs after 10 p.m."
    assert active.receipt is None  # no receipt invented
    assert active.premises.address_line == "1 Farm Road"
    assert (active.owner.first_name, active.owner.last_name) == ("Kay", "Kenner1")
    assert active.history.first().history_change_reason == batch.change_reason
    lapsed = KennelLicense.objects.get(number="2024-0007")
    assert lapsed.status == KennelStatus.EXPIRED  # no status: its expiry says (KEN-05)
    pending = KennelLicense.objects.get(owner__last_name="Kenner3")
    assert (pending.number, pending.status) == ("", KennelStatus.UNDER_REVIEW)
    # The counter's next kennel numbers follow the imported ones (KEN-04, LIC-06).
    assert (
        NumberSeries.objects.get(
            jurisdiction=north_branch, series="license-kennel", year=2026
        ).next_number
        == 42
    )
    with transaction.atomic():
        assert year_number(north_branch, "license-kennel", 2026) == "2026-0042"
    assert not NumberSeries.objects.filter(series="license-dog").exists()
    page = client_as(administrator).get(reverse("licensing:kennel_detail", args=[active.pk]))
    assert page.status_code == 200
    assert "Imported from OldDog" in page.content.decode()


def test_a_second_run_matches_or_updates_never_duplicates(
    north_branch, administrator, django_capture_on_commit_callbacks
):
    first = make_batch(north_branch, administrator, _sheet(), mapping=MAPPING, layout=SHEET)
    _run(first, django_capture_on_commit_callbacks)
    again = make_batch(north_branch, administrator, _sheet(), mapping=MAPPING, layout=SHEET)
    again = _run(again, django_capture_on_commit_callbacks)
    assert (again.created_count, again.updated_count, again.matched_count) == (0, 0, 3)
    changed = csv_bytes(
        [
            _row(1, Dogs="8"),
            _row(3, **{"Kennel license": "", "Status": "Pending", "Issued": "", "Expires": ""}),
        ]
    )
    third = make_batch(north_branch, administrator, changed, mapping=MAPPING, layout=SHEET)
    third = _run(third, django_capture_on_commit_callbacks)
    assert (third.created_count, third.updated_count, third.matched_count) == (0, 1, 1)
    assert KennelLicense.objects.count() == 3 and Owner.objects.count() == 3
    assert Premises.objects.count() == 3
    assert KennelLicense.objects.get(number="2026-0041").dog_count == 8


def test_an_owner_and_premises_already_here_are_matched(
    north_branch, administrator, django_capture_on_commit_callbacks
):
    owner = Owner.objects.create(
        jurisdiction=north_branch,
        first_name="Kay",
        last_name="Kenner1",
        address_line="1 Elm St.",
        city="North Branch",
        postal_code="55056",
    )
    premises = Premises.objects.create(
        jurisdiction=north_branch,
        address_line="1 farm ROAD",  # premises are one per address, letter case aside
        city="North Branch",
        postal_code="55056",
    )
    batch = make_batch(
        north_branch, administrator, csv_bytes([_row(1)]), mapping=MAPPING, layout=SHEET
    )
    batch = _run(batch, django_capture_on_commit_callbacks)
    kennel = KennelLicense.objects.get()
    assert (kennel.owner, kennel.premises) == (owner, premises)
    assert Owner.objects.count() == 1 and Premises.objects.count() == 1
    actions = dict(ImportRecord.objects.filter(batch=batch).values_list("source_table", "action"))
    # the city's owner had no phone: the sheet fills it, and nothing else (FILLED_OWNER_FIELDS)
    assert actions == {"owner": "updated", "premises": "matched", "kennellicense": "created"}
    owner.refresh_from_db()
    assert owner.phone and owner.address_line == "1 Elm St."


def test_a_number_this_city_gives_another_owner_goes_to_a_clerk(
    north_branch, administrator, django_capture_on_commit_callbacks
):
    other = Owner.objects.create(
        jurisdiction=north_branch,
        first_name="Otto",
        last_name="Other",
        address_line="9 Oak Street",
        city="North Branch",
        postal_code="55056",
    )
    premises = Premises.objects.create(
        jurisdiction=north_branch,
        address_line="9 Oak Street",
        city="North Branch",
        postal_code="55056",
    )
    KennelLicense.objects.create(
        jurisdiction=north_branch,
        number="2026-0041",
        owner=other,
        premises=premises,
        status=KennelStatus.ACTIVE,
        dog_count=4,
        applied_on=date(2025, 12, 1),
        issued_on=date(2026, 1, 2),
    )
    for _ in range(2):  # two owners could be the third row's: not guessed
        Owner.objects.create(
            jurisdiction=north_branch,
            first_name="Kay",
            last_name="Kenner3",
            address_line="3 Elm Street",
            city="North Branch",
            postal_code="55056",
        )
    rows = csv_bytes([_row(1), _row(3)])
    batch = _run(
        make_batch(north_branch, administrator, rows, mapping=MAPPING, layout=SHEET),
        django_capture_on_commit_callbacks,
    )
    assert (batch.skipped_count, batch.created_count) == (2, 0)
    assert KennelLicense.objects.count() == 1
    issues = list(ImportIssue.objects.filter(batch=batch).order_by("row_number"))
    assert [i.kind for i in issues] == [ImportIssue.Kind.DUPLICATE] * 2
    assert "Kennel license 2026-0041 of this city is another owner's" in issues[0].message
    assert "2 owners" in issues[1].message


def test_undo_removes_the_kennel_licenses_until_later_work_touches_them(
    north_branch, administrator, django_capture_on_commit_callbacks
):
    batch = _run(
        make_batch(north_branch, administrator, _sheet(), mapping=MAPPING, layout=SHEET),
        django_capture_on_commit_callbacks,
    )
    batch = import_undo(batch=batch, actor=administrator)
    assert batch.status == ImportStatus.UNDONE
    assert not KennelLicense.objects.exists() and not Owner.objects.exists()
    assert not Premises.objects.exists()
    # the audit history keeps them, and the series stays past their numbers (LIC-14)
    assert KennelLicense.history.filter(history_type="-").count() == 3
    series = NumberSeries.objects.get(jurisdiction=north_branch, series="license-kennel", year=2026)
    assert series.next_number == 42

    again = _run(
        make_batch(north_branch, administrator, _sheet(), mapping=MAPPING, layout=SHEET),
        django_capture_on_commit_callbacks,
    )
    assert again.created_count == 3  # an undone batch's ids are free again
    kennel = KennelLicense.objects.get(number="2026-0041")
    kennel.conditions = "Amended by the Council"
    kennel.save()  # a clerk's later change
    with pytest.raises(Refused, match="changed afterwards"):
        import_undo(batch=again, actor=administrator)
    assert KennelLicense.objects.count() == 3


def test_the_mapping_page_maps_a_kennel_list_and_dry_runs_it(
    client, north_branch, administrator, django_assert_max_num_queries
):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from base.roles import ADMINISTRATOR
    from tests.conftest import make_user

    admin = make_user("ned", ADMINISTRATOR, [north_branch], first_name="Ned")
    client.force_login(admin)
    headers = {"Owner": "Kenner1, Kay", "Address": "1 Elm St", "ZIP": "55056"}
    rows = [
        {**headers, "Kennel Address": "1 Farm Rd", "License": "2026-0041", "Dogs": "5"},
        {**headers, "Kennel Address": "1 Farm Rd", "License": "2026-0042", "Dogs": "0"},
    ]
    client.post(
        reverse("records:import_list"),
        {
            "city": north_branch.pk,
            "source_name": "Kennel list",
            "layout": SHEET,
            "file": SimpleUploadedFile("kennels.csv", csv_bytes(rows)),
        },
    )
    batch = ImportBatch.objects.get()
    assert batch.mapping["columns"]["premises_address_line"] == "Kennel Address"
    detail = reverse("records:import_detail", args=[batch.pk])
    with django_assert_max_num_queries(10):
        page = client.get(detail)
    text = page.content.decode()
    assert 'name="col_dog_count"' in text and 'name="col_species"' not in text
    assert "Kennel premises" in text and "1 Farm Rd" in text  # the preview's columns
    data = {f"col_{k}": v for k, v in batch.mapping["columns"].items()}
    client.post(
        detail, {**data, "date_order": "mdy", "name_order": "last_first", "action": "dry_run"}
    )
    batch.refresh_from_db()
    assert (batch.status, batch.created_count, batch.error_count) == (ImportStatus.DRY_RUN, 0, 2)
    # a numbered license without its dates, and the counter's count check, each said
    issues = batch.issues.filter(dry_run=True).order_by("row_number", "pk")
    assert [(i.row_number, i.message) for i in issues] == [
        (2, "Applied on: This field is required."),
        (2, "Issued on: An issued kennel license needs its number and the day it was issued."),
        (3, "Applied on: This field is required."),
        (3, "Enter how many dogs or cats the kennel keeps."),
        (3, "Issued on: An issued kennel license needs its number and the day it was issued."),
    ]


# -- this system's export ------------------------------------------------------------------


def _imported_before(city, actor, source, **rows):
    """Owners and premises as an earlier batch of the same source left them."""
    batch = ImportBatch.objects.create(
        jurisdiction=city,
        source_name=source,
        layout=ImportLayout.OWNERS,
        original_name="licensing.owner.csv",
        created_by=actor,
        status=ImportStatus.DONE,
    )
    for source_id, obj in rows.items():
        table, _sep, key = source_id.partition("_")
        ImportRecord.objects.create(
            batch=batch,
            jurisdiction=city,
            source_name=source,
            source_table=table,
            source_id=key,
            row_number=2,
            target_model=obj._meta.label_lower,
            target_pk=obj.pk,
            action=ImportAction.CREATED,
        )


def _export_row(pk, **over):
    row = {
        "id": str(pk),
        "jurisdiction_id": "1",
        "number": f"2026-{pk:04d}",
        "owner_id": "70",
        "premises_id": "80",
        "status": "active",
        "business_nature": "Boarding",
        "dog_count": "10",
        "cat_count": "2",
        "cup_reference": "",
        "conditions": "",
        "applied_on": "2025-12-01",
        "became_subject_on": "",
        "issued_on": "2026-01-10",
        "expires_on": "2026-12-31",
        "denied_on": "",
        "denial_notified_on": "",
        "appeal_deadline": "",
        "receipt_id": "555",
        "recorded_by_id": "3",
        "created_at": "2025-12-01T10:00:00-06:00",
    }
    row.update(over)
    return row


@pytest.fixture
def exported(north_branch, administrator):
    owner = Owner.objects.create(
        jurisdiction=north_branch,
        first_name="Exa",
        last_name="Porter",
        address_line="7 Pine Street",
        city="North Branch",
        postal_code="55056",
    )
    premises = Premises.objects.create(
        jurisdiction=north_branch,
        address_line="7 Pine Street",
        city="North Branch",
        postal_code="55056",
    )
    _imported_before(
        north_branch, administrator, "Old install", owner_70=owner, premises_80=premises
    )
    return owner, premises


def _export_batch(city, actor, rows):
    data = csv_bytes(rows)
    batch = make_batch(
        city, actor, data, mapping={}, layout=ImportLayout.KENNELS, source="Old install"
    )
    batch.mapping = default_mapping(ImportLayout.KENNELS, list(rows[0]))
    batch.save()
    return batch


def test_the_export_layout_keeps_each_kennel_license_as_it_was(
    north_branch, administrator, exported, django_capture_on_commit_callbacks
):
    owner, premises = exported
    rows = [
        _export_row(11),
        _export_row(
            12,
            number="",
            status="denied",
            issued_on="",
            expires_on="",
            denied_on="2026-01-20",
            appeal_deadline="2026-02-19",
        ),
        _export_row(13, status="archived"),  # not a status
        _export_row(14, owner_id="99"),  # an owner not imported from this source
        _export_row(15, dog_count="0", cat_count="0"),
    ]
    batch = _run(
        _export_batch(north_branch, administrator, rows), django_capture_on_commit_callbacks
    )
    assert (batch.created_count, batch.error_count) == (2, 3)
    messages = list(
        ImportIssue.objects.filter(batch=batch)
        .order_by("row_number")
        .values_list("message", flat=True)
    )
    assert messages == [
        "Status: “archived” is not a kennel license status.",
        "owner_id: no owner with id 99 was imported from this source.",
        "Enter how many dogs or cats the kennel keeps.",
    ]
    issued = KennelLicense.objects.get(number="2026-0011")
    assert (issued.owner, issued.premises, issued.status, issued.receipt) == (
        owner,
        premises,
        "active",
        None,
    )
    assert (issued.dog_count, issued.cat_count, issued.expires_on) == (10, 2, date(2026, 12, 31))
    denied = KennelLicense.objects.get(number="")
    assert (denied.status, denied.denied_on, denied.appeal_deadline) == (
        KennelStatus.DENIED,
        date(2026, 1, 20),
        date(2026, 2, 19),
    )
    assert NumberSeries.objects.get(series="license-kennel", year=2026).next_number == 12


def test_the_export_layout_is_idempotent_updates_an_application_and_flags_duplicates(
    north_branch, administrator, exported, django_capture_on_commit_callbacks
):
    owner, premises = exported
    rows = [
        _export_row(11),
        _export_row(12, number="", status="applied", issued_on="", expires_on=""),
    ]
    _run(_export_batch(north_branch, administrator, rows), django_capture_on_commit_callbacks)
    later = [
        _export_row(11),
        _export_row(12, number="", status="under_review", issued_on="", expires_on=""),
        _export_row(11, id="13"),  # another id with a number already here: for a clerk
        _export_row(11, issued_on="2026-01-11"),  # an issued license is not rewritten
    ]
    again = _run(
        _export_batch(north_branch, administrator, later), django_capture_on_commit_callbacks
    )
    assert (again.created_count, again.updated_count, again.matched_count) == (0, 1, 1)
    assert again.skipped_count == 2
    kinds = list(
        ImportIssue.objects.filter(batch=again)
        .order_by("row_number")
        .values_list("kind", flat=True)
    )
    assert kinds == [ImportIssue.Kind.DUPLICATE, ImportIssue.Kind.SKIPPED]
    assert KennelLicense.objects.count() == 2
    assert KennelLicense.objects.get(number="").status == KennelStatus.UNDER_REVIEW


def test_the_animals_kept_under_a_kennel_come_back_from_the_export(
    north_branch, administrator, exported, django_capture_on_commit_callbacks
):
    owner, premises = exported
    kennel = KennelLicense.objects.create(
        jurisdiction=north_branch,
        number="2026-0011",
        owner=owner,
        premises=premises,
        status=KennelStatus.ACTIVE,
        dog_count=2,
        applied_on=date(2025, 12, 1),
        issued_on=date(2026, 1, 10),
    )
    dogs = [
        Animal.objects.create(
            jurisdiction=north_branch, owner=owner, premises=premises, species="dog", name=name
        )
        for name in ("Ace", "Bo")
    ]
    _imported_before(
        north_branch, administrator, "Old install", kennellicense_11=kennel, animal_21=dogs[0]
    )
    _imported_before(north_branch, administrator, "Old install", animal_22=dogs[1])
    header = {"kennel_license_id": "11", "removed_on": ""}
    rows = [
        {"id": "31", **header, "animal_id": "21", "added_on": "2026-01-10"},
        {"id": "32", **header, "animal_id": "22", "added_on": "2026-01-10"}
        | {"removed_on": "2026-01-02"},  # removed before it was added
        {"id": "33", **header, "animal_id": "29", "added_on": "2026-01-10"},
    ]

    def batch(rows):
        data = csv_bytes(rows)
        b = make_batch(
            north_branch,
            administrator,
            data,
            mapping=default_mapping(ImportLayout.KENNEL_ANIMALS, list(rows[0])),
            layout=ImportLayout.KENNEL_ANIMALS,
            source="Old install",
        )
        return _run(b, django_capture_on_commit_callbacks)

    first = batch(rows)
    assert (first.created_count, first.error_count) == (1, 2)
    messages = list(
        ImportIssue.objects.filter(batch=first)
        .order_by("row_number")
        .values_list("message", flat=True)
    )
    assert messages == [
        "Removed on: The removal cannot come before the animal was added (Jan 10, 2026).",
        "animal_id: no animal with id 29 was imported from this source.",
    ]
    member = KennelAnimal.objects.get()
    assert (member.kennel_license, member.animal, member.added_on) == (
        kennel,
        dogs[0],
        date(2026, 1, 10),
    )
    later = batch([rows[0], {**rows[0], "id": "32", "animal_id": "22", "removed_on": ""}])
    assert (later.created_count, later.matched_count) == (1, 1)
    assert KennelAnimal.objects.count() == 2
