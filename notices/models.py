"""Documents as issued: the frozen data, the archived PDF and its hash.

An issued document is the city's proof of what was served or handed over (a receipt, a
license certificate, a notice of impounding). It is never changed or deleted: a mistake is
corrected by a void record that points at the original (architecture.md, "Documents";
style.md, "Issued records are never deleted").
"""

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.urls import reverse
from django.utils.text import get_valid_filename
from django.utils.translation import gettext as __
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from base.access import in_user_cities
from kernel.kept import Kept, KeptQuerySet, RecordKept
from ordinance.models import Jurisdiction


class PageSize(models.TextChoices):
    LETTER = "letter", _("Letter (8.5 × 11 in)")
    RECEIPT = "receipt", _("Receipt printer (80 mm roll)")


def _never_changed(model):
    return RecordKept(model, __("Issued documents are never changed; void them instead."))


class IssuedDocumentQuerySet(KeptQuerySet):
    """Bulk writes are refused too, so nothing reaches around ``IssuedDocument.delete``."""

    def update(self, **kwargs):
        raise _never_changed(self.model)

    def archive_deferred_pdf(self, *, file: str, sha256: str, size: int) -> int:
        """The one write an issued row takes: the PDF of a document issued under
        ``services.rendering_deferred``, laid out from its frozen snapshot at its first
        print. Only rows with no PDF yet match, so an archived file is never replaced."""
        return models.QuerySet.update(self.filter(sha256=""), file=file, sha256=sha256, size=size)

    def for_user(self, user):
        """Documents this user may see: staff by jurisdiction, a resident their own."""
        if not user.is_authenticated:
            return self.none()
        own = self.filter(owner_user_id=user.pk)
        return own | in_user_cities(self, user) if user.is_staff_member else own


def archive_path(document, filename):
    # One folder per city and year keeps the archive browsable from a shell.
    return f"documents/{document.jurisdiction.slug}/{document.issued_at:%Y}/{filename}"


class IssuedDocument(Kept):
    """One document as issued: snapshot, PDF file, SHA-256, who and when."""

    KEPT_HINT = _("Void them instead.")

    kind = models.SlugField(
        _("kind"),
        max_length=60,
        help_text=_("What the document is: receipt, license_certificate, …"),
    )
    number = models.CharField(_("number"), max_length=60, blank=True)
    title = models.CharField(_("title"), max_length=200)
    template = models.CharField(
        _("template"), max_length=200, help_text=_("Under templates/documents/.")
    )
    page_size = models.CharField(_("page size"), max_length=10, choices=PageSize.choices)
    snapshot = models.JSONField(_("data as issued"), default=dict)
    file = models.FileField(_("archived PDF"), upload_to=archive_path, max_length=300)
    sha256 = models.CharField(_("SHA-256"), max_length=64)
    size = models.PositiveIntegerField(_("size in bytes"))
    issued_at = models.DateTimeField(_("issued at"), db_index=True)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("issued by"),
        help_text=_("Empty when the system issued it (a scheduled job)."),
    )
    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.PROTECT, related_name="issued_documents"
    )
    subject_type = models.ForeignKey(
        ContentType, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    subject_id = models.PositiveBigIntegerField(null=True, blank=True)
    subject = GenericForeignKey("subject_type", "subject_id")
    owner_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="documents",
        verbose_name=_("resident who may download it"),
    )
    voids = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="void_record",
        verbose_name=_("voids document"),
    )
    void_reason = models.TextField(_("reason for voiding"), blank=True)

    objects = IssuedDocumentQuerySet.as_manager()

    class Meta:
        ordering = ["-issued_at", "-pk"]
        verbose_name = _("issued document")
        indexes = [
            # The archive list: a city's documents, newest first.
            models.Index(fields=["jurisdiction", "-issued_at"], name="doc_jurisdiction_issued_idx"),
            models.Index(fields=["subject_type", "subject_id"], name="doc_subject_idx"),
            models.Index(fields=["kind", "number"], name="doc_kind_number_idx"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(voids__isnull=False) | ~models.Q(void_reason=""),
                name="doc_void_has_reason",
            ),
        ]

    def __str__(self):
        return f"{self.title} {self.number}".strip()

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise _never_changed(type(self))
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return reverse("notices:document_detail", args=[self.pk])

    @property
    def is_pending(self) -> bool:
        """Issued (number, frozen data, who and when) but its PDF not laid out yet: the
        worker's job after commit, or its first print's (``services.rendering_deferred``)."""
        return not self.sha256

    @property
    def is_void_record(self) -> bool:
        return self.voids_id is not None

    @property
    def is_voided(self) -> bool:
        """True when a later void record points at this document."""
        try:
            return self.void_record is not None
        except IssuedDocument.DoesNotExist:
            return False

    @property
    def download_name(self) -> str:
        return get_valid_filename(f"{self.kind}-{self.number or self.pk}.pdf")


