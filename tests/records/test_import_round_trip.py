"""Done when (issue 19): export a city, import the export's CSVs into an empty city, and
the counts and every license's number, term and tag come back; a second import of the
same files changes nothing (idempotent by the export's own ids)."""

from datetime import date

import pytest
import time_machine
from django.core.files.base import ContentFile

from base.roles import ADMINISTRATOR
from licensing.models import Animal, License, Owner, RabiesVaccination, Tag, TagStatus
from licensing.services import licenses as license_svc
from licensing.services import registry as registry_svc
from ordinance.models import Jurisdiction
from records.models import ImportBatch, ImportStatus
from records.services.exports import export_request
from records.services.imports import import_apply, import_queue, reading
from records.services.imports.fields import EXPORT_FILES, default_mapping
from tests.conftest import make_user
from tests.records.helpers import NOW, TODAY, archive_of, build_cities

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def _second_dog(cities, clerk):
    animal = registry_svc.animal_register(
        owner=cities.nb_owner,
        actor=clerk,
        on=TODAY,
        species="dog",
        name="Pepper",
        sex="male",
        sterilized=True,
        breed="Beagle",
        color="Tricolor",
        date_of_birth=date(2023, 1, 5),
        microchip="985112003456789",
    )
    registry_svc.vaccination_record(
        animal=animal,
        actor=clerk,
        on=TODAY,
        vaccinated_on=TODAY,
        duration_years=1,
        veterinarian_name="Dr. Two",
        veterinarian_license="MN-2",
    )
    license_svc.license_issue(
        animal=animal, owner=cities.nb_owner, actor=clerk, on=TODAY, method="cash", now=NOW
    )


def _signature(city):
    licenses = License.objects.filter(jurisdiction=city)
    tags = {
        t.license.number: (t.year, t.number)
        for t in Tag.objects.filter(jurisdiction=city, status=TagStatus.ISSUED).select_related(
            "license"
        )
    }
    return {
        "owners": Owner.objects.filter(jurisdiction=city).count(),
        "animals": Animal.objects.filter(jurisdiction=city).count(),
        "vaccinations": RabiesVaccination.objects.filter(animal__jurisdiction=city).count(),
        "licenses": sorted(
            (lic.number, lic.term_start, lic.expires_on, lic.status, tags.get(lic.number))
            for lic in licenses
        ),
    }


def _import_all(archive, city, actor, django_capture_on_commit_callbacks):
    batches = []
    for name, layout in EXPORT_FILES.items():
        data = archive.read(f"data/{name}")
        batch = ImportBatch(
            jurisdiction=city,
            source_name="Old installation",
            layout=layout,
            original_name=name,
            created_by=actor,
        )
        batch.file.save(name, ContentFile(data), save=False)
        with batch.file.open("rb") as handle:
            batch.mapping = default_mapping(layout, reading.read_headers(handle, reading.CSV))
        batch.save()
        with django_capture_on_commit_callbacks(execute=False):
            import_queue(batch)
        with time_machine.travel(NOW, tick=False):
            batches.append(import_apply(batch.pk))
    return batches


def test_export_then_import_into_an_empty_city_reproduces_it(
    north_branch, glencoe, clerk, glencoe_clerk, django_capture_on_commit_callbacks
):
    with time_machine.travel(NOW, tick=False):
        cities = build_cities(north_branch, glencoe, clerk, glencoe_clerk)
        _second_dog(cities, clerk)
    admin = make_user("ned", ADMINISTRATOR, [north_branch], first_name="Ned")
    with django_capture_on_commit_callbacks(execute=True):
        export = export_request(actor=admin, cities=[north_branch], now=NOW)
    export.refresh_from_db()
    archive = archive_of(export)

    empty = Jurisdiction.objects.create(
        slug="newtown",
        name="City of Newtown",
        short_name="Newtown",
        profile_key=north_branch.profile_key,
    )
    newtown_admin = make_user("nina", ADMINISTRATOR, [empty])
    batches = _import_all(archive, empty, newtown_admin, django_capture_on_commit_callbacks)
    assert all(b.status == ImportStatus.DONE for b in batches)
    tags = batches[-1]
    assert tags.skipped_count == 18  # the stock never issued is the city's own to receive
    assert all(b.error_count == 0 and (b.skipped_count == 0 or b is tags) for b in batches), [
        (b.layout, list(b.issues.values_list("message", flat=True))) for b in batches
    ]
    before, after = _signature(north_branch), _signature(empty)
    assert before["licenses"] and all(lic[4] for lic in before["licenses"])
    assert after == before
    assert not License.objects.filter(jurisdiction=empty, receipt__isnull=False).exists()

    again = _import_all(archive, empty, newtown_admin, django_capture_on_commit_callbacks)
    assert sum(b.created_count for b in again) == 0
    assert _signature(empty) == before
