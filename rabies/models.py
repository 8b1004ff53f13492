"""Bites and rabies: bite reports, quarantines, rabid-animal exposures, and their records.

Rules: RAB-01..33, DEF-08, DEF-09; rules.md Appendix B4 (bite and quarantine case), B5
(Glencoe's rabid-exposure case), C39-C48 (documents), Appendix D. North Branch Secs.
6-77, 6-96, 6-98; Glencoe 701 Subds. 1(L)-(N), 20-23.

- ``BiteReport`` (C39, C40): who reported, the victim, the biting animal, skin broken and
  saliva exposure (Glencoe's "rabies suspect", DEF-09), the vaccination on file, whether
  the owner's report was late (NB Sec. 6-96(2)), and the officer's decision.
- ``Quarantine`` (B4): the confinement of a biting or suspect animal at home or at the
  pound (a facility quarantine is an impound case, opened through impound's intake), its
  stored end, inspections, the examination (C44) and the city's release gate (NB written
  permission, C42; Glencoe the veterinarian's report to the officer and the Board, C45).
- ``Exposure`` (B5, Glencoe only): an animal bitten or exposed by a rabid animal, on one of
  the four Subd. 22 paths, with the Board report (C46) and the owner's consent (C48).
- ``ExaminerHearing`` (C47) and ``LabSubmission``: the Hearing Examiner's proceeding and a
  specimen sent to a laboratory.

Nothing here is deleted (``kernel.kept``). The three cases stand on the case kernel: each
declares its transitions in ``TRANSITIONS`` and changes state only through ``apply``, which
records the Event; field history is kept by simple-history.
"""

from datetime import date

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext as __
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from impound.models import ImpoundCase
from kernel.kept import Kept
from kernel.models import CaseRecord, Transition
from licensing.models import Animal, RabiesVaccination
from licensing.models.registry import Species
from notices.models import Decision, IssuedDocument
from ordinance.models import Jurisdiction


def upload_path(instance, filename):
    return f"rabies/{instance.jurisdiction.slug}/{filename}"


class RabiesCase(CaseRecord):
    """A rabies case on the kernel (status, attention flag, closing) that keeps the time
    it was entered."""

    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True


class ReleaseReportFields(models.Model):
    """Glencoe's release gate (RAB-24, C45): a veterinarian's written report that the
    animal was inspected and no signs of rabies were observed, received by the animal
    control officer and by the Minnesota Board of Animal Health, each date recorded."""

    report_veterinarian = models.CharField(_("veterinarian"), max_length=160, blank=True)
    report_inspected_on = models.DateField(_("inspected on"), null=True, blank=True)
    report_no_signs = models.BooleanField(_("the report states no signs of rabies"), default=False)
    report_file = models.FileField(
        _("the written report"), upload_to=upload_path, blank=True, max_length=300
    )
    report_received_by_officer_on = models.DateField(
        _("received by the animal control officer on"), null=True, blank=True
    )
    report_received_by_board_on = models.DateField(
        _("received by the Board of Animal Health on"), null=True, blank=True
    )

    class Meta:
        abstract = True

    @property
    def release_report_complete(self) -> bool:
        return bool(
            self.report_no_signs
            and self.report_received_by_officer_on
            and self.report_received_by_board_on
        )


# --- Bite reports (C39, C40) -------------------------------------------------------------


class ReporterKind(models.TextChoices):
    OWNER = "owner", _("The animal's owner")
    PHYSICIAN = "physician", _("A physician or other practitioner")
    OFFICER = "officer", _("An officer")
    VETERINARIAN = "veterinarian", _("A veterinarian (rabies suspect)")
    VICTIM = "victim", _("The person bitten or another person")


class BiterKind(models.TextChoices):
    REGISTERED = "registered", _("A registered animal")
    STRAY = "stray", _("A stray or an animal whose owner is not known")
    WILD = "wild", _("A wild animal")


class VictimKind(models.TextChoices):
    PERSON = "person", _("A person")
    ANIMAL = "animal", _("An animal")


class SalivaExposure(models.TextChoices):
    NONE = "none", _("None")
    OPEN_WOUND = "open_wound", _("Into an open wound")
    MUCOUS_MEMBRANE = "mucous", _("Onto a mucous membrane")
    UNKNOWN = "unknown", _("Not known")


class BiteStatus(models.TextChoices):
    OPEN = "open", _("Reported, decision due")
    QUARANTINE = "quarantine", _("Confinement ordered")
    TESTING = "testing", _("Destroyed for testing, result due")
    HEARING = "hearing", _("Before the Hearing Examiner")
    CLOSED = "closed", _("Closed")


class BiteDecision(models.TextChoices):
    CONFINE = "confine", _("Confine the animal")
    DESTROY_FOR_TESTING = "destroy", _("Destroy humanely for rabies testing")
    HEARING = "hearing", _("Seize; notice and a Hearing Examiner's hearing")
    EXPOSURE = "exposure", _("An animal was bitten: open an exposure case")
    NOT_SUSPECT = "not_suspect", _("Not a rabies suspect: no quarantine")
    NO_ACTION = "no_action", _("No action possible (animal not found)")


