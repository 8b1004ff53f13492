"""A city's data export: who asked, for which cities, and the archive.

The archive holds the city's own data in full (personal data included), so the row keeps
who asked and when, the file is downloadable by an administrator of every city it covers
only, and the file is removed after ``DATA_EXPORT_RETENTION_HOURS`` (``sweeps.py``). The
row itself stays, with its counts and hash, as the record that the data left.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from kernel.kept import Kept
from kernel.models import StatefulRecord, Transition
from ordinance.models import Jurisdiction


class ExportStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for the worker")
    RUNNING = "running", _("Being written")
    READY = "ready", _("Ready to download")
    FAILED = "failed", _("Failed")
    EXPIRED = "expired", _("Removed after the retention period")


def export_path(export, filename):
    return f"exports/{filename}"


class DataExport(StatefulRecord, Kept):
    """One export of one or more cities' data; the row stays after its archive is removed.

    Each transition also goes in every exported city's log (``services.exports``): the
    record's own event names no city, as an export may cover several."""

    TRANSITIONS = (
        # The worker (or the administrator's "write it now") claims it once.
        Transition(
            "start", ExportStatus.PENDING, ExportStatus.RUNNING, event="records.dataexport.running"
        ),
        Transition(
            "finish", ExportStatus.RUNNING, ExportStatus.READY, event="records.dataexport.ready"
        ),
        Transition(
            "fail", ExportStatus.RUNNING, ExportStatus.FAILED, event="records.dataexport.failed"
        ),
        # The retention sweep removes the archive (``sweeps.py``).
        Transition(
            "expire", ExportStatus.READY, ExportStatus.EXPIRED, event="records.dataexport.expired"
        ),
    )

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

    history = HistoricalRecords()

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


# --- Import ---------------------------------------------------------------------------


class ImportStatus(models.TextChoices):
    UPLOADED = "uploaded", _("Uploaded")
    DRY_RUN = "dry_run", _("Dry run done")
    QUEUED = "queued", _("Waiting for the worker")
    RUNNING = "running", _("Importing")
    DONE = "done", _("Imported")
    CANCELLED = "cancelled", _("Cancelled")
    UNDONE = "undone", _("Undone")
    FAILED = "failed", _("Failed")


class ImportLayout(models.TextChoices):
    """What one row of the file is."""

    SHEET = "sheet", _("A spreadsheet: one row per animal, with its owner and license")
    OWNERS = "licensing.owner", _("This system's export: owners")
    PREMISES = "licensing.premises", _("This system's export: premises")
    ANIMALS = "licensing.animal", _("This system's export: animals")
    VACCINATIONS = "licensing.rabiesvaccination", _("This system's export: vaccinations")
    LICENSES = "licensing.license", _("This system's export: licenses")
    TAGS = "licensing.tag", _("This system's export: tags")
    KENNELS = "licensing.kennellicense", _("This system's export: kennel licenses")
    KENNEL_ANIMALS = "licensing.kennelanimal", _("This system's export: animals of kennels")
    KENNEL_SHEET = "kennel_sheet", _("A spreadsheet: one row per kennel license, with its owner")


def import_path(batch, filename):
    return f"imports/{batch.jurisdiction.slug}/{filename}"


class MappingTemplate(models.Model):
    """A column mapping saved by name for one source of one city."""

    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="+")
    source_name = models.CharField(_("source"), max_length=80)
    name = models.CharField(_("template name"), max_length=80)
    layout = models.CharField(
        _("layout"), max_length=40, choices=ImportLayout.choices, default=ImportLayout.SHEET
    )
    mapping = models.JSONField(_("mapping"), default=dict)
    saved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    saved_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["source_name", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "source_name", "name"], name="mapping_template_unique"
            )
        ]

    def __str__(self):
        return f"{self.source_name}: {self.name}"


_UPLOADED, _DRY_RUN = ImportStatus.UPLOADED, ImportStatus.DRY_RUN
_QUEUED, _RUNNING = ImportStatus.QUEUED, ImportStatus.RUNNING


