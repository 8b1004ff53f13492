"""What the owner reports (C32-C34) and the sterilization order (DD-16..DD-19, C37,
MN-07)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext as __
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from kernel.kept import Kept
from notices.models import IssuedDocument

from .case import DesignationCase


class ReportKind(models.TextChoices):
    DEATH = "death", _("The dog died")
    TRANSFER = "transfer", _("The dog moved to another jurisdiction")
    SALE = "sale", _("The dog was sold")
    LEASE = "lease", _("Disclosure to a landlord")


def affidavit_path(report, filename):
    return f"dangerous-dogs/{report.case.jurisdiction.slug}/reports/{filename}"


class OwnerReport(Kept):
    """What the owner tells the authority (C32-C34): death, transfer, sale, a lease."""

    case = models.ForeignKey(DesignationCase, on_delete=models.PROTECT, related_name="reports")
    kind = models.CharField(_("report"), max_length=10, choices=ReportKind.choices)
    event_on = models.DateField(_("date of the death, transfer, sale or lease"))
    notified_on = models.DateField(_("written notice received on"))
    due_on = models.DateField(_("notice due by"), null=True, blank=True)
    late = models.BooleanField(_("notice late"), default=False)
    citation = models.CharField(_("section"), max_length=200)
    circumstances = models.TextField(_("circumstances and disposition"), blank=True)
    party_name = models.CharField(
        _("transferee, buyer or property owner"), max_length=160, blank=True
    )
    party_address = models.CharField(_("their address"), max_length=300, blank=True)
    party_phone = models.CharField(_("their telephone"), max_length=40, blank=True)
    buyer_informed = models.BooleanField(
        _("the buyer was told the dog is dangerous"), default=False
    )
    lease_term = models.CharField(_("lease term"), max_length=120, blank=True)
    affidavit_requested_on = models.DateField(_("affidavit requested on"), null=True, blank=True)
    affidavit = models.FileField(
        _("affidavit under oath"), upload_to=affidavit_path, blank=True, max_length=300
    )
    affidavit_received_on = models.DateField(_("affidavit received on"), null=True, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["event_on", "pk"]
        verbose_name = _("owner's report")

    def __str__(self):
        return f"{self.get_kind_display()} ({self.event_on})"


def certificate_path(order, filename):
    return f"dangerous-dogs/{order.case.jurisdiction.slug}/sterilization/{filename}"


class SterilizationOrder(Kept):
    """An order to sterilize a dangerous dog at the owner's expense (DD-17, C37, MN-07)."""

    case = models.ForeignKey(
        DesignationCase, on_delete=models.PROTECT, related_name="sterilization_orders"
    )
    ordered_on = models.DateField(_("ordered on"))
    due_on = models.DateField(_("due by"))
    due_citation = models.CharField(_("section"), max_length=200)
    document = models.ForeignKey(
        IssuedDocument, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    done_on = models.DateField(_("sterilized on"), null=True, blank=True)
    done_by_authority = models.BooleanField(
        _("done by the authority at the owner's expense"), default=False
    )
    veterinarian = models.CharField(_("veterinarian"), max_length=160, blank=True)
    certificate = models.FileField(
        _("veterinarian's statement"), upload_to=certificate_path, blank=True, max_length=300
    )
    overdue_flagged_on = models.DateField(
        _("overdue: flagged to a person on"),
        null=True,
        blank=True,
        help_text=_("Set once by the sweep when the due date passed undone."),
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["ordered_on", "pk"]
        verbose_name = _("sterilization order")

    def __str__(self):
        return f"{__('Sterilization due')} {self.due_on}"
