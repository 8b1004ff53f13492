"""Kennel licenses (KEN-03..08): application, review decisions, issuance, denial and appeal.

Built here so kennel review, expiry and reports can be written on top; the workflow lives
in services. Decisions are records of who decided, in what capacity, and why
(architecture.md, "People decide; the software records").
"""

from datetime import date

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from kernel.kept import Kept
from kernel.models import StatefulRecord, Transition
from ordinance.models import Jurisdiction

from .licenses import Receipt
from .registry import Animal, Owner, Premises


class KennelStatus(models.TextChoices):
    APPLIED = "applied", _("Applied")
    UNDER_REVIEW = "under_review", _("Under review")
    APPROVED = "approved", _("Approved, not yet issued")
    ACTIVE = "active", _("Active")
    DENIED = "denied", _("Denied")
    APPEALED = "appealed", _("Denial appealed")
    DENIED_FINAL = "denied_final", _("Denied (final)")
    EXPIRED = "expired", _("Expired")
    REVOKED = "revoked", _("Revoked")


IN_REVIEW = (KennelStatus.APPLIED, KennelStatus.UNDER_REVIEW, KennelStatus.APPROVED)


class KennelLicense(StatefulRecord, Kept):
    """A kennel license from application to a final decision, then its term (KEN-03..08).

    Its review, denial, appeal, issue, revocation and expiry are the transitions below;
    the services decide when each applies and record the decisions behind them."""

    TRANSITIONS = (
        Transition(
            "review",
            IN_REVIEW,
            (KennelStatus.UNDER_REVIEW, KennelStatus.APPROVED),
            event="licensing.kennel.step_decided",
            rule="KEN-04",
        ),
        Transition(
            "issue",
            KennelStatus.APPROVED,
            KennelStatus.ACTIVE,
            event="licensing.kennel.issued",
            rule="KEN-04",
        ),
        Transition(
            "deny", IN_REVIEW, KennelStatus.DENIED, event="licensing.kennel.denied", rule="KEN-04"
        ),
        Transition(
            "appeal",
            KennelStatus.DENIED,
            KennelStatus.APPEALED,
            event="licensing.kennel.appealed",
            rule="KEN-07",
        ),
        Transition(
            "decide_appeal",
            KennelStatus.APPEALED,
            (KennelStatus.APPROVED, KennelStatus.DENIED_FINAL),
            event="licensing.kennel.appeal_decided",
            rule="KEN-07",
        ),
        Transition(
            "finalise_denial",
            KennelStatus.DENIED,
            KennelStatus.DENIED_FINAL,
            event="licensing.kennel.denied_final",
            rule="KEN-07",
        ),
        Transition(
            "revoke",
            KennelStatus.ACTIVE,
            KennelStatus.REVOKED,
            event="licensing.kennel.revocation_decided",
            rule="KEN-08",
        ),
        # The set-based sweep of ``services.expiry`` (KEN-05).
        Transition(
            "expire",
            KennelStatus.ACTIVE,
            KennelStatus.EXPIRED,
            event="licensing.kennel.expired",
            rule="KEN-05",
        ),
    )

    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.PROTECT, related_name="kennel_licenses"
    )
    number = models.CharField(_("license number"), max_length=20, blank=True)
    owner = models.ForeignKey(Owner, on_delete=models.PROTECT, related_name="kennel_licenses")
    premises = models.ForeignKey(Premises, on_delete=models.PROTECT, related_name="kennel_licenses")
    status = models.CharField(
        _("status"), max_length=14, choices=KennelStatus.choices, default=KennelStatus.APPLIED
    )
    business_nature = models.CharField(
        _("nature of business"),
        max_length=200,
        blank=True,
        help_text=_("Buying, selling, breeding and/or boarding (NB Sec. 6-65(a))."),
    )
    dog_count = models.PositiveSmallIntegerField(_("number of dogs"), default=0)
    cat_count = models.PositiveSmallIntegerField(_("number of cats"), default=0)
    cup_reference = models.CharField(_("conditional use permit"), max_length=60, blank=True)
    conditions = models.TextField(_("conditions"), blank=True)
    applied_on = models.DateField(_("applied on"))
    # LIC-13 applies to kennels too (NB Sec. 6-65(c)): no late penalty when the kennel
    # became subject to licensing after the term started and applies within the grace days.
    became_subject_on = models.DateField(
        _("became subject to licensing on"),
        null=True,
        blank=True,
        help_text=_(
            "When the premises started keeping animals as a kennel, if after the "
            "license term started (LIC-13)."
        ),
    )
    issued_on = models.DateField(_("issued on"), null=True, blank=True)
    # Null where the ordinance sets no term (Glencoe, KEN-05): valid until revoked.
    expires_on = models.DateField(_("expires on"), null=True, blank=True)
    denied_on = models.DateField(_("denied on"), null=True, blank=True)
    denial_notified_on = models.DateField(_("denial notified on"), null=True, blank=True)
    appeal_deadline = models.DateField(_("appeal deadline"), null=True, blank=True)
    receipt = models.ForeignKey(
        Receipt, null=True, blank=True, on_delete=models.PROTECT, related_name="kennel_licenses"
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["-applied_on", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "number"],
                condition=~Q(number=""),
                name="kennel_number_unique_per_city",
            ),
        ]
        indexes = [
            models.Index(fields=["premises", "status"], name="kennel_premises_status_idx"),
        ]

    def __str__(self):
        return f"Kennel license {self.number or '(applied)'} — {self.premises}"

    def get_absolute_url(self):
        return reverse("licensing:kennel_detail", args=[self.pk])

    @property
    def fee_paid(self) -> bool:
        """The fee receipt stands: paid and not voided (LIC-06, REC-01). A voided receipt
        leaves the application needing the fee again; pages select ``receipt__voided_by``
        so this reads no row."""
        return self.receipt_id is not None and not hasattr(self.receipt, "voided_by")

    def is_current(self, on: date) -> bool:
        if self.status != KennelStatus.ACTIVE:
            return False
        return self.expires_on is None or on <= self.expires_on

    # --- Transitions (TRANSITIONS; style.md "State, time and jobs"; rules.md REC-18) --

    def review(
        self, *, actor, step: str, outcome: str, complete: bool, conditions: str = "", at=None
    ) -> None:
        """Applied, under review or approved -> under review, or approved once every
        review step is satisfied (``complete``; KEN-04)."""
        to = KennelStatus.APPROVED if complete else KennelStatus.UNDER_REVIEW
        self.ensure("review", to=to)
        self._add_conditions(conditions)
        self.apply(
            "review",
            to=to,
            actor=actor,
            at=at,
            fields=["conditions"],
            summary=f"{step}: {outcome}",
            data={"step": step, "outcome": outcome},
        )

    def issue(self, *, actor, number: str, on: date, expires_on: date | None, at=None) -> None:
        """Approved -> active, with its number and expiry (KEN-04, KEN-05)."""
        self.ensure("issue")
        self.number, self.issued_on, self.expires_on = number, on, expires_on
        self.apply(
            "issue",
            actor=actor,
            at=at,
            fields=["number", "issued_on", "expires_on"],
            summary=f"Kennel license {number} issued",
            data={"expires_on": expires_on.isoformat() if expires_on else None},
        )

    def deny(self, *, actor, step: str, on: date, at=None) -> None:
        """Applied, under review or approved -> denied at a review step (KEN-04, KEN-07)."""
        self.ensure("deny")
        self.denied_on = on
        self.apply(
            "deny",
            actor=actor,
            at=at,
            fields=["denied_on"],
            summary=f"Denied at {step}",
            data={"step": step},
        )

    def appeal(self, *, actor, filed_on: date, at=None) -> None:
        """Denied -> appealed to the Council (KEN-07)."""
        self.apply(
            "appeal",
            actor=actor,
            at=at,
            summary="Denial appealed to the Council",
            data={"filed_on": filed_on.isoformat()},
        )

    def decide_appeal(self, *, actor, granted: bool, conditions: str = "", at=None) -> None:
        """Appealed -> approved (granted, with any conditions) or denied (final) (KEN-07)."""
        to = KennelStatus.APPROVED if granted else KennelStatus.DENIED_FINAL
        self.ensure("decide_appeal", to=to)
        self._add_conditions(conditions)
        self.apply(
            "decide_appeal",
            to=to,
            actor=actor,
            at=at,
            fields=["conditions"],
            data={"granted": granted},
            summary="Appeal granted" if granted else "Appeal denied; denial final",
        )

    def finalise_denial(self, *, actor=None, at=None, summary: str = "") -> None:
        """Denied -> denied (final): not appealed by the deadline (KEN-07)."""
        self._change_reason = "appeal deadline passed (automatic)"
        deadline = self.appeal_deadline
        self.apply(
            "finalise_denial",
            actor=actor,
            at=at,
            summary=summary or "Appeal deadline passed; denial final",
            data={"appeal_deadline": deadline.isoformat() if deadline else None},
        )

    def revoke(self, *, actor, at=None) -> None:
        """Active -> revoked by the Council after notice and hearing (KEN-08)."""
        self.apply("revoke", actor=actor, at=at, summary="Revoked", data={"revoked": True})

    def _add_conditions(self, conditions: str) -> None:
        if conditions:
            self.conditions = f"{self.conditions.rstrip()}\n{conditions.strip()}".strip()