class ImportBatch(StatefulRecord, Kept):
    """One uploaded file and what became of it: dry run, import, cancel, undo."""

    TRANSITIONS = (
        # Mapped again (or a saved mapping loaded): the dry run must be done again.
        Transition("map", (_UPLOADED, _DRY_RUN), _UPLOADED, event="records.import.mapped"),
        Transition("dry_run", (_UPLOADED, _DRY_RUN), _DRY_RUN, event="records.import.dry_run"),
        Transition(
            "queue",
            (_UPLOADED, _DRY_RUN, ImportStatus.CANCELLED),
            _QUEUED,
            event="records.import.queued",
        ),
        # The worker (or the administrator's "run it now") claims it once.
        Transition("start", _QUEUED, _RUNNING, event="records.import.running"),
        # The last chunk done, or a cancel seen after a chunk.
        Transition(
            "finish",
            _RUNNING,
            (ImportStatus.DONE, ImportStatus.CANCELLED),
            event="records.import.{to}",
        ),
        Transition("cancel", _QUEUED, ImportStatus.CANCELLED, event="records.import.cancelled"),
        Transition("fail", _RUNNING, ImportStatus.FAILED, event="records.import.failed"),
        Transition(
            "undo",
            (ImportStatus.DONE, ImportStatus.CANCELLED, ImportStatus.FAILED),
            ImportStatus.UNDONE,
            event="records.import.undone",
        ),
    )

    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="+")
    source_name = models.CharField(
        _("source"),
        max_length=80,
        help_text=_("The old system or spreadsheet the rows come from, e.g. “PetData 2019”."),
    )
    layout = models.CharField(
        _("layout"), max_length=40, choices=ImportLayout.choices, default=ImportLayout.SHEET
    )
    file = models.FileField(_("file"), upload_to=import_path, max_length=300)
    original_name = models.CharField(_("file name"), max_length=200)
    mapping = models.JSONField(_("mapping"), default=dict, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=ImportStatus.choices, default=ImportStatus.UPLOADED
    )
    cancel_requested = models.BooleanField(default=False)
    total_rows = models.PositiveIntegerField(_("rows"), default=0)
    processed_rows = models.PositiveIntegerField(_("rows done"), default=0)
    created_count = models.PositiveIntegerField(_("created"), default=0)
    updated_count = models.PositiveIntegerField(_("updated"), default=0)
    matched_count = models.PositiveIntegerField(_("matched"), default=0)
    skipped_count = models.PositiveIntegerField(_("skipped"), default=0)
    error_count = models.PositiveIntegerField(_("with errors"), default=0)
    report = models.JSONField(_("dry run report"), default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    error = models.TextField(_("error"), blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("import batch")
        verbose_name_plural = _("import batches")

    def __str__(self):
        return f"Import {self.pk} from {self.source_name}"

    @property
    def change_reason(self) -> str:
        """What each imported row's audit history says (django-simple-history)."""
        return f"Import batch {self.pk} from {self.source_name}"[:100]

    @property
    def percent(self) -> int:
        if not self.total_rows:
            return 100 if self.status == ImportStatus.DONE else 0
        return min(100, self.processed_rows * 100 // self.total_rows)

    @property
    def is_active(self) -> bool:
        return self.status in (ImportStatus.QUEUED, ImportStatus.RUNNING)


class ImportAction(models.TextChoices):
    CREATED = "created", _("Created")
    UPDATED = "updated", _("Updated")
    MATCHED = "matched", _("Matched an existing record")


class ImportRecord(models.Model):
    """A record an import wrote or matched, keyed by the source's own id: a second run
    finds it (updates, never duplicates) and an undo knows what to remove."""

    batch = models.ForeignKey(ImportBatch, on_delete=models.PROTECT, related_name="records")
    # Denormalised from the batch: the idempotence key is (city, source, table, source id).
    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="+")
    source_name = models.CharField(max_length=80)
    source_table = models.CharField(max_length=40)
    source_id = models.CharField(max_length=200)
    row_number = models.PositiveIntegerField()
    target_model = models.CharField(max_length=60)
    target_pk = models.PositiveBigIntegerField()
    action = models.CharField(max_length=8, choices=ImportAction.choices)

    class Meta:
        ordering = ["pk"]
        indexes = [
            models.Index(
                fields=["jurisdiction", "source_name", "source_table", "source_id"],
                name="import_record_source_idx",
            ),
            models.Index(fields=["target_model", "target_pk"], name="import_record_target_idx"),
        ]

    def __str__(self):
        return f"{self.source_table} {self.source_id} -> {self.target_model} {self.target_pk}"


class ImportIssue(models.Model):
    """A row the import could not take as it is: an error, or a duplicate for a clerk."""

    class Kind(models.TextChoices):
        ERROR = "error", _("Error")
        DUPLICATE = "duplicate", _("Possible duplicate: for a clerk to decide")
        SKIPPED = "skipped", _("Not imported, and why")
        NOTE = "note", _("Imported, with a note for a clerk")

    batch = models.ForeignKey(ImportBatch, on_delete=models.CASCADE, related_name="issues")
    row_number = models.PositiveIntegerField(_("row"))
    field = models.CharField(_("field"), max_length=80, blank=True)
    message = models.TextField(_("message"))
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.ERROR)
    dry_run = models.BooleanField(default=False)

    class Meta:
        ordering = ["row_number", "pk"]

    def __str__(self):
        return f"Row {self.row_number}: {self.message}"
