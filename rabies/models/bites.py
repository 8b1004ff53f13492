"""Bite reports (C39, C40), the requests for written proof (RAB-09) and the specimens sent
for rabies testing (NB Sec. 6-96(6); GL 701 Subd. 21(C))."""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext as __
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from kernel.kept import Kept
from kernel.models import Transition
from licensing.models import Animal, RabiesVaccination
from notices.models import Decision
from ordinance.models import Jurisdiction

from .base import RabiesCase, upload_path


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
