"""Quarantines of a biting or suspect animal and their inspections (B4; C41-C45; NB Sec.
6-98; GL 701 Subd. 21)."""

from datetime import date

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext as __
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from impound.models import ImpoundCase
from kernel.kept import Kept
from kernel.models import Transition
from licensing.models import Animal, RabiesVaccination
from licensing.models.registry import Species
from notices.models import IssuedDocument
from ordinance.models import Jurisdiction

from .base import RabiesCase, ReleaseReportFields
from .bites import BiteReport


class QuarantinePlace(models.TextChoices):
    HOME = "home", _("At the owner's residence")
    FACILITY = "facility", _("At the animal control facility")


class QuarantineStatus(models.TextChoices):
    HOME = "home", _("Confined at home")
    FACILITY = "facility", _("Confined at the facility")
    ENDED = "ended", _("Period over: examination and release due")
    RELEASED = "released", _("Released from quarantine")
    SIGNS = "signs", _("Signs of rabies: escalated")


QUARANTINE_ACTIVE = (QuarantineStatus.HOME, QuarantineStatus.FACILITY)
QUARANTINE_OPEN = (*QUARANTINE_ACTIVE, QuarantineStatus.ENDED)


class Quarantine(ReleaseReportFields, RabiesCase):
    """The confinement of a biting or suspect animal (NB Sec. 6-98; GL Subd. 21(A), (B)).

    It is ordered at home or at the facility (its first state); a breach of a home
    confinement moves it to the facility; the sweep marks the period over; the examination
    may find signs of rabies; the city's gate releases it."""

    KIND = _("Quarantine")
    TRANSITIONS = (
        Transition(
            "to_facility",
            QuarantineStatus.HOME,
            QuarantineStatus.FACILITY,
            event="rabies.quarantine.to_facility",
        ),
        Transition(
            "end", QUARANTINE_ACTIVE, QuarantineStatus.ENDED, event="rabies.quarantine.ended"
        ),
        Transition(
            "signs", QUARANTINE_OPEN, QuarantineStatus.SIGNS, event="rabies.quarantine.signs"
        ),
        Transition(
            "release",
            QUARANTINE_OPEN,
            QuarantineStatus.RELEASED,
            event="rabies.quarantine.released",
        ),
    )

    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.PROTECT, related_name="quarantines"
    )
    number = models.CharField(_("quarantine number"), max_length=20)
    status = models.CharField(_("status"), max_length=10, choices=QuarantineStatus.choices)
    bite_report = models.ForeignKey(
        BiteReport, null=True, blank=True, on_delete=models.PROTECT, related_name="quarantines"
    )
    animal = models.ForeignKey(
        Animal, null=True, blank=True, on_delete=models.PROTECT, related_name="quarantines"
    )
    species = models.CharField(_("species"), max_length=10, choices=Species.choices)
    description = models.CharField(_("description"), max_length=300, blank=True)

    # The period, stored with its section and how it was found (RAB-13, RAB-20, RAB-21).
    starts_on = models.DateField(_("counted from"))
    start_label = models.CharField(_("counted from (what)"), max_length=120)
    ends_on = models.DateField(_("ends"))
    end_citation = models.CharField(_("section"), max_length=200)
    end_basis = models.CharField(_("how the end was found"), max_length=300)
    ended_marked_on = models.DateField(_("marked over on"), null=True, blank=True)

    # Vaccination when ordered (licensing's answer, stored).
    vaccinated = models.BooleanField(_("currently vaccinated"), default=False)
    vaccination = models.ForeignKey(
        RabiesVaccination, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    # Where: at home with the officer's consent, or at the facility (an impound case).
    place = models.CharField(_("where"), max_length=10, choices=QuarantinePlace.choices)
    home_address = models.CharField(_("place of confinement"), max_length=300, blank=True)
    consent_by_name = models.CharField(_("authorized by"), max_length=160, blank=True)
    consent_on = models.DateField(_("authorized on"), null=True, blank=True)
    conditions = models.JSONField(_("conditions"), default=list, blank=True)
    enclosure_approved_by = models.CharField(_("enclosure approved by"), max_length=160, blank=True)
    enclosure_approved_on = models.DateField(_("enclosure approved on"), null=True, blank=True)
    order = models.ForeignKey(
        IssuedDocument, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    impound_case = models.OneToOneField(
        ImpoundCase,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="quarantine",
        verbose_name=_("impound case"),
    )
    moved_to_facility_on = models.DateField(_("moved to the facility on"), null=True, blank=True)
    move_reason = models.CharField(_("why it was moved"), max_length=300, blank=True)

    # The examination at the end (C44).
    examined_on = models.DateField(_("examined on"), null=True, blank=True)
    examiner_name = models.CharField(_("examined by"), max_length=160, blank=True)
    examiner_capacity = models.CharField(_("in the capacity of"), max_length=120, blank=True)
    clinical_signs = models.BooleanField(_("clinical signs of rabies"), null=True, blank=True)
    exam_notes = models.TextField(_("examination notes"), blank=True)

    # North Branch's gate (RAB-16, C42): written permission to remove from confinement.
    permission_by_name = models.CharField(_("permission signed by"), max_length=160, blank=True)
    permission_capacity = models.CharField(_("in the capacity of"), max_length=120, blank=True)
    permission_on = models.DateField(_("permission dated"), null=True, blank=True)
    permission_reason = models.CharField(_("reason"), max_length=300, blank=True)
    permission_document = models.ForeignKey(
        IssuedDocument, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    released_on = models.DateField(_("released on"), null=True, blank=True)
    released_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    officer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("ordered by"),
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["ends_on", "pk"]
        verbose_name = _("quarantine")
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "number"], name="quarantine_number_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(ends_on__gte=models.F("starts_on")),
                name="quarantine_end_after_start",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "ends_on"], name="quarantine_due_idx"),
            models.Index(fields=["jurisdiction", "status"], name="quarantine_board_idx"),
        ]

    def __str__(self):
        return f"{__('Quarantine')} {self.number}"

    def get_absolute_url(self):
        return reverse("rabies:quarantine_detail", args=[self.pk])

    @property
    def is_open(self) -> bool:
        return self.status in QUARANTINE_OPEN

    def days_left(self, on: date) -> int:
        return max((self.ends_on - on).days, 0)


class InspectionKind(models.TextChoices):
    INSPECTION = "inspection", _("Inspection by an officer")
    OWNER_REPORT = "owner_report", _("Owner reported a change in health or behavior")


class Inspection(Kept):
    """An inspection during home confinement (RAB-17, RAB-18), or the owner's report of a
    change in the animal's health or behavior (NB Sec. 6-98(4))."""

    quarantine = models.ForeignKey(Quarantine, on_delete=models.PROTECT, related_name="inspections")
    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(
        _("kind"), max_length=14, choices=InspectionKind.choices, default=InspectionKind.INSPECTION
    )
    at = models.DateTimeField(_("date and time"))
    inspector_name = models.CharField(_("inspected by"), max_length=160)
    checks = models.JSONField(_("conditions checked"), default=list, blank=True)
    compliant = models.BooleanField(_("kept as the order requires"))
    notes = models.TextField(_("notes"), blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["at", "pk"]
        verbose_name = _("inspection")

    def __str__(self):
        return f"{self.get_kind_display()} {self.at:%Y-%m-%d %H:%M}"
