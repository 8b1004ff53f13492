"""Dangerous dogs: Glencoe's Subd. 15 proceeding and North Branch's Sec. 6-73 classification.

Rules: DD-01..30, rules.md Appendix B3 (the lifecycle), C24-C38 (documents), Appendix D
G14-G27 (blanks), Appendix H MN-05..08 (the Minnesota floors). The proceeding runs only
where the city's profile has ``dd_contest_days`` (``get_optional``); North Branch has no
procedure (DD-29): an officer's recorded ``Classification`` puts the Sec. 6-73 duty on
the dog's page, and a classified dog at large is impounded behind the Sec. 6-75 gate.

An owner's rights are at stake, so every step is a dated row or a stored date with its
section, every state change is a named transition on ``DesignationCase`` that records its
Event, and nothing is deleted (``kernel.kept``): a withdrawn or rescinded designation stays
on record with its reasons. People's decisions (the City Attorney's review, the panel's
finding, the Council's appeal decision, a review) are ``notices.Decision`` rows.
"""

from dataclasses import dataclass

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext as __
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from impound.models import ImpoundCase
from kernel.kept import Kept
from kernel.models import CaseRecord, Transition
from licensing.models import Animal, Owner, Receipt
from notices.models import Decision, IssuedDocument
from ordinance.models import Jurisdiction
from ordinance.refusals import Refused

# --- The proceeding ----------------------------------------------------------------------


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


class CaseStatus(models.TextChoices):
    """Appendix B3, one value per state a case rests in."""

    DETERMINED = "determined", _("Investigated: notice of intent to be served")
    EXEMPT = "exempt", _("Closed: an exemption applies (Subd. 15(L))")
    NOTICE_ISSUED = "notice_issued", _("Notice of intent issued, receipt not recorded")
    NOTICE_SERVED = "notice_served", _("Notice received: contest period running")
    CONTESTED = "contested", _("Hearing requested: City Attorney review")
    DEFAULTED = "defaulted", _("Not contested: declaration due")
    WITHDRAWN = "withdrawn", _("Withdrawn by the City Attorney")
    HEARING = "hearing", _("Referred to the Review Panel")
    DISMISSED = "dismissed", _("Not upheld")
    DECLARED = "declared", _("Declared")
    REGISTERED = "registered", _("Registered")
    SEIZED = "seized", _("Seized")
    RESCINDED = "rescinded", _("Designation rescinded")
    DESTROYED = "destroyed", _("Closed: dog destroyed")
    DECEASED = "deceased", _("Closed: dog died")
    TRANSFERRED = "transferred", _("Closed: moved out of the city")


OPEN_STATUSES = (
    CaseStatus.DETERMINED,
    CaseStatus.NOTICE_ISSUED,
    CaseStatus.NOTICE_SERVED,
    CaseStatus.CONTESTED,
    CaseStatus.DEFAULTED,
    CaseStatus.HEARING,
    CaseStatus.DECLARED,
    CaseStatus.REGISTERED,
    CaseStatus.SEIZED,
)
# The designation is in force (a declaration was made and stands).
IN_FORCE_STATUSES = (CaseStatus.DECLARED, CaseStatus.REGISTERED, CaseStatus.SEIZED)
CLOSED_STATUSES = tuple(s for s in CaseStatus if s not in OPEN_STATUSES)


@dataclass(frozen=True, init=False)
class Step(Transition):
    """A transition of a dangerous-dog case, with what the step is called when the case's
    state refuses it ("Case DD-2026-0001 is withdrawn: issuing the notice of intent is not
    possible now.")."""

    what: str = ""

    def __init__(self, name, sources, targets, *, what, **kwargs):
        super().__init__(name, sources, targets, **kwargs)
        object.__setattr__(self, "what", what)


