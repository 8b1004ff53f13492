"""The Review Panel's hearing and its seats (DD-06..DD-08, MN-08), and the appeal of its
ruling to the City Council (DD-20, C31)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext as __
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from kernel.kept import Kept
from notices.models import Decision, IssuedDocument

from .case import DesignationCase


class HearingFinding(models.TextChoices):
    DANGEROUS = "dangerous", _("Dangerous dog")
    POTENTIALLY_DANGEROUS = "potentially", _("Potentially dangerous dog")
    NOT_UPHELD = "not_upheld", _("Not upheld")


class PanelHearing(Kept):
    """The Animal Control Review Panel's hearing of a contested case (C27, C28)."""

    case = models.ForeignKey(DesignationCase, on_delete=models.PROTECT, related_name="hearings")
    scheduled_for = models.DateTimeField(_("hearing date and time"))
    place = models.CharField(_("place"), max_length=200)
    notice = models.ForeignKey(
        IssuedDocument, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    held_on = models.DateField(_("held on"), null=True, blank=True)
    witnesses = models.TextField(_("witnesses heard"), blank=True)
    exhibits = models.TextField(_("exhibits"), blank=True)
    owner_appeared = models.BooleanField(_("the owner appeared"), default=False)
    owner_evidence = models.TextField(_("owner's evidence and cross-examination"), blank=True)
    finding = models.CharField(
        _("finding"), max_length=12, choices=HearingFinding.choices, blank=True
    )
    reasons = models.TextField(_("reasons"), blank=True)
    decision = models.OneToOneField(
        Decision, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    findings = models.ForeignKey(
        IssuedDocument,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("written findings"),
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["scheduled_for", "pk"]
        verbose_name = _("panel hearing")

    def __str__(self):
        return f"{self.case}: {__('hearing')} {self.scheduled_for:%Y-%m-%d}"


class Seat(models.TextChoices):
    COUNCIL = "council", _("Council member")
    ELECTOR = "elector", _("Elector residing in the city")
    VETERINARIAN = "veterinarian", _("Veterinarian (in lieu of the elector)")
    STAFF = "staff", _("City staff (substitute for a council member)")


class Vote(models.TextChoices):
    DANGEROUS = "dangerous", _("Dangerous dog")
    POTENTIALLY_DANGEROUS = "potentially", _("Potentially dangerous dog")
    NOT_UPHELD = "not_upheld", _("Not upheld")
    ABSENT = "absent", _("Did not vote")


class PanelSeat(Kept):
    """A member who sat: who, in which seat, whom they replaced and why, their vote."""

    hearing = models.ForeignKey(PanelHearing, on_delete=models.PROTECT, related_name="seats")
    seat = models.CharField(_("seat"), max_length=12, choices=Seat.choices)
    name = models.CharField(_("name"), max_length=120)
    appointed_by = models.CharField(_("appointed by"), max_length=120, default="Mayor")
    substitute_for = models.CharField(_("substitute for"), max_length=120, blank=True)
    substitution_reason = models.CharField(_("why substituted"), max_length=200, blank=True)
    impartial = models.BooleanField(
        _("declared no personal interest in the outcome"), default=False
    )
    vote = models.CharField(_("vote"), max_length=12, choices=Vote.choices, blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["pk"]
        verbose_name = _("panel seat")

    def __str__(self):
        return f"{self.get_seat_display()}: {self.name}"


class Appeal(Kept):
    """An appeal of the panel's ruling, filed with the City Clerk (C31)."""

    case = models.ForeignKey(DesignationCase, on_delete=models.PROTECT, related_name="appeals")
    filed_on = models.DateField(_("filed with the City Clerk on"))
    deadline = models.DateField(_("appeal due by"))
    late = models.BooleanField(_("filed late"), default=False)
    grounds = models.TextField(_("grounds"))
    decision = models.OneToOneField(
        Decision,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("Council decision"),
    )
    court_of_appeals_on = models.DateField(
        _("appealed to the Court of Appeals on"), null=True, blank=True
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["filed_on", "pk"]
        verbose_name = _("appeal")

    def __str__(self):
        return f"{__('Appeal filed')} {self.filed_on}"

    @property
    def pending(self) -> bool:
        return self.decision_id is None
