"""Upcoming deadlines from licensing: license expiries grouped per city, kennel appeals."""

from datetime import date

from licensing.models import KennelLicense, KennelStatus
from ordinance import deadlines
from tests.conftest import make_user
from tests.licensing.factories import OwnerFactory, PremisesFactory
from tests.licensing.license_factories import LicenseFactory


def test_expiring_licenses_are_grouped_per_city_with_the_citation(north_branch, glencoe):
    clerk = make_user("c", "clerk", [north_branch])
    for _ in range(3):
        LicenseFactory(jurisdiction=north_branch, issued_by=clerk)
    LicenseFactory(jurisdiction=glencoe, issued_by=clerk, number="G-1")
    found = deadlines.upcoming(jurisdiction_ids=[north_branch.pk], today=date(2026, 12, 28))
    licenses = [d for d in found if "dog license" in d.what]
    assert len(licenses) == 1
    assert licenses[0].what == "3 dog licenses expire"
    assert licenses[0].due == date(2026, 12, 31)
    assert licenses[0].citation == "North Branch Sec. 6-62"
    assert "start=2026-12-31" in licenses[0].url


def test_a_kennel_appeal_deadline_is_listed_until_it_passes(glencoe):
    owner = OwnerFactory(jurisdiction=glencoe)
    KennelLicense.objects.create(
        jurisdiction=glencoe,
        owner=owner,
        premises=PremisesFactory(jurisdiction=glencoe),
        status=KennelStatus.DENIED,
        applied_on=date(2026, 3, 1),
        denied_on=date(2026, 3, 5),
        denial_notified_on=date(2026, 3, 6),
        appeal_deadline=date(2026, 3, 16),
    )
    found = deadlines.upcoming(jurisdiction_ids=[glencoe.pk], today=date(2026, 3, 12))
    appeal = [d for d in found if "appeal" in d.what]
    assert len(appeal) == 1 and appeal[0].citation.startswith("Glencoe 701 Subd. 4")
    later = deadlines.upcoming(jurisdiction_ids=[glencoe.pk], today=date(2026, 3, 17))
    assert not [d for d in later if "appeal" in d.what]


def test_the_sweeps_are_registered():
    names = set(deadlines.registered_sweeps())
    assert {
        "licensing.licenses_expire",
        "licensing.kennel_licenses_expire",
        "licensing.kennel_denials_final",
    } <= names
