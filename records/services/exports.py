"""The export's use cases: ask, build (in the worker), download, remove after retention.

An administrator downloads everything their cities own as one archive.
Asking queues the build for the Celery worker after commit, as documents are queued for
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
from django.core.files import File
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l

from base.roles import ADMINISTRATOR
from kernel.checks import refuse_unless_serves
from ordinance.models import Event, Jurisdiction
from ordinance.refusals import Refused

from ..models import DataExport
from .archive import CHUNK_BYTES, archive_write

logger = logging.getLogger(__name__)
EXPORT = _l("Export")


def _summary(export: DataExport, cities=None) -> str:
    cities = list(export.jurisdictions.all()) if cities is None else cities
    return _("Data export %(pk)s of %(cities)s") % {
        "pk": export.pk,
        "cities": ", ".join(c.short_name for c in cities),
    }


def _record(action: str, export: DataExport, cities, *, actor=None, at=None, data=None):
    """The step in each exported city's log (the record's own event names no city)."""
    for city in cities:
        Event.record(
            action,
            export,
            actor=actor,
            jurisdiction=city,
            at=at,
            summary=_summary(export, cities),
            data=data or {},
        )


def _check_administrator(actor, cities) -> None:
    if not actor.has_role(ADMINISTRATOR) or not cities:
        raise Refused.because(EXPORT, _("Only an administrator may export a city's data."))
    for city in cities:
        refuse_unless_serves(actor, city)


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


def _claim(pk: int, now: datetime) -> DataExport | None:
    """Pending to running, once: a second worker (or a second click) waits on the row
    lock, then finds it taken (None)."""
    with transaction.atomic():
        export = (
            DataExport.objects.select_for_update(of=("self",))
            .select_related("requested_by")
            .filter(pk=pk)
            .first()
        )
        if export is None or not export.may("start"):
            return None
        export.started_at = now
        export.apply("start", at=now, summary=_summary(export), fields=["started_at"])
    return export


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
    export = _claim(export_pk, now)
    if export is None:
        return None
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
    export.finished_at = finished
    export.expires_at = finished + timedelta(hours=settings.DATA_EXPORT_RETENTION_HOURS)
    export.sha256, export.size = sha256, size
    export.counts = {name: t["rows"] for name, t in manifest["tables"].items()}
    export.apply(
        "finish",
        at=finished,
        summary=_summary(export),
        fields=["file", "finished_at", "expires_at", "sha256", "size", "counts"],
    )
    _record("records.export.ready", export, cities, at=finished, data={"sha256": sha256})
    return export


def _fail(export, cities, error) -> None:
    logger.exception("Data export %s failed", export.pk)
    export.finished_at, export.error = timezone.now(), str(error)[:2000]
    export.apply("fail", summary=_summary(export), fields=["finished_at", "error"])
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
    export.apply("expire", at=now, summary=_summary(export), fields=["file"])
    _record(
        "records.export.expired",
        export,
        list(export.jurisdictions.all()),
        at=now,
        data={"sha256": export.sha256},
    )
