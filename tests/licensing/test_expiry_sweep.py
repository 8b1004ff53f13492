"""The December 31 expiry (LIC-07, NB Sec. 6-62; KEN-05): set-based, idempotent, catching up."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.management import call_command
from django.utils import timezone

from licensing.models import KennelLicence, KennelStatus, Licence, LicenceStatus
from licensing.services.expiry import (
    CHANGE_REASON,
    kennel_licences_expire,
    licences_expire,
)
from ordinance.models import Event
from tests.conftest import make_user
from tests.licensing.factories import OwnerFactory, PremisesFactory
from tests.licensing.licence_factories import LicenceFactory

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
def licences(north_branch, glencoe, issuer):
    made = [LicenceFactory(jurisdiction=north_branch, issued_by=issuer) for _ in range(3)]
    made.append(LicenceFactory(jurisdiction=glencoe, issued_by=issuer,
                               number="GL-2026-1"))
    made.append(LicenceFactory(jurisdiction=north_branch, issued_by=issuer,
                               term_start=date(2027, 1, 1), expires_on=date(2027, 12, 31)))
    return made


def kennel(jurisdiction, *, expires_on, status=KennelStatus.ACTIVE, number="K-1"):
    owner = OwnerFactory(jurisdiction=jurisdiction)
    return KennelLicence.objects.create(
        jurisdiction=jurisdiction, owner=owner, number=number,
        premises=PremisesFactory(jurisdiction=jurisdiction), status=status,
        applied_on=date(2026, 1, 5), issued_on=date(2026, 1, 20), expires_on=expires_on,
    )


def statuses():
    return dict(Licence.objects.values_list("number", "status"))


def test_a_licence_is_still_active_on_december_31(licences):
    with time_machine.travel(at(2026, 12, 31, 23, 59), tick=False):
        result = licences_expire(now=timezone.now())
    assert result.applied == 0
    assert set(statuses().values()) == {LicenceStatus.ACTIVE}


def test_it_expires_on_january_1_and_a_second_run_changes_nothing(licences):
    with time_machine.travel(at(2027, 1, 1), tick=False):
        first = licences_expire(now=timezone.now())
        second = licences_expire(now=timezone.now())
    assert (first.due, first.applied) == (4, 4)
    assert (second.due, second.applied) == (0, 0)
    expired = Licence.objects.filter(status=LicenceStatus.EXPIRED)
    assert expired.count() == 4
    assert set(expired.values_list("status_changed_on", flat=True)) == {date(2027, 1, 1)}
    # next year's licence is untouched
    assert Licence.objects.get(expires_on=date(2027, 12, 31)).status == LicenceStatus.ACTIVE


def test_it_writes_one_history_row_per_expired_licence(licences):
    with time_machine.travel(at(2027, 1, 1), tick=False):
        licences_expire(now=timezone.now())
        licences_expire(now=timezone.now())
    rows = Licence.history.filter(history_change_reason=CHANGE_REASON)
    assert rows.count() == 4
    row = rows.first()
    assert row.history_type == "~" and row.status == LicenceStatus.EXPIRED
    assert row.history_date == at(2027, 1, 1)
    licence = Licence.objects.get(pk=row.id)
    assert row.number == licence.number and row.animal_id == licence.animal_id
    assert licence.history.first().status == LicenceStatus.EXPIRED  # latest entry


def test_it_records_one_summary_event_per_city(licences, north_branch, glencoe):
    with time_machine.travel(at(2027, 1, 1), tick=False):
        licences_expire(now=timezone.now())
    events = Event.objects.filter(action="licensing.licence.expired")
    assert {(e.jurisdiction_id, e.data["count"]) for e in events} == {
        (north_branch.pk, 3), (glencoe.pk, 1)}
    assert "3 dog licences expired" in events.get(jurisdiction=north_branch).summary


def test_it_catches_up_after_a_week_of_downtime(licences, north_branch, issuer):
    LicenceFactory(jurisdiction=north_branch, issued_by=issuer, term_start=date(2026, 1, 1),
                   expires_on=date(2027, 1, 3))  # e.g. a term set by a later amendment
    with time_machine.travel(at(2027, 1, 8, 9), tick=False):
        result = licences_expire(now=timezone.now())
    assert result.applied == 5
    assert Licence.objects.filter(status=LicenceStatus.EXPIRED).count() == 5


def test_only_active_licences_expire(licences):
    void = licences[0]
    Licence.objects.filter(pk=void.pk).update(status=LicenceStatus.VOID)
    with time_machine.travel(at(2027, 1, 1), tick=False):
        result = licences_expire(now=timezone.now())
    assert result.applied == 3
    assert Licence.objects.get(pk=void.pk).status == LicenceStatus.VOID


def test_dry_run_counts_and_changes_nothing(licences):
    with time_machine.travel(at(2027, 1, 1), tick=False):
        result = licences_expire(now=timezone.now(), dry_run=True)
    assert (result.due, result.dry_run) == (4, True)
    assert set(statuses().values()) == {LicenceStatus.ACTIVE}
    assert not Event.objects.filter(action="licensing.licence.expired").exists()


def test_kennel_licences_expire_but_a_glencoe_kennel_without_a_term_does_not(
        north_branch, glencoe):
    nb = kennel(north_branch, expires_on=date(2026, 12, 31))
    gl = kennel(glencoe, expires_on=None, number="GK-1")
    with time_machine.travel(at(2026, 12, 31, 23), tick=False):
        assert kennel_licences_expire(now=timezone.now()).applied == 0
    with time_machine.travel(at(2027, 1, 1), tick=False):
        assert kennel_licences_expire(now=timezone.now()).applied == 1
        assert kennel_licences_expire(now=timezone.now()).applied == 0
    nb.refresh_from_db()
    gl.refresh_from_db()
    assert nb.status == KennelStatus.EXPIRED and gl.status == KennelStatus.ACTIVE
    assert KennelLicence.history.filter(id=nb.pk, history_change_reason=CHANGE_REASON).count() == 1


def test_the_command_prints_a_one_line_summary(licences, capsys):
    with time_machine.travel(at(2027, 1, 1), tick=False):
        call_command("expire_licences", "--dry-run")
    out = capsys.readouterr().out.strip()
    assert len(out.splitlines()) == 1
    assert "dog licences expire: 4 due, would apply 4" in out
    assert Licence.objects.filter(status=LicenceStatus.EXPIRED).count() == 0
    with time_machine.travel(at(2027, 1, 1), tick=False):
        call_command("expire_licences")
    assert Licence.objects.filter(status=LicenceStatus.EXPIRED).count() == 4
