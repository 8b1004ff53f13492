"""Animals exposed to a rabid animal (B5, Glencoe 701 Subd. 22; C46, C48)."""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext as __
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from kernel.models import Transition
from licensing.models import Animal
from notices.models import IssuedDocument
from ordinance.models import Jurisdiction

from .base import RabiesCase, ReleaseReportFields, upload_path
from .bites import BiteReport


class RabidBasis(models.TextChoices):
    DEEMED = "deemed", _("A species deemed rabid when it bites a dog or cat")
    VETERINARIAN = "veterinarian", _("Signs of rabies observed and reported by a veterinarian")
    LABORATORY = "laboratory", _("A positive laboratory diagnosis")


class ExposurePath(models.TextChoices):
    UNVACCINATED_DOG_CAT = "unvacc_dogcat", _("Unvaccinated dog or cat")
    VACCINATED_DOG_CAT = "vacc_dogcat", _("Vaccinated dog or cat")
    VACCINATED_OTHER = "vacc_other", _("Other animal, currently vaccinated")
    UNVACCINATED_OTHER = "unvacc_other", _("Other animal, unvaccinated")


class ExposureStatus(models.TextChoices):
    REPORTED = "reported", _("Reported: decision due")
    OBSERVATION = "observation", _("Under the owner's observation")
    ENCLOSURE = "enclosure", _("In an animal-tight enclosure")
    QUARANTINE = "quarantine", _("In quarantine under veterinary supervision")
    ENDED = "ended", _("Period over: release due")
    NONCOMPLIANCE = "noncompliance", _("Not complied with: before the Hearing Examiner")
    EUTHANIZED = "euthanized", _("Humanely euthanized")
    RELEASED = "released", _("Released")


EXPOSURE_RUNNING = (ExposureStatus.OBSERVATION, ExposureStatus.ENCLOSURE, ExposureStatus.QUARANTINE)
EXPOSURE_OPEN = (
    ExposureStatus.REPORTED,
    *EXPOSURE_RUNNING,
    ExposureStatus.ENDED,
    ExposureStatus.NONCOMPLIANCE,
)


_REPORTED, _NONCOMPLIANCE = ExposureStatus.REPORTED, ExposureStatus.NONCOMPLIANCE
_RUNNING_OR_ENDED = (*EXPOSURE_RUNNING, ExposureStatus.ENDED)
_QUARANTINE_OR_ENDED = (ExposureStatus.QUARANTINE, ExposureStatus.ENDED)


