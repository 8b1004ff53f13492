"""The clerk's daily close-out: the receipts one clerk issued in one
city on one business day, totaled by payment method, with the checks and voids, printed
as a deposit slip.

A close-out is a snapshot taken when the clerk closes the day, never rewritten: each
receipt belongs to at most one close-out (a unique constraint), so a receipt issued
after the day was closed (a late sale or a void that corrects the day) belongs to the
next close-out of that clerk, never to one already closed (REC-01: a correction is a new
entry).
"""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from kernel.kept import Kept
from ordinance.models import Jurisdiction

from .licenses import Receipt


class CloseOut(Kept):
    KEPT_HINT = _("A correction is a new receipt in the clerk's next close-out.")

    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.PROTECT, related_name="closeouts"
    )
    clerk = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="closeouts",
        verbose_name=_("clerk"),
    )
    business_day = models.DateField(_("business day"))
    # 1 for the day's first close-out; 2 for receipts issued after it, and so on.
    sequence = models.PositiveSmallIntegerField(_("close-out of the day"), default=1)
    closed_at = models.DateTimeField(_("closed at"))
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    receipt_count = models.PositiveIntegerField(_("receipts"))
    first_receipt = models.PositiveIntegerField(_("first receipt"))
    last_receipt = models.PositiveIntegerField(_("last receipt"))
    cash_total = models.DecimalField(_("cash"), max_digits=12, decimal_places=2)
    check_total = models.DecimalField(_("checks"), max_digits=12, decimal_places=2)
    card_total = models.DecimalField(_("card"), max_digits=12, decimal_places=2)
    total = models.DecimalField(_("total"), max_digits=12, decimal_places=2)
    void_count = models.PositiveIntegerField(_("voids"), default=0)

    history = HistoricalRecords()

    class Meta:
        ordering = ["-business_day", "-closed_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "clerk", "business_day", "sequence"],
                name="closeout_unique_per_clerk_city_day",
            ),
        ]

    def __str__(self):
        return f"Close-out {self.business_day} #{self.sequence} ({self.clerk})"

    def get_absolute_url(self):
        return reverse("licensing:closeout_detail", args=[self.pk])


class CloseOutReceipt(Kept):
    """A receipt counted in a close-out; the unique receipt keeps it in only one."""

    KEPT_HINT = CloseOut.KEPT_HINT

    closeout = models.ForeignKey(CloseOut, on_delete=models.PROTECT, related_name="entries")
    receipt = models.OneToOneField(Receipt, on_delete=models.PROTECT, related_name="closeout_entry")

    class Meta:
        ordering = ["receipt__number"]

    def __str__(self):
        return f"{self.closeout}: receipt {self.receipt_id}"
