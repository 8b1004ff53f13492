"""Citations to appear in court (rules.md REC-14, FEE-15, RES-04, RES-06; Appendix C10).

A citation carries its city's number (one gap-free series per city, allocated like
receipts), the violation code with the section violated, and the charge class the
officer confirmed after the software proposed one from prior adjudicated violations.
The software records charge classes; it never computes a fine the ordinance leaves to a
court (FEE-15). An issued citation is never deleted and never rewritten: only its status
(recorded by staff, with the date) and the sweep's flag change afterwards, and
simple-history keeps every change.

Its ``source`` is optional and generic (a complaint, an impound case), so this app
depends on no app above it; the complaints app calls ``services.issuance.issue_citation``.
"""

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext as __
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from kernel.kept import Kept, KeptQuerySet, RecordKept
from kernel.models import StatefulRecord, Transition
from licensing.models import Animal, Owner, Premises
from ordinance.models import Jurisdiction


class ChargeClass(models.TextChoices):
    """The classes the two ordinances use (FEE-15); profile values name them."""

    PETTY_MISDEMEANOR = "petty_misdemeanor", _("Petty misdemeanor")
    MISDEMEANOR = "misdemeanor", _("Misdemeanor")


class CitationStatus(models.TextChoices):
    ISSUED = "issued", _("Issued")
    PAID = "paid", _("Paid")
    CONTESTED = "contested", _("Contested")
    DISMISSED = "dismissed", _("Dismissed")
    ADJUDICATED = "adjudicated", _("Adjudicated")


# No outcome yet: the appearance date still matters (the sweep's flag).
AWAITING_OUTCOME = (CitationStatus.ISSUED, CitationStatus.CONTESTED)
# What may change on an issued citation; everything else is as issued.
MUTABLE_FIELDS = frozenset(
    {
        "status",
        "status_changed_at",
        "status_changed_on",
        "status_changed_by",
        "status_note",
        "outcome_overdue_at",
    }
)


class CitationQuerySet(KeptQuerySet):
    def update(self, **kwargs):
        if set(kwargs) - MUTABLE_FIELDS:
            raise RecordKept(self.model, __("An issued citation is never rewritten."))
        return super().update(**kwargs)


_ISSUED, _CONTESTED = CitationStatus.ISSUED, CitationStatus.CONTESTED