class Exposure(ReleaseReportFields, RabiesCase):
    """An animal bitten or otherwise exposed by a rabid animal (Glencoe Subd. 22).

    From the report, its path leads to the owner's observation (22(B)), an animal-tight
    enclosure (22(C)(1)), a quarantine under a veterinarian (22(A), 22(C)(2)) or
    euthanasia; the sweep marks the period over; an owner who does not comply goes before
    the Hearing Examiner, who orders euthanasia or continues the quarantine."""

    KIND = _("Exposure case")
    TRANSITIONS = (
        Transition(
            "observe", _REPORTED, ExposureStatus.OBSERVATION, event="rabies.exposure.observation"
        ),
        Transition(
            "enclose", _REPORTED, ExposureStatus.ENCLOSURE, event="rabies.exposure.enclosure"
        ),
        Transition(
            "quarantine", _REPORTED, ExposureStatus.QUARANTINE, event="rabies.exposure.quarantine"
        ),
        Transition(
            "euthanize",
            (_REPORTED, _NONCOMPLIANCE),
            ExposureStatus.EUTHANIZED,
            event="rabies.exposure.euthanized",
        ),
        Transition("end", EXPOSURE_RUNNING, ExposureStatus.ENDED, event="rabies.exposure.ended"),
        Transition(
            "release",
            _RUNNING_OR_ENDED,
            ExposureStatus.RELEASED,
            event="rabies.exposure.released",
        ),
        Transition(
            "noncompliance",
            _QUARANTINE_OR_ENDED,
            _NONCOMPLIANCE,
            event="rabies.exposure.noncompliance",
        ),
        Transition(
            "continue",
            _NONCOMPLIANCE,
            _QUARANTINE_OR_ENDED,
            event="rabies.exposure.quarantine_continued",
        ),
    )

    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.PROTECT, related_name="exposures"
    )
    number = models.CharField(_("case number"), max_length=20)
    status = models.CharField(
        _("status"), max_length=14, choices=ExposureStatus.choices, default=ExposureStatus.REPORTED
    )
    animal = models.ForeignKey(
        Animal, on_delete=models.PROTECT, related_name="exposures", verbose_name=_("exposed animal")
    )
    bite_report = models.ForeignKey(
        BiteReport, null=True, blank=True, on_delete=models.PROTECT, related_name="exposures"
    )
    exposed_on = models.DateField(_("date of the exposure"))
    how_exposed = models.CharField(_("how exposed"), max_length=300)

    # The rabid animal (DEF-08, RAB-25).
    rabid_species = models.CharField(_("rabid animal's species"), max_length=60)
    rabid_basis = models.CharField(_("rabid because"), max_length=14, choices=RabidBasis.choices)
    rabid_basis_detail = models.CharField(_("details"), max_length=300, blank=True)
    rabid_citation = models.CharField(_("section"), max_length=200)

    # The path (Subd. 22(A), (B), (C)(1), (C)(2)), from licensing's vaccination answer.
    vaccinated = models.BooleanField(_("currently vaccinated"))
    path = models.CharField(_("path"), max_length=14, choices=ExposurePath.choices)
    path_citation = models.CharField(_("section"), max_length=200)

    # The period, stored: observation (45 days), enclosure (90 days) or quarantine (months).
    period_starts_on = models.DateField(_("counted from"), null=True, blank=True)
    period_ends_on = models.DateField(_("period ends"), null=True, blank=True)
    period_citation = models.CharField(_("section"), max_length=200, blank=True)
    period_basis = models.CharField(_("how the end was found"), max_length=300, blank=True)
    earliest_release_on = models.DateField(_("earliest release"), null=True, blank=True)
    release_basis = models.CharField(
        _("how the earliest release was found"), max_length=300, blank=True
    )
    ended_marked_on = models.DateField(_("marked over on"), null=True, blank=True)

    revaccinated_on = models.DateField(_("revaccinated on"), null=True, blank=True)
    prerelease_vaccinated_on = models.DateField(
        _("vaccinated before release on"), null=True, blank=True
    )
    supervising_veterinarian = models.CharField(
        _("supervising veterinarian"), max_length=160, blank=True
    )
    location = models.CharField(_("where it is kept"), max_length=300, blank=True)

    # The Board report (RAB-30, C46).
    board_report = models.ForeignKey(
        IssuedDocument, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    board_report_sent_on = models.DateField(_("sent to the Board on"), null=True, blank=True)
    board_report_sent_how = models.CharField(_("sent how"), max_length=120, blank=True)

    # The owner's consent to euthanasia (C48), an unvaccinated dog or cat (22(A)).
    consent = models.BooleanField(_("owner consents to euthanasia"), null=True, blank=True)
    consent_on = models.DateField(_("consent or refusal dated"), null=True, blank=True)
    consent_by_name = models.CharField(_("owner who signed"), max_length=160, blank=True)
    consent_file = models.FileField(
        _("signed consent or refusal"), upload_to=upload_path, blank=True, max_length=300
    )

    # A veterinarian's determination of exposure (22(C)(2)).
    determined_by = models.CharField(_("determined by (veterinarian)"), max_length=160, blank=True)
    determined_on = models.DateField(_("determined on"), null=True, blank=True)

    euthanized_on = models.DateField(_("euthanized on"), null=True, blank=True)
    released_on = models.DateField(_("released on"), null=True, blank=True)
    officer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("recorded by"),
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["-exposed_on", "-pk"]
        verbose_name = _("exposure case")
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "number"], name="exposure_number_unique"
            )
        ]
        indexes = [
            models.Index(fields=["status", "period_ends_on"], name="exposure_due_idx"),
            models.Index(fields=["jurisdiction", "status"], name="exposure_board_idx"),
        ]

    def __str__(self):
        return f"{__('Exposure case')} {self.number}"

    def get_absolute_url(self):
        return reverse("rabies:exposure_detail", args=[self.pk])

    @property
    def is_open(self) -> bool:
        return self.status in EXPOSURE_OPEN
