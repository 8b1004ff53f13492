"""The archive itself: scoped to the cities, every table with counts
that match, documents whose hashes verify, readable back into the same rows, recorded."""

import hashlib

import pytest
import time_machine

from base.roles import ADMINISTRATOR
from licensing.models import Animal, License, Owner, RabiesVaccination
from notices.models import IssuedDocument
from ordinance.models import Event, FeeScheduleEntry, RuleValue
from ordinance.refusals import Refused
from records import registry
from records.models import ExportStatus
from records.services.exports import export_build, export_request
from tests.conftest import make_user
from tests.records.helpers import GL_MARKER, NOW, archive_of, build_cities


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def cities(north_branch, glencoe, clerk, glencoe_clerk, django_capture_on_commit_callbacks):
    """The cities' records, their papers laid out by the (eager) worker after commit."""
    with time_machine.travel(NOW, tick=False), django_capture_on_commit_callbacks(execute=True):
        return build_cities(north_branch, glencoe, clerk, glencoe_clerk)


@pytest.fixture
def nb_admin(north_branch):
    return make_user("ned", ADMINISTRATOR, [north_branch], first_name="Ned")


def _export(actor, cities, django_capture_on_commit_callbacks):
    """Ask, and let the (eager) worker write it after commit, as the page does."""
    with django_capture_on_commit_callbacks(execute=True):
        export = export_request(actor=actor, cities=cities, now=NOW)
    export.refresh_from_db()
    assert export.status == ExportStatus.READY, (export.status, export.error)
    return export


@pytest.fixture
def nb_export(cities, nb_admin, django_capture_on_commit_callbacks):
    return _export(nb_admin, [cities.nb], django_capture_on_commit_callbacks)


def test_a_second_city_s_rows_are_never_in_the_archive(cities, nb_export):
    archive = archive_of(nb_export)
    leaks = []
    for name in archive.names():
        data = archive.read(name)
        # The dictionary's help texts may cite Glencoe's ordinance; no row may name it.
        city = name.startswith("data/") and b"Glencoe" in data
        if GL_MARKER.encode() in data or city:
            leaks.append(name)
    assert not leaks, leaks
    owners = archive.table("licensing.owner")
    assert {o["last_name"] for o in owners} == {"Nbonly"}
    assert {r["jurisdiction_id"] for r in archive.table("licensing.license")} == {str(cities.nb.pk)}
    assert [c["slug"] for c in archive.manifest["cities"]] == [cities.nb.slug]


def test_an_administrator_of_both_cities_gets_both(
    cities, administrator, django_capture_on_commit_callbacks
):
    export = _export(administrator, [cities.nb, cities.gl], django_capture_on_commit_callbacks)
    owners = archive_of(export).table("licensing.owner")
    assert {o["last_name"] for o in owners} == {"Nbonly", "Zzglencoeonly"}


def test_only_an_administrator_of_every_city_may_ask(cities, nb_admin, clerk):
    with pytest.raises(Refused, match="You do not serve City of Glencoe"):
        export_request(actor=nb_admin, cities=[cities.nb, cities.gl], now=NOW)
    with pytest.raises(Refused, match="Only an administrator"):
        export_request(actor=clerk, cities=[cities.nb], now=NOW)


def test_every_table_is_in_the_archive_with_its_dictionary(nb_export):
    archive = archive_of(nb_export)
    tables = {t.name for t in registry.tables()}
    assert set(archive.manifest["tables"]) == tables
    for name in tables:
        assert f"data/{name}.csv" in archive.names(), name
    dictionary = archive.csv("data_dictionary.csv")
    described = {(row["table"], row["column"]) for row in dictionary}
    for name in tables:
        header = archive.zip.read(f"data/{name}.csv").decode().splitlines()[0].split(",")
        assert {(name, column) for column in header} <= described, name
    owner_name = next(
        r for r in dictionary if r["table"] == "licensing.animal" and r["column"] == "owner_id"
    )
    assert owner_name["references"] == "licensing.owner" and owner_name["type"] == "reference"
    assert archive.manifest["format_version"] == 1
    assert set(archive.manifest["excluded_tables"]) == set(registry.EXCLUDED)


def test_the_manifest_counts_match_the_files_and_the_database(cities, nb_export):
    archive = archive_of(nb_export)
    for name, entry in archive.manifest["tables"].items():
        assert len(archive.table(name)) == entry["rows"], name
        assert nb_export.counts[name] == entry["rows"]
    nb = cities.nb
    expected = {
        "licensing.owner": Owner.objects.filter(jurisdiction=nb).count(),
        "licensing.animal": Animal.objects.filter(jurisdiction=nb).count(),
        "licensing.license": License.objects.filter(jurisdiction=nb).count(),
        "licensing.rabiesvaccination": RabiesVaccination.objects.filter(
            animal__jurisdiction=nb
        ).count(),
        "notices.issueddocument": IssuedDocument.objects.filter(jurisdiction=nb).count(),
        "ordinance.feescheduleentry": FeeScheduleEntry.objects.filter(jurisdiction=nb).count(),
        "ordinance.rulevalue": RuleValue.objects.layered(nb).count(),
    }
    for name, count in expected.items():
        assert archive.manifest["tables"][name]["rows"] == count > 0, name


