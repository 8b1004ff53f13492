"""The dangerous-dog case: the incident, the investigation and the dates that start the
ordinance's clocks (DD-02..DD-10, DD-20, DD-21, DD-26)."""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext as __
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from impound.models import ImpoundCase
from kernel.models import CaseRecord
from licensing.models import Animal, Owner
from notices.models import IssuedDocument
from ordinance.models import Jurisdiction
from ordinance.refusals import Refused

from .steps import CASE_STEPS, IN_FORCE_STATUSES, OPEN_STATUSES, CaseStatus


class Designation(models.TextChoices):
    """What a dog may be declared (Glencoe 701 Subd. 1)."""

    POTENTIALLY_DANGEROUS = "potentially", _("Potentially dangerous dog")
    DANGEROUS = "dangerous", _("Dangerous dog")


class Criterion(models.TextChoices):
    """The Subd. 1 definition an investigation found met (DD-02)."""

    # Dangerous Dog, prongs (1)-(3)
    SUBSTANTIAL_HARM = (
        "substantial_harm",
        _("Without provocation, inflicted substantial bodily harm on a human"),
    )
    KILLED_DOMESTIC = (
        "killed_domestic",
        _("Killed a domestic animal without provocation while off the owner's property"),
    )
    AFTER_PDD_NOTICE = (
        "after_pdd_notice",
        _(
            "Found potentially dangerous and, after the owner was notified, aggressively bit, "
            "attacked or endangered a human or domestic animal"
        ),
    )
    # Potentially dangerous dog
    UNPROVOKED_BITE = (
        "unprovoked_bite",
        _("When unprovoked, bit a human or domestic animal on public or private property"),
    )
    CHASED = (
        "chased",
        _(
            "When unprovoked, chased or approached a person off the owner's property in an "
            "apparent attitude of attack"
        ),
    )
    PROPENSITY = (
        "propensity",
        _(
            "Has a known propensity to attack unprovoked, causing injury or threatening humans "
            "or domestic animals"
        ),
    )


DANGEROUS_CRITERIA = (
    Criterion.SUBSTANTIAL_HARM,
    Criterion.KILLED_DOMESTIC,
    Criterion.AFTER_PDD_NOTICE,
)
POTENTIALLY_DANGEROUS_CRITERIA = (Criterion.UNPROVOKED_BITE, Criterion.CHASED, Criterion.PROPENSITY)


class IncidentKind(models.TextChoices):
    BITE_HUMAN = "bite_human", _("Bit a person")
    ATTACK_HUMAN = "attack_human", _("Attacked a person")
    BITE_ANIMAL = "bite_animal", _("Bit a domestic animal")
    KILLED_ANIMAL = "killed_animal", _("Killed a domestic animal")
    CHASE = "chase", _("Chased or approached in an apparent attitude of attack")
    OTHER = "other", _("Other threatening behavior")


class DeclaredBy(models.TextChoices):
    DEFAULT = "default", _("By default: not contested (Subd. 15(J))")
    PANEL = "panel", _("By the Review Panel (Subd. 15(D))")


def evidence_path(record, filename):
    jurisdiction = getattr(record, "jurisdiction", None) or record.case.jurisdiction
    return f"dangerous-dogs/{jurisdiction.slug}/{filename}"


