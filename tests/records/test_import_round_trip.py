"""The round trip: export a city, import the export's CSVs into an empty city, and
the counts and every license's number, term and tag come back, and every kennel license's
number, status, term and counts, with the animals kept under it; a second import of the
same files changes nothing (idempotent by the export's own ids)."""

from datetime import date

import pytest
import time_machine
from django.core.files.base import ContentFile

from base.roles import ADMINISTRATOR
from kernel.models import NumberSeries
from licensing.models import (
    Animal,
    KennelAnimal,
    KennelLicense,
    KennelStatus,
    License,
    Owner,
    RabiesVaccination,
    Tag,
    TagStatus,
)
from licensing.services import licenses as license_svc
from licensing.services import registry as registry_svc
from ordinance.models import Jurisdiction
from records.models import ImportBatch, ImportLayout, ImportStatus
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


def _kennels(cities, clerk):
    """An issued kennel license, an expired one and an application in review, as the
    kennel services leave them (their states, numbers and dates)."""
    premises = registry_svc.owner_premises(cities.nb_owner)
    common = {"jurisdiction": cities.nb, "owner": cities.nb_owner, "premises": premises}
    issued = KennelLicense.objects.create(
        **common,
        number="2026-0003",
        status=KennelStatus.ACTIVE,
        business_nature="Breeding",
        dog_count=6,
        cat_count=1,
        cup_reference="CUP-12",
        conditions="No outdoor runs after 10 p.m.\nFence kept at six feet.",
        applied_on=date(2025, 11, 20),
        issued_on=date(2026, 1, 4),
        expires_on=date(2026, 12, 31),
        recorded_by=clerk,
    )
    KennelLicense.objects.create(
        **common,
        number="2025-0009",
        status=KennelStatus.EXPIRED,
        dog_count=4,
        applied_on=date(2024, 12, 1),
        issued_on=date(2025, 1, 5),
        expires_on=date(2025, 12, 31),
        recorded_by=clerk,
    )
    KennelAnimal.objects.create(
        kennel_license=issued, animal=cities.nb_animal, added_on=date(2026, 1, 4)
    )
    pepper = Animal.objects.get(name="Pepper")
    KennelAnimal.objects.create(
        kennel_license=issued,
        animal=pepper,
        added_on=date(2026, 1, 4),
        removed_on=date(2026, 2, 1),
    )
    KennelLicense.objects.create(
        **common,
        status=KennelStatus.UNDER_REVIEW,
        business_nature="Boarding",
        dog_count=3,
        cat_count=2,
        applied_on=date(2026, 2, 20),
        became_subject_on=date(2026, 2, 1),
        recorded_by=clerk,
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
        "kennels": sorted(
            (
                k.number,
                k.status,
                k.applied_on,
                k.issued_on,
                k.expires_on,
                k.became_subject_on,
                k.dog_count,
                k.cat_count,
                k.business_nature,
                k.cup_reference,
                k.conditions,
                k.owner.last_name,
                k.premises.address_line,
            )
            for k in KennelLicense.objects.filter(jurisdiction=city).select_related(
                "owner", "premises"
            )
        ),
        "kennel_animals": sorted(
            (m.kennel_license.number, m.animal.name, m.added_on, m.removed_on)
            for m in KennelAnimal.objects.filter(kennel_license__jurisdiction=city).select_related(
                "kennel_license", "animal"
            )
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
        _kennels(cities, clerk)
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
    tags = next(b for b in batches if b.layout == ImportLayout.TAGS)
    assert tags.skipped_count == 18  # the stock never issued is the city's own to receive
    assert all(b.error_count == 0 and (b.skipped_count == 0 or b is tags) for b in batches), [
        (b.layout, list(b.issues.values_list("message", flat=True))) for b in batches
    ]
    before, after = _signature(north_branch), _signature(empty)
    assert before["licenses"] and all(lic[4] for lic in before["licenses"])
    assert len(before["kennels"]) == 3 and len(before["kennel_animals"]) == 2
    assert after == before
    assert not License.objects.filter(jurisdiction=empty, receipt__isnull=False).exists()
    assert not KennelLicense.objects.filter(jurisdiction=empty, receipt__isnull=False).exists()
    # the new city's kennel series continues after the imported numbers (KEN-04, LIC-06)
    kennel_series = dict(
        NumberSeries.objects.filter(jurisdiction=empty, series="license-kennel").values_list(
            "year", "next_number"
        )
    )
    assert kennel_series == {2025: 10, 2026: 4}

    again = _import_all(archive, empty, newtown_admin, django_capture_on_commit_callbacks)
    assert sum(b.created_count for b in again) == 0
    assert _signature(empty) == before