class KennelDecision(models.Model):
    """One review step's outcome, decided by a person (KEN-04, KEN-07)."""

    class Outcome(models.TextChoices):
        APPROVED = "approved", _("Approved / satisfied")
        DENIED = "denied", _("Denied")
        REFERRED = "referred", _("Referred")
        CONDITIONS = "conditions", _("Approved with conditions")

    kennel_license = models.ForeignKey(
        KennelLicense, on_delete=models.PROTECT, related_name="decisions"
    )
    step = models.CharField(_("review step"), max_length=120)
    outcome = models.CharField(_("outcome"), max_length=12, choices=Outcome.choices)
    decided_by_name = models.CharField(_("decided by"), max_length=120)
    decided_by_capacity = models.CharField(_("in the capacity of"), max_length=120)
    decided_on = models.DateField(_("decided on"))
    reasons = models.TextField(_("reasons"), blank=True)
    citation = models.CharField(_("rule applied"), max_length=200, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["decided_on", "pk"]

    def __str__(self):
        return f"{self.step}: {self.get_outcome_display()}"


class KennelAnimal(models.Model):
    """An animal kept under a kennel license."""

    kennel_license = models.ForeignKey(
        KennelLicense, on_delete=models.PROTECT, related_name="kennel_animals"
    )
    animal = models.ForeignKey(Animal, on_delete=models.PROTECT, related_name="kennel_memberships")
    added_on = models.DateField(_("added on"))
    removed_on = models.DateField(_("removed on"), null=True, blank=True)

    history = HistoricalRecords()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["kennel_license", "animal"], name="kennel_animal_unique"
            ),
        ]

    def __str__(self):
        return f"{self.animal} in {self.kennel_license}"