class DesignationCase(CaseRecord):
    """One proceeding to declare a dog potentially dangerous or dangerous (Appendix B3).

    The dates that start the ordinance's clocks are stored when the fact is recorded,
    each with its section, and never recomputed (architecture.md "Deadlines"):
    ``contest_deadline`` from the owner's receipt of the notice of intent (DD-04), the
    ``appeal_deadline`` from the panel's ruling (DD-20), the ``compliance_deadline`` from
    the owner's receipt of the notice that the dog is dangerous (DD-10).
    """

    TRANSITIONS = CASE_STEPS
    # A question the ordinance leaves to a person (late contest, appeal pending, repeat
    # offence while sections are blank) is the kernel's attention flag, shown on the board.
    EVENT_PREFIX = "dangerous_dogs.case"
    KEPT_HINT = _("A withdrawn or rescinded designation stays on record with its reasons.")

    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.PROTECT, related_name="designation_cases"
    )
    number = models.CharField(_("case number"), max_length=20)
    animal = models.ForeignKey(Animal, on_delete=models.PROTECT, related_name="designation_cases")
    owner = models.ForeignKey(
        Owner,
        on_delete=models.PROTECT,
        related_name="designation_cases",
        help_text=_("The owner served; a sale moves the registration to the buyer."),
    )
    status = models.CharField(
        _("status"), max_length=14, choices=CaseStatus.choices, default=CaseStatus.DETERMINED
    )

    # The incident and the investigation (DD-02, DD-03, DD-26).
    incident_kind = models.CharField(
        _("what happened"), max_length=16, choices=IncidentKind.choices
    )
    occurred_at = models.DateTimeField(_("when it happened"))
    location = models.CharField(_("where it happened"), max_length=200)
    off_owner_property = models.BooleanField(_("off the owner's property"), default=True)
    victim = models.CharField(_("person or animal harmed or threatened"), max_length=200)
    injuries = models.TextField(_("injuries"), blank=True)
    witnesses = models.TextField(_("witnesses"), blank=True)
    evidence = models.TextField(_("evidence"), blank=True)
    evidence_file = models.FileField(
        _("evidence document"), upload_to=evidence_path, blank=True, max_length=300
    )
    criterion = models.CharField(_("definition met"), max_length=20, choices=Criterion.choices)
    designation = models.CharField(
        _("designation intended"), max_length=12, choices=Designation.choices
    )
    prior_notice_on = models.DateField(
        _("owner notified of a potentially dangerous designation on"),
        null=True,
        blank=True,
        help_text=_("An earlier notice: an attack after it meets prong (3) (DD-02)."),
    )
    # Subd. 15(L): each exemption considered, and why it does or does not apply.
    exempt_trespass = models.BooleanField(
        _("the person was trespassing, or committing a tort or crime, on the owner's premises"),
        default=False,
    )
    exempt_provocation = models.BooleanField(
        _("the person provoked, tormented, teased, abused or assaulted the dog, now or before"),
        default=False,
    )
    exempt_crime = models.BooleanField(
        _("the person was committing or attempting a crime"), default=False
    )
    exemption_findings = models.TextField(_("why each exemption does or does not apply"))
    investigated_by_name = models.CharField(_("investigated by"), max_length=120)
    investigated_on = models.DateField(_("investigation completed on"))
    officer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("recorded by"),
    )

    # Notice of intent (DD-03, DD-04): no clock runs until the receipt is recorded.
    notice = models.ForeignKey(
        IssuedDocument, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    notice_received_on = models.DateField(_("owner received the notice on"), null=True, blank=True)
    contest_deadline = models.DateField(_("contest by"), null=True, blank=True)
    contest_citation = models.CharField(_("contest section"), max_length=200, blank=True)

    # Contest or default (DD-04, DD-09).
    contest_received_on = models.DateField(_("written request received on"), null=True, blank=True)
    contest_received_by = models.CharField(_("delivered to"), max_length=120, blank=True)
    contest_late = models.BooleanField(_("request received late"), default=False)
    defaulted_on = models.DateField(_("defaulted on"), null=True, blank=True)

    # The declaration in force (DD-08, DD-09).
    declared_designation = models.CharField(
        _("declared"), max_length=12, choices=Designation.choices, blank=True
    )
    declared_by = models.CharField(
        _("declared how"), max_length=8, choices=DeclaredBy.choices, blank=True
    )
    declared_on = models.DateField(_("declared on"), null=True, blank=True)
    declaration = models.ForeignKey(
        IssuedDocument,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("The default declaration (C29) or the panel's findings (C28)."),
    )
    ruling_on = models.DateField(_("panel ruling on"), null=True, blank=True)
    appeal_deadline = models.DateField(_("appeal by"), null=True, blank=True)
    appeal_citation = models.CharField(_("appeal section"), max_length=200, blank=True)

    # Compliance (DD-10, DD-21): from the owner's receipt of the dangerous notice.
    declaration_received_on = models.DateField(
        _("owner received the declaration on"), null=True, blank=True
    )
    compliance_deadline = models.DateField(_("comply by"), null=True, blank=True)
    compliance_citation = models.CharField(_("compliance section"), max_length=200, blank=True)
    seizure_due_on = models.DateField(
        _("seizure due since"),
        null=True,
        blank=True,
        help_text=_("Set once by the sweep when the compliance deadline passed."),
    )
    impound_case = models.ForeignKey(
        ImpoundCase,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("seizure"),
    )

    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("dangerous-dog case")
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "number"], name="dd_case_number_unique"
            ),
        ]
        indexes = [
            models.Index(fields=["jurisdiction", "status"], name="dd_case_board_idx"),
            models.Index(fields=["status", "contest_deadline"], name="dd_contest_due_idx"),
            models.Index(fields=["status", "compliance_deadline"], name="dd_compliance_due_idx"),
        ]

    def __str__(self):
        return f"{__('Dangerous-dog case')} {self.number}"

    def get_absolute_url(self):
        return reverse("dangerous_dogs:case_detail", args=[self.pk])

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    @property
    def in_force(self) -> bool:
        return self.status in IN_FORCE_STATUSES

    @property
    def exemption_applies(self) -> bool:
        return self.exempt_trespass or self.exempt_provocation or self.exempt_crime

    @property
    def is_dangerous(self) -> bool:
        return self.in_force and self.declared_designation == Designation.DANGEROUS

    @property
    def notice_out(self) -> bool:
        """The notice of intent is out and no request or default has followed: a service
        (another attempt, or the receipt) may still be recorded."""
        return self.status in (CaseStatus.NOTICE_ISSUED, CaseStatus.NOTICE_SERVED)

    def not_now(self, what, citation: str = "", *, field: str = "") -> Refused:
        """The refusal of a step the case's state does not allow, naming the state."""
        return Refused.because(
            _("Dangerous-dog case"),
            __("Case %(n)s is %(status)s: %(what)s is not possible now.")
            % {"n": self.number, "status": self.get_status_display().lower(), "what": what},
            citation,
            field=field,
        )

    def refuse(self, t, to, citation=None, field=""):
        """The kernel's refusal of a transition, worded as the step the person tried."""
        cited = self.refusal_citation(t) if citation is None else citation
        return self.not_now(t.what, cited, field=field)
