"""The retention sweep: a ready archive is removed once its time has come."""

from datetime import timedelta

import pytest
import time_machine
from django.core.files.storage import default_storage

from base.roles import ADMINISTRATOR
from ordinance.models import Event
from records.models import ExportStatus
from records.services.exports import export_request
from records.sweeps import sweep_exports_expire
from tests.conftest import make_user
from tests.records.helpers import NOW


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.DATA_EXPORT_RETENTION_HOURS = 48


@pytest.fixture
def export(north_branch, django_capture_on_commit_callbacks):
    admin = make_user("ned", ADMINISTRATOR, [north_branch])
    with time_machine.travel(NOW, tick=False):
        with django_capture_on_commit_callbacks(execute=True):
            export = export_request(actor=admin, cities=[north_branch], now=NOW)
    export.refresh_from_db()
    assert export.expires_at == NOW + timedelta(hours=48)
    return export


def test_the_archive_stays_until_its_time_then_goes_and_the_record_stays(export):
    name = export.file.name
    assert sweep_exports_expire(now=NOW + timedelta(hours=47)).applied == 0
    assert default_storage.exists(name)
    assert sweep_exports_expire(now=NOW + timedelta(hours=48)).applied == 1
    export.refresh_from_db()
    assert export.status == ExportStatus.EXPIRED and not export.file and export.sha256
    assert not default_storage.exists(name)
    assert Event.objects.filter(action="records.export.expired", jurisdiction_id__isnull=False)


def test_running_it_twice_removes_nothing_more(export):
    assert sweep_exports_expire(now=NOW + timedelta(days=3)).applied == 1
    assert sweep_exports_expire(now=NOW + timedelta(days=3)).applied == 0
    assert Event.objects.filter(action="records.export.expired").count() == 1


def test_it_catches_up_after_a_week_down(export):
    result = sweep_exports_expire(now=NOW + timedelta(days=10))
    assert result.applied == 1
    export.refresh_from_db()
    assert export.status == ExportStatus.EXPIRED


def test_a_dry_run_removes_nothing(export):
    assert sweep_exports_expire(now=NOW + timedelta(days=3), dry_run=True).applied == 1
    export.refresh_from_db()
    assert export.status == ExportStatus.READY and default_storage.exists(export.file.name)
