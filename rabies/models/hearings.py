"""The Hearing Examiner's proceeding (C47; GL 701 Subd. 21(C), 22(A), 22(C)(2))."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext as __
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from kernel.kept import Kept
from notices.models import Decision, IssuedDocument
from ordinance.models import Jurisdiction

from .base import upload_path
from .bites import BiteReport
from .exposures import Exposure


class HearingOutcome(models.TextChoices):
    EUTHANIZE_AND_TEST = "euthanize_test", _("Euthanize humanely and submit for testing")
    EUTHANIZE = "euthanize", _("Euthanize humanely")
    RELEASE = "release", _("Release")
    CONTINUE = "continue", _("Continue the quarantine")


class ExaminerHearing(Kept):
    """Notice to the owner, a hearing by a Hearing Examiner or the owner's waiver, and the
    decision (GL Subd. 21(C), 22(A), 22(C)(2); C47)."""

    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="+")
    bite_report = models.ForeignKey(
        BiteReport, null=True, blank=True, on_delete=models.PROTECT, related_name="hearings"
    )
    exposure = models.ForeignKey(
        Exposure, null=True, blank=True, on_delete=models.PROTECT, related_name="hearings"
    )
    owner_known = models.BooleanField(_("the owner is known"), default=True)
    notice = models.ForeignKey(
        IssuedDocument, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    notice_served_on = models.DateField(_("notice served on"), null=True, blank=True)
    scheduled_for = models.DateTimeField(_("hearing date and time"), null=True, blank=True)
    place = models.CharField(_("place"), max_length=200, blank=True)
    waived_on = models.DateField(_("hearing waived on"), null=True, blank=True)
    waiver_file = models.FileField(
        _("signed waiver"), upload_to=upload_path, blank=True, max_length=300
    )
    held_on = models.DateField(_("held on"), null=True, blank=True)
    examiner_name = models.CharField(_("Hearing Examiner"), max_length=160, blank=True)
    factor_species = models.TextField(_("the species"), blank=True)
    factor_circumstances = models.TextField(_("the circumstances of the bite"), blank=True)
    factor_epidemiology = models.TextField(_("rabies in the area"), blank=True)
    factor_shedding = models.TextField(_("the virus-shedding period, if known"), blank=True)
    outcome = models.CharField(
        _("decision"), max_length=16, choices=HearingOutcome.choices, blank=True
    )
    decision = models.ForeignKey(
        Decision, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    citation = models.CharField(_("section"), max_length=200)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("Hearing Examiner proceeding")

    def __str__(self):
        return f"{__('Hearing Examiner')} ({self.citation})"

    @property
    def decided(self) -> bool:
        return bool(self.outcome)
