"""North Branch (DD-29): an officer's classification of a dog as fierce, dangerous or
vicious (Sec. 6-73)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from kernel.kept import Kept
from licensing.models import Animal
from ordinance.models import Jurisdiction

from .case import evidence_path


class ClassificationTerm(models.TextChoices):
    FIERCE = "fierce", _("Fierce")
    DANGEROUS = "dangerous", _("Dangerous")
    VICIOUS = "vicious", _("Vicious")


class Classification(Kept):
    """An officer's classification of a dog as fierce, dangerous or vicious (NB Sec. 6-73).

    While it stands the dog's page shows the confinement and muzzle duty, and the dog
    found at large is impounded on the Sec. 6-75 ground (a court's authorization gate).
    Ended, never deleted."""

    KEPT_HINT = _("End the classification instead, with the reason.")

    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="+")
    animal = models.ForeignKey(Animal, on_delete=models.PROTECT, related_name="classifications")
    term = models.CharField(_("classified as"), max_length=10, choices=ClassificationTerm.choices)
    reason = models.TextField(_("reason"))
    evidence = models.TextField(_("evidence"), blank=True)
    evidence_file = models.FileField(
        _("evidence document"), upload_to=evidence_path, blank=True, max_length=300
    )
    classified_on = models.DateField(_("classified on"))
    classified_by_name = models.CharField(_("officer"), max_length=120)
    citation = models.CharField(_("section"), max_length=200)
    ended_on = models.DateField(_("ended on"), null=True, blank=True)
    ended_reason = models.CharField(_("why ended"), max_length=300, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["-classified_on", "-pk"]
        verbose_name = _("fierce, dangerous or vicious classification")
        indexes = [models.Index(fields=["animal", "ended_on"], name="dd_class_animal_idx")]

    def __str__(self):
        return f"{self.get_term_display()} ({self.classified_on})"

    @property
    def in_force(self) -> bool:
        return self.ended_on is None
