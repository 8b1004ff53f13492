"""Vaccination reminders (RAB-03): one e-mail per vaccination."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from licensing.models import RabiesVaccination
from ordinance.models import Jurisdiction


class VaccinationReminder(models.Model):
    """One e-mail before a vaccination runs out: sent once per vaccination."""

    vaccination = models.OneToOneField(
        RabiesVaccination, on_delete=models.PROTECT, related_name="reminder"
    )
    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="+")
    due_on = models.DateField(_("vaccination due"))
    sent_to = models.EmailField(_("sent to"))
    sent_at = models.DateTimeField(_("sent at"))

    class Meta:
        ordering = ["-sent_at", "pk"]
        verbose_name = _("vaccination reminder")

    def __str__(self):
        return f"{self.sent_to} {self.sent_at:%Y-%m-%d}"