_S = CaseStatus
# Appendix B3 as a table: each step of the proceeding, the states it may follow, where it
# leads, the Event it records and the rule a refusal cites.
CASE_STEPS = (
    Step(
        "find_exempt",
        _S.DETERMINED,
        _S.EXEMPT,
        event="dangerous_dogs.case.exempt",
        rule="DD-26",
        what=_("closing the case on an exemption"),
    ),
    Step(
        "issue_notice",
        _S.DETERMINED,
        _S.NOTICE_ISSUED,
        event="dangerous_dogs.case.notice_issued",
        rule="DD-03",
        what=_("issuing the notice of intent"),
    ),
    Step(
        "serve_notice",
        _S.NOTICE_ISSUED,
        _S.NOTICE_SERVED,
        event="dangerous_dogs.case.notice_received",
        rule="DD-04",
        what=_("recording the owner's receipt of the notice of intent"),
    ),
    Step(
        "contest",
        (_S.NOTICE_SERVED, _S.DEFAULTED),
        _S.CONTESTED,
        event="dangerous_dogs.case.contested",
        rule="DD-04",
        what=_("recording a request for a hearing"),
    ),
    Step(
        "default",
        _S.NOTICE_SERVED,
        _S.DEFAULTED,
        event="dangerous_dogs.case.defaulted",
        rule="DD-09",
        what=_("a default"),
    ),
    Step(
        "declare",
        _S.DEFAULTED,
        _S.DECLARED,
        event="dangerous_dogs.case.declared",
        rule="DD-09",
        what=_("issuing the declaration"),
    ),
    Step(
        "withdraw",
        _S.CONTESTED,
        _S.WITHDRAWN,
        event="dangerous_dogs.case.withdrawn",
        rule="DD-05",
        what=_("the City Attorney's review"),
    ),
    Step(
        "refer",
        _S.CONTESTED,
        _S.HEARING,
        event="dangerous_dogs.case.referred",
        rule="DD-05",
        what=_("the City Attorney's review"),
    ),
    # The panel's finding: upheld, the designation comes into force; not upheld, dismissed.
    Step(
        "hold_hearing",
        _S.HEARING,
        (_S.DECLARED, _S.DISMISSED),
        event="dangerous_dogs.case.{to}",
        rule="DD-07",
        what=_("recording the hearing"),
    ),
    Step(
        "reverse",
        IN_FORCE_STATUSES,
        _S.DISMISSED,
        event="dangerous_dogs.appeal.reversed",
        rule="DD-20",
        what=_("the City Council's reversal"),
    ),
    Step(
        "register",
        _S.DECLARED,
        _S.REGISTERED,
        event="dangerous_dogs.case.registered",
        rule="DD-15",
        what=_("issuing a certificate of registration"),
    ),
    Step(
        "seize",
        _S.DECLARED,
        _S.SEIZED,
        event="dangerous_dogs.case.seized",
        rule="DD-21",
        what=_("seizure"),
    ),
    Step(
        "reclaim",
        _S.SEIZED,
        (_S.DECLARED, _S.REGISTERED),
        event="dangerous_dogs.case.reclaimed",
        rule="DD-23",
        what=_("a reclaim"),
    ),
    # The pound disposed of a seized dog not reclaimed: the case closes the same way.
    Step(
        "dispose",
        _S.SEIZED,
        (_S.DESTROYED, _S.DECEASED, _S.TRANSFERRED),
        event="dangerous_dogs.case.seizure_disposed",
        rule="DD-23",
        what=_("closing the case on the pound's disposition"),
    ),
    # The owner had the dog destroyed instead of complying.
    Step(
        "destroy",
        _S.DECLARED,
        _S.DESTROYED,
        event="dangerous_dogs.case.destroyed",
        rule="DD-10",
        what=_("recording the dog destroyed"),
    ),
    Step(
        "destroy_summarily",
        OPEN_STATUSES,
        _S.DESTROYED,
        event="dangerous_dogs.case.destroyed",
        rule="DD-28",
        what=_("summary destruction"),
    ),
    Step(
        "rescind",
        IN_FORCE_STATUSES,
        _S.RESCINDED,
        event="dangerous_dogs.case.rescinded",
        rule="DD-25",
        what=_("rescinding the designation"),
    ),
    Step(
        "close_by_report",
        IN_FORCE_STATUSES,
        (_S.DECEASED, _S.TRANSFERRED),
        event="dangerous_dogs.case.closed_by_report",
        rule="DD-16",
        what=_("closing the case on the owner's report"),
    ),
)


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

    def ensure_may(self, name: str) -> None:
        """Refuse, naming the step, unless the case's state allows ``name``: for a step
        with several ends, checked before the end is known (a reclaim, a hearing)."""
        if not self.may(name):
            raise self.refuse(self.transition(name), "")

    def refuse(self, t, to, citation=None, field=""):
        """The kernel's refusal of a transition, worded as the step the person tried."""
        cited = self.refusal_citation(t) if citation is None else citation
        return self.not_now(t.what, cited, field=field)


