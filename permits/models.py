"""Glencoe's permits other than dog and kennel licenses (rules.md REC-17, Appendix C51/C52).

- ``TemporaryPermit``: a temporary conditional use permit for a traveling circus or show
  keeping wild animals (Glencoe 701 Subd. 32(A), conditions under Subd. 35; WLD-04).
- ``HorsePermit``: a permit to keep horses, colts, ponies or mules (Glencoe 702;
  HOR-01..06): application to the City Clerk, the standards checked, the Council's
  approval, issue by the Clerk, expiry on the ensuing April 15.

North Branch's ordinance has neither (rules.md sections 7 and 8). A permit is never
deleted (``kernel.kept``); every state change is a transition its model declares,
applied by the case kernel with its Event, and field history is kept by simple-history.
"""

from datetime import date

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext as __
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from kernel.kept import Kept
from kernel.models import StatefulRecord, Transition
from ordinance.models import Jurisdiction


class PermitKind(models.TextChoices):
    TEMPORARY = "temporary", _("Temporary wild-animal permit")
    HORSE = "horse", _("Horse permit")


class Decision(models.TextChoices):
    APPROVED = "approved", _("Approved")
    DENIED = "denied", _("Denied")


# --- Temporary wild-animal permits (Subd. 32(A)) -----------------------------------------


class TemporaryStatus(models.TextChoices):
    APPLIED = "applied", _("Applied")
    ISSUED = "issued", _("Issued")
    DENIED = "denied", _("Denied")
    EXPIRED = "expired", _("Expired")


_APPLIED, _ISSUED = TemporaryStatus.APPLIED, TemporaryStatus.ISSUED


class TemporaryPermit(StatefulRecord, Kept):
    """A traveling circus or show's temporary conditional use permit (C51).

    A person's decision issues or denies the application (WLD-04); an issued permit
    expires after its last day (Subd. 32(A))."""

    KIND = PermitKind.TEMPORARY.label
    TRANSITIONS = (
        Transition("approve", _APPLIED, _ISSUED, event="permits.temporary.approved", rule="WLD-04"),
        Transition(
            "deny",
            _APPLIED,
            TemporaryStatus.DENIED,
            event="permits.temporary.denied",
            rule="WLD-04",
        ),
        Transition("expire", _ISSUED, TemporaryStatus.EXPIRED, event="permits.temporary.expired"),
    )

    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.PROTECT, related_name="temporary_permits"
    )
    number = models.CharField(_("permit number"), max_length=20, blank=True)
    status = models.CharField(
        _("status"),
        max_length=10,
        choices=TemporaryStatus.choices,
        default=TemporaryStatus.APPLIED,
    )
    applicant_name = models.CharField(_("applicant (person, circus or show)"), max_length=200)
    applicant_address = models.CharField(_("applicant's address"), max_length=300)
    applicant_phone = models.CharField(_("phone"), max_length=40, blank=True)
    show_name = models.CharField(_("circus or show"), max_length=200)
    location = models.CharField(_("where the animals are kept in the city"), max_length=300)
    species = models.TextField(_("species kept (one per line, with how many)"))
    state_permit_number = models.CharField(_("state permit number"), max_length=60, blank=True)
    state_exempt = models.BooleanField(
        _("exempt from the state permit under Minn. Stat. 97A.401"), default=False
    )
    exemption_basis = models.CharField(_("basis of the exemption"), max_length=300, blank=True)
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"))
    max_days_citation = models.CharField(_("section"), max_length=200)
    conditions = models.TextField(
        _("conditions that protect the public and prevent cruelty or neglect")
    )
    # The premises the permit covers, for the register of what it may keep (REC-17).
    premises = models.ForeignKey(
        "licensing.Premises",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="temporary_permits",
        verbose_name=_("premises"),
    )
    applied_on = models.DateField(_("applied on"))
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    # The decision record (architecture.md "People decide; the software records").
    decision = models.CharField(_("decision"), max_length=10, choices=Decision.choices, blank=True)
    decided_by_name = models.CharField(_("decided by"), max_length=200, blank=True)
    decided_by_capacity = models.CharField(_("in the capacity of"), max_length=200, blank=True)
    decided_on = models.DateField(_("decided on"), null=True, blank=True)
    decision_reasons = models.TextField(_("reasons"), blank=True)
    decision_recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decision_recorded_at = models.DateTimeField(_("decision recorded at"), null=True, blank=True)
    document = models.ForeignKey(
        "notices.IssuedDocument", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    expired_at = models.DateTimeField(_("expired at"), null=True, blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["-starts_on", "-pk"]
        verbose_name = _("temporary wild-animal permit")
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__gte=models.F("starts_on")), name="temporary_dates_order"
            ),
            models.UniqueConstraint(
                fields=["jurisdiction", "number"],
                condition=~Q(number=""),
                name="temporary_number_unique",
            ),
        ]

    def __str__(self):
        return self.number or __("Application by %(a)s") % {"a": self.applicant_name}

    def get_absolute_url(self):
        return reverse("permits:temporary_detail", args=[self.pk])

    @property
    def days(self) -> int:
        """Days the animals may be in the city, the first and last day both counted."""
        return (self.ends_on - self.starts_on).days + 1

    @property
    def species_list(self) -> list[str]:
        return [line.strip() for line in self.species.splitlines() if line.strip()]

    def expire(self, *, at, actor=None) -> None:
        """Issued -> expired: its last day has passed (Subd. 32(A))."""
        self.expired_at = at
        self.apply(
            "expire",
            actor=actor,
            at=at,
            summary=__("Temporary permit %(n)s expired after %(d)s")
            % {"n": self.number, "d": self.ends_on.isoformat()},
            data={"ends_on": str(self.ends_on)},
            fields=["expired_at"],
        )


