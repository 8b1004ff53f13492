"""The December 31 expiry (LIC-07, NB Sec. 6-62; KEN-05): set-based, idempotent, catching up."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.management import call_command
from django.utils import timezone

from licensing.models import KennelLicense, KennelStatus, License, LicenseStatus
from licensing.services.expiry import (
    CHANGE_REASON,
    kennel_licenses_expire,
    licenses_expire,
)
from ordinance.models import Event
from tests.conftest import make_user
from tests.licensing.factories import OwnerFactory, PremisesFactory
from tests.licensing.license_factories import LicenseFactory

CHICAGO = ZoneInfo("America/Chicago")

# The licenses are made during their 2026 term (their history rows carry that time); each
# test then moves the clock to the sweep it runs.
pytestmark = pytest.mark.clock("2026-11-15T10:00")


def at(y, m, d, hh=0, mm=5):
    return datetime(y, m, d, hh, mm, tzinfo=CHICAGO)


@pytest.fixture
def issuer(north_branch):
    return make_user("issuer", "clerk", [north_branch])


@pytest.fixture
def licenses(north_branch, glencoe, issuer):
    made = [LicenseFactory(jurisdiction=north_branch, issued_by=issuer) for _ in range(3)]
    made.append(LicenseFactory(jurisdiction=glencoe, issued_by=issuer, number="GL-2026-1"))
    made.append(
        LicenseFactory(
            jurisdiction=north_branch,
            issued_by=issuer,
            term_start=date(2027, 1, 1),
            expires_on=date(2027, 12, 31),
        )
    )
    return made


def kennel(jurisdiction, *, expires_on, status=KennelStatus.ACTIVE, number="K-1"):
    owner = OwnerFactory(jurisdiction=jurisdiction)
    return KennelLicense.objects.create(
        jurisdiction=jurisdiction,
        owner=owner,
        number=number,
        premises=PremisesFactory(jurisdiction=jurisdiction),
        status=status,
        applied_on=date(2026, 1, 5),
        issued_on=date(2026, 1, 20),
        expires_on=expires_on,
    )


def statuses():
    return dict(License.objects.values_list("number", "status"))


def test_a_license_is_still_active_on_december_31(licenses):
    with time_machine.travel(at(2026, 12, 31, 23, 59), tick=False):
        result = licenses_expire(now=timezone.now())
    assert result.applied == 0
    assert set(statuses().values()) == {LicenseStatus.ACTIVE}


def test_it_expires_on_january_1_and_a_second_run_changes_nothing(licenses):
    with time_machine.travel(at(2027, 1, 1), tick=False):
        first = licenses_expire(now=timezone.now())
        second = licenses_expire(now=timezone.now())
    assert (first.due, first.applied) == (4, 4)
    assert (second.due, second.applied) == (0, 0)
    expired = License.objects.filter(status=LicenseStatus.EXPIRED)
    assert expired.count() == 4
    assert set(expired.values_list("status_changed_on", flat=True)) == {date(2027, 1, 1)}
    # next year's license is untouched
    assert License.objects.get(expires_on=date(2027, 12, 31)).status == LicenseStatus.ACTIVE


def test_it_writes_one_history_row_per_expired_license(licenses):
    with time_machine.travel(at(2027, 1, 1), tick=False):
        licenses_expire(now=timezone.now())
        licenses_expire(now=timezone.now())
    rows = License.history.filter(history_change_reason=CHANGE_REASON)
    assert rows.count() == 4
    row = rows.first()
    assert row.history_type == "~" and row.status == LicenseStatus.EXPIRED
    assert row.history_date == at(2027, 1, 1)
    license = License.objects.get(pk=row.id)
    assert row.number == license.number and row.animal_id == license.animal_id
    assert license.history.first().status == LicenseStatus.EXPIRED  # latest entry


def test_it_records_one_summary_event_per_city(licenses, north_branch, glencoe):
    with time_machine.travel(at(2027, 1, 1), tick=False):
        licenses_expire(now=timezone.now())
    events = Event.objects.filter(action="licensing.license.expired")
    assert {(e.jurisdiction_id, e.data["count"]) for e in events} == {
        (north_branch.pk, 3),
        (glencoe.pk, 1),
    }
    assert "3 dog licenses expired" in events.get(jurisdiction=north_branch).summary


def test_it_catches_up_after_a_week_of_downtime(licenses, north_branch, issuer):
    LicenseFactory(
        jurisdiction=north_branch,
        issued_by=issuer,
        term_start=date(2026, 1, 1),
        expires_on=date(2027, 1, 3),
    )  # e.g. a term set by a later amendment
    with time_machine.travel(at(2027, 1, 8, 9), tick=False):
        result = licenses_expire(now=timezone.now())
    assert result.applied == 5
    assert License.objects.filter(status=LicenseStatus.EXPIRED).count() == 5


def test_only_active_licenses_expire(licenses):
    void = licenses[0]
    License.objects.filter(pk=void.pk).update(status=LicenseStatus.VOID)
    with time_machine.travel(at(2027, 1, 1), tick=False):
        result = licenses_expire(now=timezone.now())
    assert result.applied == 3
    assert License.objects.get(pk=void.pk).status == LicenseStatus.VOID


def test_dry_run_counts_and_changes_nothing(licenses):
    with time_machine.travel(at(2027, 1, 1), tick=False):
        result = licenses_expire(now=timezone.now(), dry_run=True)
    assert (result.due, result.dry_run) == (4, True)
    assert set(statuses().values()) == {LicenseStatus.ACTIVE}
    assert not Event.objects.filter(action="licensing.license.expired").exists()


def test_kennel_licenses_expire_but_a_glencoe_kennel_without_a_term_does_not(north_branch, glencoe):
    nb = kennel(north_branch, expires_on=date(2026, 12, 31))
    gl = kennel(glencoe, expires_on=None, number="GK-1")
    with time_machine.travel(at(2026, 12, 31, 23), tick=False):
        assert kennel_licenses_expire(now=timezone.now()).applied == 0
    with time_machine.travel(at(2027, 1, 1), tick=False):
        assert kennel_licenses_expire(now=timezone.now()).applied == 1
        assert kennel_licenses_expire(now=timezone.now()).applied == 0
    nb.refresh_from_db()
    gl.refresh_from_db()
    assert nb.status == KennelStatus.EXPIRED and gl.status == KennelStatus.ACTIVE
    assert KennelLicense.history.filter(id=nb.pk, history_change_reason=CHANGE_REASON).count() == 1


def test_the_command_prints_a_one_line_summary(licenses, capsys):
    with time_machine.travel(at(2027, 1, 1), tick=False):
        call_command("expire_licenses", "--dry-run")
    out = capsys.readouterr().out.strip()
    assert len(out.splitlines()) == 1
    assert "dog licenses expire: 4 due, would apply 4" in out
    assert License.objects.filter(status=LicenseStatus.EXPIRED).count() == 0
    with time_machine.travel(at(2027, 1, 1), tick=False):
        call_command("expire_licenses")
    assert License.objects.filter(status=LicenseStatus.EXPIRED).count() == 4
