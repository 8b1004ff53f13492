"""After the declaration: the owner's request for review (DD-25, C35), charges against
the owner (DD-22, DD-24) and summary destruction (DD-28, C38)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext as __
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from kernel.kept import Kept
from licensing.models import Animal
from notices.models import Decision
from ordinance.models import Jurisdiction

from .case import DesignationCase, evidence_path


class ReviewRequest(Kept):
    """The owner's request to review a dangerous designation (C35, DD-25, MN-06)."""

    case = models.ForeignKey(DesignationCase, on_delete=models.PROTECT, related_name="reviews")
    requested_on = models.DateField(_("requested on"))
    changed_by_age = models.BooleanField(_("age"), default=False)
    changed_by_neutering = models.BooleanField(_("neutering"), default=False)
    changed_by_environment = models.BooleanField(_("environment"), default=False)
    changed_by_training = models.BooleanField(
        _("obedience training that includes modifying aggressive behavior"), default=False
    )
    changed_by_other = models.CharField(_("other factors"), max_length=200, blank=True)
    evidence = models.TextField(_("evidence of changed behavior"))
    evidence_file = models.FileField(
        _("evidence document"), upload_to=evidence_path, blank=True, max_length=300
    )
    decision = models.OneToOneField(
        Decision, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["requested_on", "pk"]
        verbose_name = _("review request")

    def __str__(self):
        return f"{__('Review requested')} {self.requested_on}"


class ChargeOutcome(models.TextChoices):
    PENDING = "pending", _("Pending")
    CONVICTED = "convicted", _("Convicted")
    NOT_CONVICTED = "not_convicted", _("Not convicted")


class Charge(Kept):
    """A misdemeanor charge against the owner relating to this dog (DD-22, DD-24)."""

    case = models.ForeignKey(DesignationCase, on_delete=models.PROTECT, related_name="charges")
    charged_on = models.DateField(_("charged on"))
    offence = models.CharField(_("offence and section"), max_length=200)
    outcome = models.CharField(
        _("outcome"), max_length=14, choices=ChargeOutcome.choices, default=ChargeOutcome.PENDING
    )
    decided_on = models.DateField(_("decided on"), null=True, blank=True)
    court = models.CharField(_("court"), max_length=160, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["charged_on", "pk"]
        verbose_name = _("charge")

    def __str__(self):
        return f"{self.offence} ({self.charged_on})"


class DestructionGround(models.TextChoices):
    RABIES = "rabies", _("Afflicted with rabies")
    VICIOUS = (
        "vicious",
        _(
            "Clearly demonstrated vicious nature: substantial or great bodily harm on a human "
            "without provocation"
        ),
    )


class SummaryDestruction(Kept):
    """Subd. 17: summary destruction, only after a recorded hearing opportunity (C38)."""

    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="+")
    animal = models.ForeignKey(
        Animal, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    case = models.ForeignKey(
        DesignationCase,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="summary_destructions",
    )
    ground = models.CharField(_("ground"), max_length=8, choices=DestructionGround.choices)
    facts = models.TextField(_("reasonable cause: the facts"))
    hearing_notice_on = models.DateField(_("owner given notice of the hearing on"))
    hearing_on = models.DateField(_("hearing held or offered on"))
    decision_maker = models.CharField(_("impartial decision maker"), max_length=160)
    decision = models.OneToOneField(
        Decision, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    destroyed_on = models.DateField(_("destroyed on"), null=True, blank=True)
    officer_name = models.CharField(_("officer"), max_length=120, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("summary destruction")

    def __str__(self):
        return f"{self.get_ground_display()} ({self.hearing_on})"
