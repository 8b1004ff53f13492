"""Compliance with the Subd. 15(E) requirements and the certificate of registration
(DD-10..DD-15, C30)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext as __
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from kernel.kept import Kept
from licensing.models import Owner, Receipt
from notices.models import IssuedDocument
from ordinance.models import Jurisdiction

from .case import DesignationCase


class Requirement(models.TextChoices):
    ENCLOSURE = "enclosure", _("Proper enclosure and warning sign with the warning symbol")
    COVERAGE = "coverage", _("Surety bond or liability insurance")
    FEE = "fee", _("Annual registration fee paid")
    MICROCHIP = "microchip", _("Microchip implanted")


class CoverageKind(models.TextChoices):
    BOND = "bond", _("Surety bond")
    INSURANCE = "insurance", _("Liability insurance policy")


def proof_path(item, filename):
    return f"dangerous-dogs/{item.case.jurisdiction.slug}/proof/{filename}"


class ComplianceProof(Kept):
    """Evidence of one requirement, verified by a person (DD-10, C30).

    A new proof replaces nothing: the latest verified proof of each requirement counts,
    and an expired bond needs a new row at renewal (DD-15)."""

    case = models.ForeignKey(DesignationCase, on_delete=models.PROTECT, related_name="proofs")
    requirement = models.CharField(_("requirement"), max_length=10, choices=Requirement.choices)
    details = models.TextField(_("what was shown"), blank=True)
    document = models.FileField(
        _("photo or document"), upload_to=proof_path, blank=True, max_length=300
    )
    coverage_kind = models.CharField(
        _("coverage"), max_length=10, choices=CoverageKind.choices, blank=True
    )
    issuer = models.CharField(_("surety or insurer"), max_length=160, blank=True)
    policy_number = models.CharField(_("bond or policy number"), max_length=80, blank=True)
    amount = models.DecimalField(
        _("amount"), max_digits=12, decimal_places=2, null=True, blank=True
    )
    expires_on = models.DateField(_("expires on"), null=True, blank=True)
    microchip = models.CharField(_("microchip number"), max_length=20, blank=True)
    microchip_manufacturer = models.CharField(_("manufacturer"), max_length=80, blank=True)
    implanted_on = models.DateField(_("implanted on"), null=True, blank=True)
    veterinarian = models.CharField(_("implanted by (veterinarian)"), max_length=160, blank=True)
    receipt = models.ForeignKey(
        Receipt, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    verified_on = models.DateField(_("verified on"))
    verified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["requirement", "-verified_on", "-pk"]
        verbose_name = _("compliance proof")

    def __str__(self):
        return f"{self.get_requirement_display()} ({self.verified_on})"


class Registration(Kept):
    """A certificate of registration of a dangerous dog (C30), one per year (DD-15)."""

    case = models.ForeignKey(
        DesignationCase, on_delete=models.PROTECT, related_name="registrations"
    )
    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="+")
    number = models.CharField(_("certificate number"), max_length=30)
    owner = models.ForeignKey(Owner, on_delete=models.PROTECT, related_name="+")
    issued_on = models.DateField(_("issued on"))
    expires_on = models.DateField(_("renew by"))
    renewal_citation = models.CharField(_("renewal section"), max_length=200)
    fee = models.DecimalField(_("fee"), max_digits=8, decimal_places=2)
    receipt = models.OneToOneField(
        Receipt, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    document = models.ForeignKey(
        IssuedDocument, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    renews = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="renewed_by"
    )
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["-issued_on", "-pk"]
        verbose_name = _("dangerous-dog registration")
        constraints = [
            models.UniqueConstraint(fields=["jurisdiction", "number"], name="dd_reg_number_unique"),
            models.CheckConstraint(
                condition=Q(expires_on__gt=models.F("issued_on")), name="dd_reg_expires_after_issue"
            ),
        ]
        indexes = [models.Index(fields=["jurisdiction", "expires_on"], name="dd_reg_expiry_idx")]

    def __str__(self):
        return f"{__('Registration')} {self.number}"