BITE_OPEN = (BiteStatus.OPEN, BiteStatus.QUARANTINE, BiteStatus.TESTING, BiteStatus.HEARING)
_BITE, _TESTING, _HEARING = BiteStatus.OPEN, BiteStatus.TESTING, BiteStatus.HEARING


class BiteReport(RabiesCase):
    """One bite (C39), or a veterinarian's rabies-suspect report (C40, NB Sec. 6-96(3)).

    The officer decides on an open report (NB Sec. 6-96(6), 6-98; GL Subd. 21): confine
    the animal, destroy it for testing, a Hearing Examiner's hearing, or close it (not a
    suspect, no action possible). A test ends with the laboratory's result; a hearing with
    the Examiner's decision; a confinement with the release of its last quarantine."""

    KIND = _("Bite report")
    TRANSITIONS = (
        Transition("confine", _BITE, BiteStatus.QUARANTINE, event="rabies.bitereport.confined"),
        Transition("destroy", _BITE, _TESTING, event="rabies.bite.submitted"),
        Transition("hearing", _BITE, _HEARING, event="rabies.bite.hearing"),
        Transition("not_suspect", _BITE, BiteStatus.CLOSED, event="rabies.bite.not_suspect"),
        Transition("no_action", _BITE, BiteStatus.CLOSED, event="rabies.bite.no_action"),
        Transition("test_after_hearing", _HEARING, _TESTING, event="rabies.bite.submitted"),
        Transition("release", _HEARING, BiteStatus.CLOSED, event="rabies.bite.released"),
        Transition("result", _TESTING, BiteStatus.CLOSED, event="rabies.bite.result"),
        Transition(
            "close_after_quarantine",
            BiteStatus.QUARANTINE,
            BiteStatus.CLOSED,
            event="rabies.bite.closed",
        ),
    )

    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.PROTECT, related_name="bite_reports"
    )
    number = models.CharField(_("report number"), max_length=20)
    status = models.CharField(
        _("status"), max_length=12, choices=BiteStatus.choices, default=BiteStatus.OPEN
    )

    # Who reported, when (NB Sec. 6-96(1)-(3)).
    reporter_kind = models.CharField(_("reported by"), max_length=14, choices=ReporterKind.choices)
    reporter_name = models.CharField(_("reporter's name"), max_length=160)
    reporter_phone = models.CharField(_("reporter's phone"), max_length=40, blank=True)
    reported_at = models.DateTimeField(_("reported at"))
    report_recipient = models.CharField(
        _("report made to"),
        max_length=120,
        blank=True,
        help_text=_("NB Sec. 6-96: the police department; a veterinarian's to the council."),
    )
    diagnosis = models.TextField(_("veterinarian's diagnosis"), blank=True)

    # The bite.
    bitten_at = models.DateTimeField(_("date and time of the bite"))
    bitten_where = models.CharField(_("where"), max_length=200)
    victim_kind = models.CharField(
        _("who was bitten"), max_length=8, choices=VictimKind.choices, default=VictimKind.PERSON
    )
    victim_name = models.CharField(_("victim's name"), max_length=160, blank=True)
    victim_address = models.CharField(_("victim's address"), max_length=300, blank=True)
    victim_phone = models.CharField(_("victim's phone"), max_length=40, blank=True)
    victim_animal = models.ForeignKey(
        Animal,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="bites_suffered",
        verbose_name=_("animal bitten"),
    )
    skin_broken = models.BooleanField(_("skin broken"), null=True, blank=True)
    saliva_exposure = models.CharField(
        _("saliva exposure"),
        max_length=12,
        choices=SalivaExposure.choices,
        default=SalivaExposure.UNKNOWN,
    )
    injuries = models.TextField(_("injuries"), blank=True)
    treated_by = models.CharField(_("treated by"), max_length=200, blank=True)
    provoked = models.BooleanField(_("provoked"), null=True, blank=True)
    provocation = models.TextField(_("what provoked it"), blank=True)

    # The biting animal: registered, or a stray or wild animal described.
    biter_kind = models.CharField(_("biting animal"), max_length=12, choices=BiterKind.choices)
    animal = models.ForeignKey(
        Animal,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="bite_reports",
        verbose_name=_("registered animal"),
    )
    biter_species = models.CharField(
        _("species"), max_length=60, blank=True, help_text=_("For a stray or wild animal.")
    )
    biter_description = models.TextField(_("description"), blank=True)
    biter_owner_name = models.CharField(_("owner's name, if known"), max_length=160, blank=True)
    biter_owner_address = models.CharField(
        _("owner's address, if known"), max_length=300, blank=True
    )

    # The vaccination on file at the time of the bite (licensing's one answer, stored).
    vaccination = models.ForeignKey(
        RabiesVaccination, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    vaccination_state = models.CharField(_("vaccination on file"), max_length=20, blank=True)
    vaccination_summary = models.CharField(_("vaccination"), max_length=300, blank=True)

    # The owner's duty to report (NB Sec. 6-96(2)): stored at intake, never recomputed.
    owner_report_due_at = models.DateTimeField(_("owner's report due by"), null=True, blank=True)
    owner_report_citation = models.CharField(_("section"), max_length=200, blank=True)
    owner_report_late = models.BooleanField(_("owner's report late"), default=False)

    # Glencoe's rabies suspect (DEF-09): a person's call, with the reasons.
    suspect = models.BooleanField(_("rabies suspect"), null=True, blank=True)
    suspect_reasons = models.TextField(_("why"), blank=True)

    # The officer's decision (NB Sec. 6-96(6), 6-98; GL Subd. 21).
    decision = models.CharField(
        _("decision"), max_length=12, choices=BiteDecision.choices, blank=True
    )
    decision_reasons = models.TextField(_("reasons"), blank=True)
    decision_citation = models.CharField(_("section"), max_length=200, blank=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    officer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("recorded by"),
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["-bitten_at", "-pk"]
        verbose_name = _("bite report")
        constraints = [
            models.UniqueConstraint(fields=["jurisdiction", "number"], name="bite_number_unique")
        ]
        indexes = [
            models.Index(fields=["jurisdiction", "status", "bitten_at"], name="bite_board_idx"),
        ]

    def __str__(self):
        return f"{__('Bite report')} {self.number}"

    def get_absolute_url(self):
        return reverse("rabies:bite_detail", args=[self.pk])

    @property
    def is_open(self) -> bool:
        return self.status in BITE_OPEN

    @property
    def awaits_decision(self) -> bool:
        """Reported, the officer's decision due ("no action possible" is always offered)."""
        return self.may("no_action")

    def biter_label(self) -> str:
        if self.animal_id:
            return str(self.animal)
        return " ".join(p for p in (self.biter_species, self.get_biter_kind_display()) if p)


class RequestedDocument(models.TextChoices):
    VACCINATION = "vaccination", _("Written proof of vaccination")
    INSURANCE = "insurance", _("Pertinent insurance information")


class DocumentRequest(Kept):
    """The police's request for written proof of vaccination or insurance (RAB-09)."""

    bite_report = models.ForeignKey(
        BiteReport, on_delete=models.PROTECT, related_name="document_requests"
    )
    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(_("document"), max_length=12, choices=RequestedDocument.choices)
    why_warranted = models.CharField(_("why it is warranted"), max_length=300)
    requested_on = models.DateField(_("requested on"))
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    received_on = models.DateField(_("received on"), null=True, blank=True)
    file = models.FileField(_("document"), upload_to=upload_path, blank=True, max_length=300)
    note = models.CharField(_("note"), max_length=300, blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["requested_on", "pk"]
        verbose_name = _("document request")

    def __str__(self):
        return f"{self.get_kind_display()} ({self.requested_on})"


class LabResult(models.TextChoices):
    PENDING = "pending", _("Pending")
    NEGATIVE = "negative", _("Negative for rabies")
    POSITIVE = "positive", _("Positive for rabies")
    UNSATISFACTORY = "unsatisfactory", _("Specimen unsatisfactory")


class LabSubmission(Kept):
    """A specimen sent for rabies testing (NB Sec. 6-96(6); GL Subd. 21(C), C47)."""

    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="+")
    bite_report = models.ForeignKey(
        BiteReport, null=True, blank=True, on_delete=models.PROTECT, related_name="lab_submissions"
    )
    quarantine = models.ForeignKey(
        "Quarantine",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="lab_submissions",
    )
    decision = models.ForeignKey(
        Decision, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    destroyed_on = models.DateField(_("humanely destroyed on"))
    laboratory = models.CharField(_("laboratory"), max_length=200)
    submitted_on = models.DateField(_("submitted on"))
    specimen_reference = models.CharField(_("laboratory reference"), max_length=80, blank=True)
    result = models.CharField(
        _("result"), max_length=16, choices=LabResult.choices, default=LabResult.PENDING
    )
    result_on = models.DateField(_("result received on"), null=True, blank=True)
    result_file = models.FileField(
        _("laboratory report"), upload_to=upload_path, blank=True, max_length=300
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["submitted_on", "pk"]
        verbose_name = _("laboratory submission")

    def __str__(self):
        return f"{self.laboratory} {self.submitted_on}: {self.get_result_display()}"


# --- Quarantines (B4; C41-C45) -----------------------------------------------------------


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


# --- Exposures to a rabid animal (B5, Glencoe Subd. 22) ----------------------------------


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


# --- The Hearing Examiner (C47) ----------------------------------------------------------


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


# --- Vaccination reminders (RAB-03) ------------------------------------------------------


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
