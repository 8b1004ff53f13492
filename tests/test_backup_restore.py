"""Backups that restore: ``backup`` then ``restore`` into a fresh
database gives the same receipts, licenses, documents (SHA-256 of each archived PDF) and
events, row for row; a tampered archive or a database with tables is refused."""

import hashlib
import io
import tarfile
import uuid
from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import psycopg2
import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from licensing.services.licenses import license_issue
from tests.licensing.factories import AnimalFactory, RabiesVaccinationFactory
from tests.licensing.license_factories import TagStockFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]

CHICAGO = ZoneInfo("America/Chicago")
TABLES = {
    "licensing_receipt": "number, total::text, payer_name, issued_at::text",
    "licensing_receiptline": "receipt_id, code, amount::text",
    "licensing_license": "number, term_start::text, expires_on::text, status",
    "notices_issueddocument": "kind, number, sha256, file",
    "ordinance_event": "action, summary, at::text",
}


def rows(dbname):
    params = connection.get_connection_params()
    params["dbname"] = dbname
    with psycopg2.connect(**{k: v for k, v in params.items() if k != "cursor_factory"}) as conn:
        with conn.cursor() as cursor:
            out = {}
            for table, columns in TABLES.items():
                cursor.execute(f"SELECT {columns} FROM {table} ORDER BY id")
                out[table] = cursor.fetchall()
            return out


@pytest.fixture
def fresh_database():
    name = f"restore_{uuid.uuid4().hex[:10]}"
    with connection.cursor() as cursor:
        cursor.execute(f'CREATE DATABASE "{name}"')
    yield name
    connection.close()
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def issued(north_branch, clerk):
    TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2026, last_number=20)
    dog = AnimalFactory(jurisdiction=north_branch, date_of_birth=date(2022, 5, 1))
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))
    return license_issue(
        animal=dog,
        owner=dog.owner,
        actor=clerk,
        on=date(2026, 11, 2),
        method="cash",
        now=datetime(2026, 11, 2, 10, tzinfo=CHICAGO),
    )


def tampered_copy(archive: Path, target: Path) -> Path:
    """The same archive with one archived PDF changed by a byte."""
    with tarfile.open(archive) as source, tarfile.open(target, "w") as out:
        for member in source.getmembers():
            data = source.extractfile(member).read()
            if member.name.endswith(".pdf"):
                data = data.replace(b"%PDF", b"%PDX", 1)
            member.size = len(data)
            out.addfile(member, io.BytesIO(data))
    return target


def test_backup_restores_row_for_row_with_every_document(issued, fresh_database, tmp_path):
    """One test (a transactional test costs a flush): restore, then the refusals."""
    call_command("backup", output=str(tmp_path / "out"))
    [archive] = (tmp_path / "out").glob("backup-*.tar")

    # A tampered archive is refused before anything is written.
    with pytest.raises(CommandError, match="checksum"):
        call_command(
            "restore",
            str(tampered_copy(archive, tmp_path / "tampered.tar")),
            database_name=fresh_database,
            media_root=str(tmp_path / "m"),
        )
    assert not (tmp_path / "m").exists()

    media = tmp_path / "restored-media"
    call_command("restore", str(archive), database_name=fresh_database, media_root=str(media))
    before, after = rows(connection.settings_dict["NAME"]), rows(fresh_database)
    assert before == after
    assert len(after["licensing_receipt"]) == 1 and after["notices_issueddocument"]
    for _kind, _number, sha256, file in after["notices_issueddocument"]:
        assert hashlib.sha256((media / file).read_bytes()).hexdigest() == sha256

    # Into a database that now has tables: refused.
    with pytest.raises(CommandError, match="has tables"):
        call_command("restore", str(archive), database_name=fresh_database, media_root=str(media))
