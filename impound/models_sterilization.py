"""Sterilization agreements on adoption (IMP-11..14; NB Sec. 6-72 C17/C18; GL Subd. 26
C19-C21): the adopter's agreement, its due date and deposit, and the transitions that
end it.

Imported at the end of impound/models.py, so Django finds the model in the impound app.
"""

from datetime import date

from django.conf import settings
from django.db import models
from django.utils.formats import date_format
from django.utils.translation import gettext as __
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from kernel.kept import Kept
from kernel.models import StatefulRecord, Transition
from licensing.models import Receipt
from ordinance.models import Jurisdiction


class AgreementStatus(models.TextChoices):
    PENDING = "pending", _("Sterilization pending")
    OVERDUE = "overdue", _("Overdue")
    STERILIZED = "sterilized", _("Sterilized")
    WAIVED = "waived", _("Waived (purebred breeding animal)")
    FORFEITED = "forfeited", _("Deposit forfeited")


class DepositStatus(models.TextChoices):
    NONE = "none", _("No deposit")
    HELD = "held", _("Held")
    REMITTED = "remitted", _("Remitted to the veterinarian")
    FORFEITED = "forfeited", _("Forfeited")


def certificate_path(agreement, filename):
    return f"impound/sterilization/{agreement.case.jurisdiction.slug}/{filename}"


# An agreement the adopter still owes a certificate on (the sterilization list).
OPEN_AGREEMENT_STATUSES = (AgreementStatus.PENDING, AgreementStatus.OVERDUE)


class SterilizationAgreement(StatefulRecord, Kept):
    """The adopter's agreement to sterilize (NB Sec. 6-72 C17/C18; GL Subd. 26 C19-C21).

    Pending until the veterinarian's certificate (IMP-11, IMP-12), overdue the day after
    it was due, waived on a purebred application (IMP-13) or forfeited when the officer
    seizes the animal. Its deposit (Glencoe) is held from adoption, remitted to the
    veterinarian once the animal is sterilized, or forfeited with the agreement.
    """

    TRANSITIONS = (
        Transition(
            "mark_overdue",
            AgreementStatus.PENDING,
            AgreementStatus.OVERDUE,
            event="impound.sterilization.overdue",
        ),
        Transition(
            "certify",
            OPEN_AGREEMENT_STATUSES,
            AgreementStatus.STERILIZED,
            event="impound.sterilization.certified",
        ),
        Transition(
            "waive",
            OPEN_AGREEMENT_STATUSES,
            AgreementStatus.WAIVED,
            event="impound.sterilization.waived",
            rule="IMP-13",
        ),
        Transition(
            "forfeit",
            AgreementStatus.OVERDUE,
            AgreementStatus.FORFEITED,
            event="impound.sterilization.forfeited",
        ),
        # The deposit (less the administrative fee) goes to the veterinarian; the
        # agreement stays sterilized (Subd. 26(D)). The deposit must be held too.
        Transition(
            "remit",
            AgreementStatus.STERILIZED,
            AgreementStatus.STERILIZED,
            event="impound.sterilization.remitted",
        ),
    )

    case = models.OneToOneField(
        "impound.ImpoundCase", on_delete=models.PROTECT, related_name="sterilization"
    )
    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="+")
    adopter_name = models.CharField(_("adopter"), max_length=160)
    adopter_address = models.CharField(_("adopter's address"), max_length=300)
    adopted_on = models.DateField(_("adopted on"))
    humane_society_undertakes = models.BooleanField(
        _("the humane society will spay"), default=False
    )
    due_on = models.DateField(_("due"))
    due_citation = models.CharField(_("section"), max_length=200)
    due_basis = models.CharField(_("how the due date was found"), max_length=300)
    flagged = models.BooleanField(
        _("flagged for review"),
        default=False,
        help_text=_("Appendix D G37: exactly six months old is in neither rule."),
    )
    status = models.CharField(
        _("status"), max_length=12, choices=AgreementStatus.choices, default=AgreementStatus.PENDING
    )
    overdue_on = models.DateField(_("marked overdue on"), null=True, blank=True)
    deposit = models.DecimalField(
        _("deposit"), max_digits=8, decimal_places=2, null=True, blank=True
    )
    deposit_status = models.CharField(
        _("deposit"), max_length=10, choices=DepositStatus.choices, default=DepositStatus.NONE
    )
    deposit_receipt = models.OneToOneField(
        Receipt, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    admin_fee = models.DecimalField(
        _("administrative fee kept"), max_digits=8, decimal_places=2, null=True, blank=True
    )
    remitted_amount = models.DecimalField(
        _("remitted"), max_digits=8, decimal_places=2, null=True, blank=True
    )
    remitted_to = models.CharField(_("remitted to"), max_length=200, blank=True)
    remitted_on = models.DateField(_("remitted on"), null=True, blank=True)
    sterilized_on = models.DateField(_("sterilized on"), null=True, blank=True)
    veterinarian = models.CharField(_("veterinarian"), max_length=200, blank=True)
    certificate = models.FileField(
        _("veterinarian's certificate"), upload_to=certificate_path, blank=True, max_length=300
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["due_on", "pk"]
        verbose_name = _("sterilization agreement")
        indexes = [
            models.Index(fields=["jurisdiction", "status", "due_on"], name="sterilization_due_idx")
        ]

    def __str__(self):
        return __("Sterilization agreement for case %(n)s") % {"n": self.case.number}

    @property
    def deposit_held(self) -> bool:
        return self.deposit_status == DepositStatus.HELD

    @property
    def may_remit(self) -> bool:
        """Sterilized with its deposit still held: the deposit may be remitted."""
        return self.may("remit") and self.deposit_held

    def mark_overdue(self, *, on: date, at, actor=None) -> None:
        """Pending -> overdue: the due date passed without a certificate (IMP-11, IMP-12)."""
        self.ensure("mark_overdue", citation=self.due_citation)
        self.overdue_on = on
        self.apply(
            "mark_overdue",
            actor=actor,
            at=at,
            summary=__("Sterilization due %(d)s not shown (%(c)s)")
            % {"d": date_format(self.due_on), "c": self.due_citation},
            data={"due_on": str(self.due_on), "case": self.case.number},
            fields=["overdue_on"],
            citation=self.due_citation,
        )
