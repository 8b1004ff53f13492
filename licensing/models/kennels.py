"""Kennel licences (KEN-03..08): application, review decisions, issuance, denial and appeal.

Built here so kennel review, expiry and reports can be written on top; the workflow lives
in services. Decisions are records of who decided, in what capacity, and why
(architecture.md, "People decide; the software records").
"""

from datetime import date

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ordinance.models import Jurisdiction

from .licences import Receipt
from .registry import Animal, JurisdictionScopedQuerySet, Owner, Premises


class KennelStatus(models.TextChoices):
    APPLIED = "applied", _("Applied")
    UNDER_REVIEW = "under_review", _("Under review")
    APPROVED = "approved", _("Approved, not yet issued")
    ACTIVE = "active", _("Active")
    DENIED = "denied", _("Denied")
    APPEALED = "appealed", _("Denial appealed")
    DENIED_FINAL = "denied_final", _("Denied (final)")
    EXPIRED = "expired", _("Expired")
    REVOKED = "revoked", _("Revoked")


class KennelLicence(models.Model):
    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.PROTECT, related_name="kennel_licences"
    )
    number = models.CharField(_("licence number"), max_length=20, blank=True)
    owner = models.ForeignKey(Owner, on_delete=models.PROTECT, related_name="kennel_licences")
    premises = models.ForeignKey(
        Premises, on_delete=models.PROTECT, related_name="kennel_licences"
    )
    status = models.CharField(_("status"), max_length=14, choices=KennelStatus.choices,
                              default=KennelStatus.APPLIED)
    business_nature = models.CharField(
        _("nature of business"), max_length=200, blank=True,
        help_text=_("Buying, selling, breeding and/or boarding (NB Sec. 6-65(a))."),
    )
    dog_count = models.PositiveSmallIntegerField(_("number of dogs"), default=0)
    cat_count = models.PositiveSmallIntegerField(_("number of cats"), default=0)
    cup_reference = models.CharField(_("conditional use permit"), max_length=60, blank=True)
    conditions = models.TextField(_("conditions"), blank=True)
    applied_on = models.DateField(_("applied on"))
    # LIC-13 applies to kennels too (NB Sec. 6-65(c)): no late penalty when the kennel
    # became subject to licensing after the term started and applies within the grace days.
    became_subject_on = models.DateField(
        _("became subject to licensing on"), null=True, blank=True,
        help_text=_("When the premises started keeping animals as a kennel, if after the "
                    "licence term started (LIC-13)."),
    )
    issued_on = models.DateField(_("issued on"), null=True, blank=True)
    # Null where the ordinance sets no term (Glencoe, KEN-05): valid until revoked.
    expires_on = models.DateField(_("expires on"), null=True, blank=True)
    denied_on = models.DateField(_("denied on"), null=True, blank=True)
    denial_notified_on = models.DateField(_("denial notified on"), null=True, blank=True)
    appeal_deadline = models.DateField(_("appeal deadline"), null=True, blank=True)
    receipt = models.ForeignKey(
        Receipt, null=True, blank=True, on_delete=models.PROTECT, related_name="kennel_licences"
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()
    objects = JurisdictionScopedQuerySet.as_manager()

    class Meta:
        ordering = ["-applied_on", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["jurisdiction", "number"], condition=~Q(number=""),
                                    name="kennel_number_unique_per_city"),
        ]
        indexes = [
            models.Index(fields=["premises", "status"], name="kennel_premises_status_idx"),
        ]

    def __str__(self):
        return f"Kennel licence {self.number or '(applied)'} — {self.premises}"

    def get_absolute_url(self):
        return reverse("licensing:kennel_detail", args=[self.pk])

    @property
    def fee_paid(self) -> bool:
        """The fee receipt stands: paid and not voided (LIC-06, REC-01). A voided receipt
        leaves the application needing the fee again; pages select ``receipt__voided_by``
        so this reads no row."""
        return self.receipt_id is not None and not hasattr(self.receipt, "voided_by")

    def is_current(self, on: date) -> bool:
        if self.status != KennelStatus.ACTIVE:
            return False
        return self.expires_on is None or on <= self.expires_on


class KennelDecision(models.Model):
    """One review step's outcome, decided by a person (KEN-04, KEN-07)."""

    class Outcome(models.TextChoices):
        APPROVED = "approved", _("Approved / satisfied")
        DENIED = "denied", _("Denied")
        REFERRED = "referred", _("Referred")
        CONDITIONS = "conditions", _("Approved with conditions")

    kennel_licence = models.ForeignKey(
        KennelLicence, on_delete=models.PROTECT, related_name="decisions"
    )
    step = models.CharField(_("review step"), max_length=120)
    outcome = models.CharField(_("outcome"), max_length=12, choices=Outcome.choices)
    decided_by_name = models.CharField(_("decided by"), max_length=120)
    decided_by_capacity = models.CharField(_("in the capacity of"), max_length=120)
    decided_on = models.DateField(_("decided on"))
    reasons = models.TextField(_("reasons"), blank=True)
    citation = models.CharField(_("rule applied"), max_length=200, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["decided_on", "pk"]

    def __str__(self):
        return f"{self.step}: {self.get_outcome_display()}"


class KennelAnimal(models.Model):
    """An animal kept under a kennel licence."""

    kennel_licence = models.ForeignKey(
        KennelLicence, on_delete=models.PROTECT, related_name="kennel_animals"
    )
    animal = models.ForeignKey(Animal, on_delete=models.PROTECT, related_name="kennel_memberships")
    added_on = models.DateField(_("added on"))
    removed_on = models.DateField(_("removed on"), null=True, blank=True)

    history = HistoricalRecords()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kennel_licence", "animal"],
                                    name="kennel_animal_unique"),
        ]

    def __str__(self):
        return f"{self.animal} in {self.kennel_licence}"