# --- Horse permits (§702) ----------------------------------------------------------------


class HorseStatus(models.TextChoices):
    APPLIED = "applied", _("Applied; standards to be checked")
    CHECKED = "checked", _("Standards met; waiting for the Council")
    APPROVED = "approved", _("Approved by the Council; to be issued")
    DENIED = "denied", _("Denied by the Council")
    ISSUED = "issued", _("Issued")
    EXPIRED = "expired", _("Expired")


class Fence(models.TextChoices):
    # The values are the words of 702(b), compared with the profile's forbidden list.
    WOOD = "wood", _("Wood")
    METAL = "metal", _("Metal")
    BARBED_WIRE = "barbed wire", _("Barbed wire")
    ELECTRIC = "electric", _("Electric")


_CHECKING = (HorseStatus.APPLIED, HorseStatus.CHECKED)


class HorsePermit(StatefulRecord, Kept):
    """A permit to keep horses, colts, ponies or mules (C52).

    The standards a person checks keep the application applied until all are met
    (HOR-04); the Council approves or denies (HOR-03); the Clerk issues an approved
    permit, which expires on its April 15 (HOR-05)."""

    KIND = PermitKind.HORSE.label
    TRANSITIONS = (
        Transition("check", _CHECKING, _CHECKING, event="permits.horse.checked", rule="HOR-04"),
        Transition(
            "council",
            HorseStatus.CHECKED,
            (HorseStatus.APPROVED, HorseStatus.DENIED),
            event="permits.horse.council_{to}",
            rule="HOR-03",
        ),
        Transition(
            "issue",
            HorseStatus.APPROVED,
            HorseStatus.ISSUED,
            event="permits.horse.issued",
            rule="HOR-05",
        ),
        Transition(
            "expire",
            HorseStatus.ISSUED,
            HorseStatus.EXPIRED,
            event="permits.horse.expired",
            rule="HOR-05",
        ),
    )

    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.PROTECT, related_name="horse_permits"
    )
    number = models.CharField(_("permit number"), max_length=20, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=HorseStatus.choices, default=HorseStatus.APPLIED
    )
    # The application (HOR-02): by the owner of the animals, to the City Clerk.
    applicant_name = models.CharField(_("owner of the animals"), max_length=200)
    applicant_address = models.CharField(_("owner's address"), max_length=300)
    applicant_phone = models.CharField(_("phone"), max_length=40, blank=True)
    applicant_email = models.EmailField(_("e-mail (for the renewal reminder)"), blank=True)
    legal_description = models.TextField(_("legal description of the property"))
    landowner_name = models.CharField(_("name of the owner of the land"), max_length=200)
    pasture_acres = models.DecimalField(_("pasture area (acres)"), max_digits=8, decimal_places=3)
    horses = models.PositiveSmallIntegerField(_("horses"), default=0)
    colts = models.PositiveSmallIntegerField(_("colts"), default=0)
    ponies = models.PositiveSmallIntegerField(_("ponies"), default=0)
    mules = models.PositiveSmallIntegerField(_("mules"), default=0)
    shelter_description = models.TextField(_("description of the shelter"))
    residence_distance_ft = models.PositiveIntegerField(
        _("distance from the pasture to the nearest residence (feet)")
    )
    fence_material = models.CharField(_("pasture fence"), max_length=20, choices=Fence.choices)
    premises = models.ForeignKey(
        "licensing.Premises",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="horse_permits",
        verbose_name=_("premises"),
    )
    applied_on = models.DateField(_("applied on"))
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    # The standards a person checks (702(c), (d) grazing, (f)).
    shelter_ok = models.BooleanField(_("shelter keeps the animals comfortable"), default=False)
    grazing_ok = models.BooleanField(_("pasture can be used for grazing"), default=False)
    sanitation_ok = models.BooleanField(_("premises clean and sanitary"), default=False)
    checks_note = models.TextField(_("inspection notes"), blank=True)
    checked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    checked_on = models.DateField(_("checked on"), null=True, blank=True)
    # The Council's decision (HOR-03).
    council_decision = models.CharField(
        _("Council decision"), max_length=10, choices=Decision.choices, blank=True
    )
    council_date = models.DateField(_("Council meeting"), null=True, blank=True)
    resolution_number = models.CharField(_("resolution"), max_length=60, blank=True)
    council_reasons = models.TextField(_("reasons"), blank=True)
    council_recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # Issue by the Clerk (HOR-05, FEE-13): the dates and the fee as they were at issue.
    issued_on = models.DateField(_("issued on"), null=True, blank=True)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    expires_on = models.DateField(_("expires on"), null=True, blank=True)
    expiry_citation = models.CharField(_("section"), max_length=200, blank=True)
    remind_on = models.DateField(_("renewal reminder on"), null=True, blank=True)
    fee_amount = models.DecimalField(
        _("fee"), max_digits=8, decimal_places=2, null=True, blank=True
    )
    fee_authority = models.CharField(_("fee set by"), max_length=200, blank=True)
    document = models.ForeignKey(
        "notices.IssuedDocument", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    reminder_sent_at = models.DateTimeField(_("renewal reminder sent at"), null=True, blank=True)
    expired_at = models.DateTimeField(_("expired at"), null=True, blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["-applied_on", "-pk"]
        verbose_name = _("horse permit")
        constraints = [
            models.CheckConstraint(condition=Q(pasture_acres__gte=0), name="horse_acres_positive"),
            models.UniqueConstraint(
                fields=["jurisdiction", "number"],
                condition=~Q(number=""),
                name="horse_number_unique",
            ),
        ]

    def __str__(self):
        return self.number or __("Application by %(a)s") % {"a": self.applicant_name}

    def get_absolute_url(self):
        return reverse("permits:horse_detail", args=[self.pk])

    @property
    def animal_count(self) -> int:
        """Horses, colts, ponies and mules all count toward 702(e) (rules.md HOR-02)."""
        return self.horses + self.colts + self.ponies + self.mules

    @property
    def person_checks_done(self) -> bool:
        return self.shelter_ok and self.grazing_ok and self.sanitation_ok

    def weeks_valid(self) -> int | None:
        if self.issued_on is None or self.expires_on is None:
            return None
        return (self.expires_on - self.issued_on).days // 7

    def expire(self, *, at, actor=None) -> None:
        """Issued -> expired: its April 15 has come (702; HOR-05)."""
        self.expired_at = at
        self.apply(
            "expire",
            actor=actor,
            at=at,
            fields=["expired_at"],
            summary=__("Horse permit %(n)s expired on %(d)s (%(s)s)")
            % {"n": self.number, "d": self.expires_on.isoformat(), "s": self.expiry_citation},
            data={"expires_on": str(self.expires_on)},
        )

    def is_current(self, on: date) -> bool:
        return self.status == HorseStatus.ISSUED and self.expires_on > on


# --- Exemptions from the wild-animal prohibition (Subd. 32(B), (C)) ----------------------


class ExemptionBasis(models.TextChoices):
    VETERINARY = "veterinary", _("Bona fide veterinary hospital or clinic")
    REHABILITATION = "rehabilitation", _("Institutional program returning animals to the wild")


# The rules.md rule each basis applies; its section comes from the city's profile.
BASIS_RULES = {ExemptionBasis.VETERINARY: "WLD-05", ExemptionBasis.REHABILITATION: "WLD-06"}


class WildExemption(Kept):
    """A recorded exemption from the prohibition on keeping wild animals (Subd. 31) for a
    premises: a veterinary hospital with protective devices (Subd. 32(B); WLD-05) or a
    wildlife rehabilitation program whose premises meet zoning (Subd. 32(C); WLD-06).
    Recorded by a person, never inferred; ended with a reason, never deleted."""

    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.PROTECT, related_name="wild_exemptions"
    )
    premises = models.ForeignKey(
        "licensing.Premises", on_delete=models.PROTECT, related_name="wild_exemptions"
    )
    owner = models.ForeignKey(
        "licensing.Owner",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="wild_exemptions",
        verbose_name=_("holder (owner in the registry)"),
    )
    basis = models.CharField(_("basis"), max_length=20, choices=ExemptionBasis.choices)
    holder_name = models.CharField(_("hospital, clinic or program"), max_length=200)
    section = models.CharField(_("section"), max_length=200)
    section_note = models.TextField(_("how the section is read"), blank=True)
    protective_devices_confirmed = models.BooleanField(
        _("protective devices adequate to prevent escape or injury confirmed"), default=False
    )
    zoning_confirmed = models.BooleanField(
        _("the premises comply with the zoning requirements (confirmed)"), default=False
    )
    confirmed_by_name = models.CharField(_("confirmed by"), max_length=200)
    evidence = models.TextField(_("what was seen or relied on"))
    starts_on = models.DateField(_("in force from"))
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(_("recorded at"))
    ended_on = models.DateField(_("ended on"), null=True, blank=True)
    end_reason = models.TextField(_("why it ended"), blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["-starts_on", "-pk"]
        verbose_name = _("wild-animal exemption")
        constraints = [
            models.CheckConstraint(
                condition=Q(ended_on__isnull=True) | Q(ended_on__gte=models.F("starts_on")),
                name="wild_exemption_dates_order",
            ),
        ]

    def __str__(self):
        return f"{self.holder_name} ({self.get_basis_display()}, {self.section})"

    def in_force(self, on: date) -> bool:
        return self.starts_on <= on and (self.ended_on is None or self.ended_on >= on)
