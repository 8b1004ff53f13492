"""The export's use cases: ask, build (in the worker), download, remove after retention.

Issue 19 item 2: an administrator downloads everything their cities own as one archive.
Asking queues the build for the Celery worker after commit, as issue 15 queues document
layout (``notices.services.documents_render_after_commit``); if no worker picks it up,
the administrator can have it written on the spot from its page, as a document not yet
laid out is laid out at its first print. Each step is an event in every exported city's
log (rules.md REC-18).
"""

import hashlib
import logging
import tempfile
from contextlib import contextmanager
from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.core.files import File
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from base.roles import ADMINISTRATOR
from ordinance.models import Event, Jurisdiction

from ..models import DataExport, ExportStatus
from .archive import CHUNK_BYTES, archive_write

logger = logging.getLogger(__name__)


def _record(action: str, export: DataExport, cities, *, actor=None, at=None, data=None):
    for city in cities:
        Event.record(
            action,
            export,
            actor=actor,
            jurisdiction=city,
            at=at,
            summary=_("Data export %(pk)s of %(cities)s")
            % {"pk": export.pk, "cities": ", ".join(c.short_name for c in cities)},
            data=data or {},
        )


def _check_administrator(actor, cities) -> None:
    if not actor.has_role(ADMINISTRATOR) or not cities:
        raise PermissionDenied(_("Only an administrator may export a city's data."))
    if any(not actor.serves(city.pk) for city in cities):
        raise PermissionDenied(_("You may export only the cities you serve."))


@transaction.atomic
def export_request(*, actor, cities: list[Jurisdiction], now: datetime | None = None):
    """Record the request and queue the build for the worker once this commits."""
    now = now or timezone.now()
    cities = sorted(cities, key=lambda c: c.pk)
    _check_administrator(actor, cities)
    export = DataExport.objects.create(requested_by=actor, requested_at=now)
    export.jurisdictions.set(cities)
    _record("records.export.requested", export, cities, actor=actor, at=now)

    def queue():
        from ..tasks import build_export

        build_export.delay(export.pk)

    # robust: the request is recorded; a broker that cannot be reached is logged, and the
    # page offers to write the archive on the spot.
    transaction.on_commit(queue, robust=True)
    return export


@contextmanager
def _one_snapshot():
    """Read every table as of one moment on PostgreSQL, so counts and links agree."""
    if connection.in_atomic_block:  # inside a caller's transaction (a test's): use it
        yield
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def _claim(pk: int, now: datetime) -> bool:
    """Pending to running, once: a second worker (or a second click) does nothing."""
    return bool(
        DataExport.objects.filter(pk=pk, status=ExportStatus.PENDING).update(
            status=ExportStatus.RUNNING, started_at=now
        )
    )


def _sha256(handle) -> tuple[str, int]:
    handle.seek(0)
    digest, size = hashlib.sha256(), 0
    while block := handle.read(CHUNK_BYTES):
        digest.update(block)
        size += len(block)
    handle.seek(0)
    return digest.hexdigest(), size


def export_build(*, export_pk: int, now: datetime | None = None) -> DataExport | None:
    """Write the archive of a pending export and store it. None if another run has it."""
    now = now or timezone.now()
    if not _claim(export_pk, now):
        return None
    export = DataExport.objects.select_related("requested_by").get(pk=export_pk)
    cities = list(export.jurisdictions.order_by("pk"))
    try:
        with tempfile.TemporaryFile() as handle:
            with _one_snapshot():
                manifest = archive_write(
                    handle, cities=cities, requested_by=export.requested_by, now=now
                )
            sha256, size = _sha256(handle)
            slugs = "+".join(c.slug for c in cities)
            export.file.save(f"{slugs}/{export.download_name}", File(handle), save=False)
    except Exception as error:
        _fail(export, cities, error)
        raise
    finished = timezone.now()
    export.status = ExportStatus.READY
    export.finished_at = finished
    export.expires_at = finished + timedelta(hours=settings.DATA_EXPORT_RETENTION_HOURS)
    export.sha256, export.size = sha256, size
    export.counts = {name: t["rows"] for name, t in manifest["tables"].items()}
    export.save()
    _record("records.export.ready", export, cities, at=finished, data={"sha256": sha256})
    return export


def _fail(export, cities, error) -> None:
    logger.exception("Data export %s failed", export.pk)
    DataExport.objects.filter(pk=export.pk).update(
        status=ExportStatus.FAILED, finished_at=timezone.now(), error=str(error)[:2000]
    )
    _record("records.export.failed", export, cities, data={"error": str(error)[:300]})


def export_downloaded(*, export: DataExport, actor, now: datetime | None = None) -> None:
    """The archive left the building: who took it, when (personal data, in full)."""
    cities = list(export.jurisdictions.all())
    _check_administrator(actor, cities)
    _record("records.export.downloaded", export, cities, actor=actor, at=now)


def export_remove_file(export: DataExport, now: datetime) -> None:
    """The retention sweep's transition: the file goes, the record of it stays."""
    if export.file:
        export.file.delete(save=False)
    export.status = ExportStatus.EXPIRED
    export.save(update_fields=["file", "status"])
    _record(
        "records.export.expired",
        export,
        list(export.jurisdictions.all()),
        at=now,
        data={"sha256": export.sha256},
    )