# --- Review Panel (DD-06, DD-07, DD-08; MN-08) ------------------------------------------


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


# --- Compliance and registration (DD-10..DD-15) -----------------------------------------


class Requirement(models.TextChoices):
    ENCLOSURE = "enclosure", _("Proper enclosure and warning sign with the warning symbol")
    COVERAGE = "coverage", _("Surety bond or liability insurance")
    FEE = "fee", _("Annual registration fee paid")
    MICROCHIP = "microchip", _("Microchip implanted")


class CoverageKind(models.TextChoices):
    BOND = "bond", _("Surety bond")
    INSURANCE = "insurance", _("Liability insurance policy")


def proof_path(item, filename):
    return f"dangerous-dogs/{item.case.jurisdiction.slug}/proof/{filename}"


class ComplianceProof(Kept):
    """Evidence of one requirement, verified by a person (DD-10, C30).

    A new proof replaces nothing: the latest verified proof of each requirement counts,
    and an expired bond needs a new row at renewal (DD-15)."""

    case = models.ForeignKey(DesignationCase, on_delete=models.PROTECT, related_name="proofs")
    requirement = models.CharField(_("requirement"), max_length=10, choices=Requirement.choices)
    details = models.TextField(_("what was shown"), blank=True)
    document = models.FileField(
        _("photo or document"), upload_to=proof_path, blank=True, max_length=300
    )
    coverage_kind = models.CharField(
        _("coverage"), max_length=10, choices=CoverageKind.choices, blank=True
    )
    issuer = models.CharField(_("surety or insurer"), max_length=160, blank=True)
    policy_number = models.CharField(_("bond or policy number"), max_length=80, blank=True)
    amount = models.DecimalField(
        _("amount"), max_digits=12, decimal_places=2, null=True, blank=True
    )
    expires_on = models.DateField(_("expires on"), null=True, blank=True)
    microchip = models.CharField(_("microchip number"), max_length=20, blank=True)
    microchip_manufacturer = models.CharField(_("manufacturer"), max_length=80, blank=True)
    implanted_on = models.DateField(_("implanted on"), null=True, blank=True)
    veterinarian = models.CharField(_("implanted by (veterinarian)"), max_length=160, blank=True)
    receipt = models.ForeignKey(
        Receipt, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    verified_on = models.DateField(_("verified on"))
    verified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["requirement", "-verified_on", "-pk"]
        verbose_name = _("compliance proof")

    def __str__(self):
        return f"{self.get_requirement_display()} ({self.verified_on})"


class Registration(Kept):
    """A certificate of registration of a dangerous dog (C30), one per year (DD-15)."""

    case = models.ForeignKey(
        DesignationCase, on_delete=models.PROTECT, related_name="registrations"
    )
    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="+")
    number = models.CharField(_("certificate number"), max_length=30)
    owner = models.ForeignKey(Owner, on_delete=models.PROTECT, related_name="+")
    issued_on = models.DateField(_("issued on"))
    expires_on = models.DateField(_("renew by"))
    renewal_citation = models.CharField(_("renewal section"), max_length=200)
    fee = models.DecimalField(_("fee"), max_digits=8, decimal_places=2)
    receipt = models.OneToOneField(
        Receipt, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    document = models.ForeignKey(
        IssuedDocument, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    renews = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="renewed_by"
    )
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["-issued_on", "-pk"]
        verbose_name = _("dangerous-dog registration")
        constraints = [
            models.UniqueConstraint(fields=["jurisdiction", "number"], name="dd_reg_number_unique"),
            models.CheckConstraint(
                condition=Q(expires_on__gt=models.F("issued_on")), name="dd_reg_expires_after_issue"
            ),
        ]
        indexes = [models.Index(fields=["jurisdiction", "expires_on"], name="dd_reg_expiry_idx")]

    def __str__(self):
        return f"{__('Registration')} {self.number}"


class ReportKind(models.TextChoices):
    DEATH = "death", _("The dog died")
    TRANSFER = "transfer", _("The dog moved to another jurisdiction")
    SALE = "sale", _("The dog was sold")
    LEASE = "lease", _("Disclosure to a landlord")


def affidavit_path(report, filename):
    return f"dangerous-dogs/{report.case.jurisdiction.slug}/reports/{filename}"


class OwnerReport(Kept):
    """What the owner tells the authority (C32-C34): death, transfer, sale, a lease."""

    case = models.ForeignKey(DesignationCase, on_delete=models.PROTECT, related_name="reports")
    kind = models.CharField(_("report"), max_length=10, choices=ReportKind.choices)
    event_on = models.DateField(_("date of the death, transfer, sale or lease"))
    notified_on = models.DateField(_("written notice received on"))
    due_on = models.DateField(_("notice due by"), null=True, blank=True)
    late = models.BooleanField(_("notice late"), default=False)
    citation = models.CharField(_("section"), max_length=200)
    circumstances = models.TextField(_("circumstances and disposition"), blank=True)
    party_name = models.CharField(
        _("transferee, buyer or property owner"), max_length=160, blank=True
    )
    party_address = models.CharField(_("their address"), max_length=300, blank=True)
    party_phone = models.CharField(_("their telephone"), max_length=40, blank=True)
    buyer_informed = models.BooleanField(
        _("the buyer was told the dog is dangerous"), default=False
    )
    lease_term = models.CharField(_("lease term"), max_length=120, blank=True)
    affidavit_requested_on = models.DateField(_("affidavit requested on"), null=True, blank=True)
    affidavit = models.FileField(
        _("affidavit under oath"), upload_to=affidavit_path, blank=True, max_length=300
    )
    affidavit_received_on = models.DateField(_("affidavit received on"), null=True, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["event_on", "pk"]
        verbose_name = _("owner's report")

    def __str__(self):
        return f"{self.get_kind_display()} ({self.event_on})"


def certificate_path(order, filename):
    return f"dangerous-dogs/{order.case.jurisdiction.slug}/sterilization/{filename}"


class SterilizationOrder(Kept):
    """An order to sterilize a dangerous dog at the owner's expense (DD-17, C37, MN-07)."""

    case = models.ForeignKey(
        DesignationCase, on_delete=models.PROTECT, related_name="sterilization_orders"
    )
    ordered_on = models.DateField(_("ordered on"))
    due_on = models.DateField(_("due by"))
    due_citation = models.CharField(_("section"), max_length=200)
    document = models.ForeignKey(
        IssuedDocument, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    done_on = models.DateField(_("sterilized on"), null=True, blank=True)
    done_by_authority = models.BooleanField(
        _("done by the authority at the owner's expense"), default=False
    )
    veterinarian = models.CharField(_("veterinarian"), max_length=160, blank=True)
    certificate = models.FileField(
        _("veterinarian's statement"), upload_to=certificate_path, blank=True, max_length=300
    )
    overdue_flagged_on = models.DateField(
        _("overdue: flagged to a person on"),
        null=True,
        blank=True,
        help_text=_("Set once by the sweep when the due date passed undone."),
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["ordered_on", "pk"]
        verbose_name = _("sterilization order")

    def __str__(self):
        return f"{__('Sterilization due')} {self.due_on}"


# --- Appeal, review, charges, summary destruction (DD-20, DD-22, DD-24, DD-25, DD-28) ---


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


# --- North Branch (DD-29) ----------------------------------------------------------------


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