def test_archived_documents_are_in_it_and_their_hashes_verify(cities, nb_export):
    archive = archive_of(nb_export)
    files = archive.csv("files/manifest.csv")
    documents = [f for f in files if f["table"] == "notices.issueddocument"]
    issued = IssuedDocument.objects.filter(jurisdiction=cities.nb).exclude(sha256="")
    assert len(documents) == issued.count() > 0
    for entry in documents:
        data = archive.read(entry["path"])
        assert hashlib.sha256(data).hexdigest() == entry["sha256"] == entry["recorded_sha256"]
        assert entry["check"] == "verified" and data.startswith(b"%PDF")
    sums = archive.read("files/SHA256SUMS").decode().splitlines()
    for line in sums:
        digest, name = line.split("  ", 1)
        assert hashlib.sha256(archive.read(f"files/{name}")).hexdigest() == digest
    # The rabies certificate the clerk uploaded is there too.
    assert any(f["table"] == "licensing.rabiesvaccination" for f in files)
    assert archive.manifest["files"]["mismatched"] == archive.manifest["files"]["missing"] == 0
    assert archive.manifest["files"]["verified"] == len(documents)
    # The archive's own hash is the one the export row keeps.
    with nb_export.file.open("rb") as handle:
        assert hashlib.sha256(handle.read()).hexdigest() == nb_export.sha256


def test_owners_animals_licenses_and_vaccinations_read_back_as_they_are(cities, nb_export):
    """What an import needs: ids, ISO dates, the references between the tables."""
    archive = archive_of(nb_export)
    animal = cities.nb_animal
    row = next(r for r in archive.table("licensing.animal") if r["id"] == str(animal.pk))
    assert row["name"] == animal.name and row["owner_id"] == str(animal.owner_id)
    assert row["date_of_birth"] == animal.date_of_birth.isoformat()
    license = cities.nb_license
    lic = next(r for r in archive.table("licensing.license") if r["id"] == str(license.pk))
    assert lic["animal_id"] == str(animal.pk) and lic["number"] == license.number
    assert lic["expires_on"] == license.expires_on.isoformat()
    vacc = archive.table("licensing.rabiesvaccination")
    assert [v["animal_id"] for v in vacc] == [str(animal.pk)]
    assert vacc[0]["vaccinated_on"] == "2025-06-01"
    owner = next(r for r in archive.table("licensing.owner") if r["id"] == str(animal.owner_id))
    assert owner["first_name"] == "Nora" and owner["jurisdiction_id"] == str(cities.nb.pk)
    history = archive.table("licensing.historicalanimal")
    assert {h["id"] for h in history} == {str(animal.pk)}


def test_the_event_log_rules_and_fees_are_in_it(cities, nb_export):
    archive = archive_of(nb_export)
    events = archive.table("ordinance.event")
    assert {e["jurisdiction_id"] for e in events} == {str(cities.nb.pk)}
    assert any(e["action"] == "records.export.requested" for e in events)
    assert any(e["subject_type_id"] == "licensing.license" for e in events)
    assert archive.table("ordinance.historicalfeescheduleentry")
    rules = archive.table("ordinance.rulevalue")
    assert {r["jurisdiction_id"] for r in rules} <= {str(cities.nb.pk), ""}


def test_the_export_is_recorded_as_events_in_the_city_s_log(cities, nb_export, nb_admin):
    actions = list(
        Event.objects.filter(jurisdiction=cities.nb, action__startswith="records.export")
        .order_by("pk")
        .values_list("action", "actor_id")
    )
    assert actions == [
        ("records.export.requested", nb_admin.pk),
        ("records.export.ready", None),
    ]
    assert not Event.objects.filter(jurisdiction=cities.gl, action__startswith="records.")


def test_building_twice_does_nothing_the_second_time(cities, nb_export):
    assert export_build(export_pk=nb_export.pk) is None
    assert Event.objects.filter(action="records.export.ready").count() == 1


def test_secrets_are_not_in_the_archive(cities, nb_export, nb_admin):
    users = archive_of(nb_export).table("accounts.user")
    assert users and "password" not in users[0]
    assert nb_admin.password.encode() not in b"".join(
        archive_of(nb_export).read(n) for n in archive_of(nb_export).names()
    )
