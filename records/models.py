"""A city's data export (issue 19, item 2): who asked, for which cities, and the archive.

The archive holds the city's own data in full (personal data included), so the row keeps
who asked and when, the file is downloadable by an administrator of every city it covers
only, and the file is removed after ``DATA_EXPORT_RETENTION_HOURS`` (``sweeps.py``). The
row itself stays, with its counts and hash, as the record that the data left.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ordinance.models import Jurisdiction


class ExportStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for the worker")
    RUNNING = "running", _("Being written")
    READY = "ready", _("Ready to download")
    FAILED = "failed", _("Failed")
    EXPIRED = "expired", _("Removed after the retention period")


def export_path(export, filename):
    return f"exports/{filename}"


class DataExport(models.Model):
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("requested by"),
    )
    jurisdictions = models.ManyToManyField(
        Jurisdiction, related_name="+", verbose_name=_("cities exported")
    )
    status = models.CharField(
        _("status"), max_length=10, choices=ExportStatus.choices, default=ExportStatus.PENDING
    )
    requested_at = models.DateTimeField(_("requested at"))
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    expires_at = models.DateTimeField(
        _("file removed at"),
        null=True,
        blank=True,
        help_text=_("When the archive is removed; the record of the export stays."),
    )
    file = models.FileField(_("archive"), upload_to=export_path, blank=True, max_length=300)
    sha256 = models.CharField(_("SHA-256 of the archive"), max_length=64, blank=True)
    size = models.PositiveBigIntegerField(_("size in bytes"), null=True, blank=True)
    counts = models.JSONField(_("rows per table"), default=dict, blank=True)
    error = models.TextField(_("error"), blank=True)

    class Meta:
        ordering = ["-requested_at", "-pk"]
        verbose_name = _("data export")
        indexes = [
            # The retention sweep: ready exports whose removal time has come.
            models.Index(fields=["status", "expires_at"], name="export_status_expires_idx"),
        ]

    def __str__(self):
        return f"Export {self.pk} ({self.get_status_display()})"

    @property
    def is_ready(self) -> bool:
        return self.status == ExportStatus.READY and bool(self.file)

    @property
    def download_name(self) -> str:
        return f"export-{self.pk}-{self.requested_at:%Y%m%d-%H%M}.zip"