class ServiceMethod(models.TextChoices):
    PERSONAL = "personal", _("Handed to the person")
    MAIL = "mail", _("First-class mail")
    CERTIFIED = "certified", _("Certified mail")
    EMAIL = "email", _("E-mail")
    PHONE = "phone", _("Telephone call")
    POSTED = "posted", _("Posted")
    LEFT = "left", _("Left at the premises")
    TEXT = "text", _("Text message")


class ServiceRecord(models.Model):
    """How a notice reached (or was meant to reach) a person: one row per attempt.

    Its own row because an issued document refuses every change: serving it, posting it
    at the Police Station, or an owner's signed receipt a week later are facts recorded
    after the document was issued (rules.md IMP-05, DD-03; NB Sec. 6-68 "every possible
    effort" is the list of attempts). Attempts that reached no one are kept too.
    """

    document = models.ForeignKey(
        IssuedDocument,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="service_records",
        verbose_name=_("document served"),
        help_text=_("Empty for a telephone call or other attempt without a document."),
    )
    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="+")
    subject_type = models.ForeignKey(
        ContentType, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    subject_id = models.PositiveBigIntegerField(null=True, blank=True)
    subject = GenericForeignKey("subject_type", "subject_id")
    method = models.CharField(_("method"), max_length=12, choices=ServiceMethod.choices)
    served_to = models.CharField(_("served on or sent to"), max_length=200, blank=True)
    served_by_name = models.CharField(_("served by"), max_length=120, blank=True)
    served_at = models.DateTimeField(_("served or attempted at"))
    succeeded = models.BooleanField(_("reached the person"), default=True)
    result = models.CharField(_("result"), max_length=300, blank=True)
    received_on = models.DateField(_("received on"), null=True, blank=True)
    posted_where = models.CharField(_("posted at"), max_length=200, blank=True)
    posted_until = models.DateField(_("posted until"), null=True, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("Empty when the system sent it (an e-mail after commit)."),
    )
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["served_at", "pk"]
        verbose_name = _("service record")
        indexes = [models.Index(fields=["subject_type", "subject_id"], name="service_subject_idx")]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(method="posted") | ~models.Q(posted_where=""),
                name="service_posting_has_place",
            ),
        ]

    def __str__(self):
        return f"{self.get_method_display()} {self.served_at:%Y-%m-%d %H:%M}"


class DecisionOutcome(models.TextChoices):
    APPROVED = "approved", _("Approved / granted")
    DENIED = "denied", _("Denied")
    ORDERED = "ordered", _("Ordered")
    UPHELD = "upheld", _("Upheld")
    NOT_UPHELD = "not_upheld", _("Not upheld")
    WITHDRAWN = "withdrawn", _("Withdrawn")
    REFERRED = "referred", _("Referred")


def evidence_path(decision, filename):
    return f"evidence/{decision.jurisdiction.slug}/{filename}"


class Decision(Kept):
    """A person's decision on a case: who, in which capacity, when, what, why, on what
    evidence and under which rule (an adoption, a euthanasia, a court's authorization,
    a dangerous-dog finding, a quarantine release). Like ``KennelDecision`` but for any
    record (rules.md Appendix A: "Decides: PERSON"). Never changed: a later decision
    (an appeal's) is a new row naming the one it reviews.
    """

    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="+")
    subject_type = models.ForeignKey(ContentType, on_delete=models.PROTECT, related_name="+")
    subject_id = models.PositiveBigIntegerField()
    subject = GenericForeignKey("subject_type", "subject_id")
    kind = models.SlugField(
        _("what was decided"), max_length=60, help_text=_("adoption, euthanasia, …")
    )
    outcome = models.CharField(_("outcome"), max_length=12, choices=DecisionOutcome.choices)
    decided_by_name = models.CharField(_("decided by"), max_length=120)
    decided_by_capacity = models.CharField(_("in the capacity of"), max_length=120)
    decided_on = models.DateField(_("decided on"))
    reasons = models.TextField(_("reasons"))
    evidence = models.TextField(_("evidence considered"), blank=True)
    evidence_file = models.FileField(
        _("evidence document"), upload_to=evidence_path, blank=True, max_length=300
    )
    citation = models.CharField(_("rule applied"), max_length=200)
    reviews = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="reviewed_by",
        verbose_name=_("reviews decision"),
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)

    class Meta:
        ordering = ["decided_on", "pk"]
        verbose_name = _("decision")
        indexes = [models.Index(fields=["subject_type", "subject_id"], name="decision_subject_idx")]

    def __str__(self):
        return f"{self.kind}: {self.get_outcome_display()} ({self.decided_on})"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise RecordKept(
                type(self),
                __("Decisions are never changed; record a new decision that reviews it."),
            )
        super().save(*args, **kwargs)