class Citation(StatefulRecord, Kept):
    """One citation to appear in court (C10): defendant, animal, violation, court.

    After issue staff record what became of it, the day it happened (a transition each);
    nothing else on it changes."""

    TRANSITIONS = (
        Transition("pay", _ISSUED, CitationStatus.PAID, event="citations.citation.paid"),
        Transition("contest", _ISSUED, _CONTESTED, event="citations.citation.contested"),
        Transition(
            "dismiss",
            (_ISSUED, _CONTESTED),
            CitationStatus.DISMISSED,
            event="citations.citation.dismissed",
        ),
        Transition(
            "adjudicate",
            (_ISSUED, _CONTESTED),
            CitationStatus.ADJUDICATED,
            event="citations.citation.adjudicated",
        ),
    )

    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.PROTECT, related_name="citations"
    )
    number = models.PositiveIntegerField(_("citation number"))

    # What is charged (FEE-15): the profile's code, label and sections as issued.
    violation_code = models.SlugField(_("violation code"), max_length=60)
    violation_label = models.CharField(_("violation"), max_length=300)
    violation_citation = models.CharField(_("section violated"), max_length=200)
    charge_class = models.CharField(_("charge class"), max_length=20, choices=ChargeClass.choices)
    charge_class_citation = models.CharField(_("penalty section"), max_length=200)
    proposed_class = models.CharField(
        _("class proposed"), max_length=20, choices=ChargeClass.choices
    )
    proposal_basis = models.TextField(_("how the class was proposed"))
    class_reason = models.TextField(
        _("reason for another class"),
        blank=True,
        help_text=_("Required when the confirmed class is not the one proposed."),
    )
    fine_cap = models.DecimalField(
        _("fine cap set by the ordinance"),
        max_digits=8,
        decimal_places=2,
        null=True,
        blank=True,
        help_text=_("Only where the ordinance itself caps the fine; the court sets the fine."),
    )
    fine_cap_citation = models.CharField(_("fine cap section"), max_length=200, blank=True)
    # Prior adjudicated violations counted at issue (RES-06), for the same dog, owner and
    # address; the ones of the same code decide a repeat class.
    prior_animal = models.PositiveSmallIntegerField(_("prior violations of the dog"), default=0)
    prior_owner = models.PositiveSmallIntegerField(_("prior violations of the owner"), default=0)
    prior_address = models.PositiveSmallIntegerField(
        _("prior violations at the address"), default=0
    )
    prior_same_code = models.PositiveSmallIntegerField(
        _("prior violations of this code"), default=0
    )

    # Who and what (C10): the defendant (the owner), the animal, the address.
    owner = models.ForeignKey(
        Owner,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="citations",
        verbose_name=_("owner"),
    )
    defendant_name = models.CharField(_("defendant"), max_length=200)
    defendant_address = models.CharField(_("defendant's address"), max_length=300)
    animal = models.ForeignKey(
        Animal,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="citations",
        verbose_name=_("animal"),
    )
    animal_description = models.CharField(_("animal"), max_length=300, blank=True)
    premises = models.ForeignKey(
        Premises,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="citations",
        verbose_name=_("premises"),
    )
    address = models.CharField(_("address"), max_length=300)
    violated_at = models.DateTimeField(_("date and time of the violation"))
    location = models.CharField(_("place observed"), max_length=300)
    officer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("officer"),
    )
    officer_name = models.CharField(_("officer"), max_length=200)
    court = models.CharField(_("court"), max_length=200)
    appearance_on = models.DateField(_("appearance date"))
    issued_at = models.DateTimeField(_("issued at"))

    # Where it came from, if anywhere: any record (a complaint, an impound case).
    source_type = models.ForeignKey(
        ContentType, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    source_id = models.PositiveBigIntegerField(null=True, blank=True)
    source = GenericForeignKey("source_type", "source_id")
    source_label = models.CharField(_("source"), max_length=200, blank=True)

    # What changes after issue (MUTABLE_FIELDS).
    status = models.CharField(
        _("status"), max_length=12, choices=CitationStatus.choices, default=CitationStatus.ISSUED
    )
    status_changed_on = models.DateField(_("status recorded for"), null=True, blank=True)
    status_changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    status_note = models.CharField(_("note"), max_length=300, blank=True)
    outcome_overdue_at = models.DateTimeField(
        _("flagged: appearance date passed with no outcome"), null=True, blank=True
    )

    history = HistoricalRecords()
    objects = CitationQuerySet.as_manager()

    class Meta:
        ordering = ["-issued_at", "-pk"]
        verbose_name = _("citation")
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "number"], name="citation_number_unique"
            ),
            models.CheckConstraint(
                # Another class than the one proposed carries its reason (an override).
                condition=Q(charge_class=models.F("proposed_class")) | ~Q(class_reason=""),
                name="citation_override_has_reason",
            ),
        ]
        indexes = [
            models.Index(
                fields=["jurisdiction", "status", "appearance_on"], name="citation_status_idx"
            ),
            models.Index(fields=["animal", "status"], name="citation_animal_idx"),
            models.Index(fields=["owner", "status"], name="citation_owner_idx"),
        ]

    def __str__(self):
        return __("Citation %(n)s") % {"n": self.number}

    def save(self, *args, **kwargs):
        if not self._state.adding:
            fields = kwargs.get("update_fields")
            if fields is None or set(fields) - MUTABLE_FIELDS:
                raise RecordKept(type(self), __("An issued citation is never rewritten."))
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return reverse("citations:detail", args=[self.pk])

    @property
    def awaiting_outcome(self) -> bool:
        return self.status in AWAITING_OUTCOME
