"""Dog licenses, their exemptions, metal tags and numbered receipts.

Rules: LIC-01..15, REC-01/02 (rules.md). Numbers (receipt, license, tag) are protected by
unique constraints; the services allocate them under row locks (style.md, "Official
numbers"): receipts and licenses from the kernel's number series, tags from the stock.
Licenses, tags, receipts and receipt lines are never deleted (``delete()`` refuses).
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
from ordinance.models import Event, Jurisdiction

from .registry import Animal, Owner, RabiesVaccination


class LicenseKind(models.TextChoices):
    DOG = "dog", _("Dog license")


class LicenseStatus(models.TextChoices):
    ACTIVE = "active", _("Active")
    EXPIRED = "expired", _("Expired")
    CLOSED = "closed", _("Closed")
    VOID = "void", _("Void")


CLOSABLE = (LicenseStatus.ACTIVE, LicenseStatus.EXPIRED)
VOIDABLE = (LicenseStatus.ACTIVE, LicenseStatus.EXPIRED, LicenseStatus.CLOSED)


class PaymentMethod(models.TextChoices):
    """How the counter takes money (its forms offer these)."""

    CASH = "cash", _("Cash")
    CHECK = "check", _("Check")
    CARD = "card", _("Card")


class ReceiptMethod(models.TextChoices):
    """How a receipt's money was taken: the counter's methods, or collected by a clinic
    selling licenses from the city's tags on consignment. The clinic
    keeps its own payment records: the city's receipt holds no card data."""

    CASH = PaymentMethod.CASH.value, PaymentMethod.CASH.label
    CHECK = PaymentMethod.CHECK.value, PaymentMethod.CHECK.label
    CARD = PaymentMethod.CARD.value, PaymentMethod.CARD.label
    CLINIC = "clinic", _("Clinic-collected")


class Receipt(Kept):
    """A numbered receipt (LIC-06, REC-01). A void is a new receipt pointing at the original."""

    KEPT_HINT = _("Void them instead.")

    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.PROTECT, related_name="receipts"
    )
    number = models.PositiveIntegerField(_("receipt number"))
    issued_at = models.DateTimeField(_("issued at"))
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    payer = models.ForeignKey(
        Owner, null=True, blank=True, on_delete=models.PROTECT, related_name="receipts"
    )
    # Snapshot: the receipt shows the payer as they were when they paid.
    payer_name = models.CharField(_("payer"), max_length=200)
    payer_address = models.CharField(_("payer address"), max_length=300, blank=True)
    method = models.CharField(_("payment method"), max_length=8, choices=ReceiptMethod.choices)
    reference = models.CharField(_("check number or card last 4"), max_length=40, blank=True)
    total = models.DecimalField(_("total"), max_digits=10, decimal_places=2)
    # Cash handed over at the counter, set at issue (the database refuses a later change).
    amount_tendered = models.DecimalField(
        _("amount tendered"), max_digits=10, decimal_places=2, null=True, blank=True
    )
    voids = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="voided_by",
        verbose_name=_("voids receipt"),
    )
    void_reason = models.CharField(_("reason for void"), max_length=300, blank=True)
    # Every dog license the receipt's money concerns: the license it issued, a transfer or
    # a duplicate tag on it, and a void of any of those, so the license
    # page lists every receipt that touched it. ``licenses`` (License.receipt) stays the
    # licenses this receipt issued, which a void voids.
    regarding = models.ManyToManyField(
        "License", blank=True, related_name="receipts_regarding", verbose_name=_("licenses")
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["-issued_at", "-number"]
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "number"], name="receipt_number_unique_per_city"
            ),
        ]

    def __str__(self):
        return f"Receipt {self.number}"

    def get_absolute_url(self):
        return reverse("licensing:receipt_detail", args=[self.pk])

    @property
    def is_void_record(self) -> bool:
        return self.voids_id is not None

    @property
    def refund_amount(self):
        """What a void receipt gave back, as a positive amount."""
        return -self.total if self.voids_id else None

    @property
    def change_due(self):
        """The change handed back for cash tendered; None when nothing was recorded."""
        if self.amount_tendered is None:
            return None
        return self.amount_tendered - self.total


class ReceiptLine(Kept):
    """One fee on a receipt, with the authority that sets it (FEE-01..05)."""

    KEPT_HINT = _("Void their receipt instead.")

    receipt = models.ForeignKey(Receipt, on_delete=models.PROTECT, related_name="lines")
    position = models.PositiveSmallIntegerField(default=0)
    code = models.SlugField(_("fee code"), max_length=40)
    description = models.CharField(_("description"), max_length=200)
    amount = models.DecimalField(_("amount"), max_digits=10, decimal_places=2)
    authority = models.CharField(_("authority"), max_length=200)

    class Meta:
        ordering = ["receipt", "position", "pk"]

    def __str__(self):
        return f"{self.description}: {self.amount}"


class License(StatefulRecord, Kept):
    """An annual dog license (LIC-01, LIC-07): issued, active until expiry, then expired.

    A license is closed when the dog dies or moves away, voided with the receipt that paid
    for it; the December 31 expiry is the set-based sweep of ``services.expiry``."""

    KEPT_HINT = _("Void them instead.")
    TRANSITIONS = (
        Transition(
            "close", CLOSABLE, LicenseStatus.CLOSED, event="licensing.license.closed", rule="LIC-11"
        ),
        Transition(
            "void", VOIDABLE, LicenseStatus.VOID, event="licensing.license.voided", rule="LIC-06"
        ),
        Transition(
            "expire",
            LicenseStatus.ACTIVE,
            LicenseStatus.EXPIRED,
            event="licensing.license.expired",
            rule="LIC-07",
        ),
    )

    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.PROTECT, related_name="licenses"
    )
    number = models.CharField(_("license number"), max_length=20)
    kind = models.CharField(
        _("kind"), max_length=10, choices=LicenseKind.choices, default=LicenseKind.DOG
    )
    animal = models.ForeignKey(Animal, on_delete=models.PROTECT, related_name="licenses")
    owner = models.ForeignKey(Owner, on_delete=models.PROTECT, related_name="licenses")
    term_start = models.DateField(_("term starts"))
    expires_on = models.DateField(_("expires on"))
    status = models.CharField(
        _("status"), max_length=10, choices=LicenseStatus.choices, default=LicenseStatus.ACTIVE
    )
    issued_on = models.DateField(_("issued on"))
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    receipt = models.ForeignKey(
        Receipt, null=True, blank=True, on_delete=models.PROTECT, related_name="licenses"
    )
    # LIC-05/LIC-15: the certificate the clerk checked when issuing.
    vaccination = models.ForeignKey(
        RabiesVaccination,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("rabies vaccination checked"),
    )
    late_penalty = models.BooleanField(_("late penalty charged"), default=False)
    became_subject_on = models.DateField(
        _("became subject to licensing on"),
        null=True,
        blank=True,
        help_text=_("Later of acquisition and passing the license age (LIC-13)."),
    )
    renewal_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="renewals"
    )
    status_changed_on = models.DateField(null=True, blank=True)
    status_reason = models.CharField(_("reason"), max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["-term_start", "-issued_on", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "number"], name="license_number_unique_per_city"
            ),
            # LIC-14: one dog, one current license for a term.
            models.UniqueConstraint(
                fields=["animal", "term_start"],
                condition=Q(status="active"),
                name="one_active_license_per_animal_term",
            ),
        ]
        indexes = [
            models.Index(
                fields=["jurisdiction", "status", "expires_on"], name="license_expiry_idx"
            ),
        ]

    def __str__(self):
        return f"License {self.number}"

    def get_absolute_url(self):
        return reverse("licensing:license_detail", args=[self.pk])

    def is_current(self, on: date) -> bool:
        return self.status == LicenseStatus.ACTIVE and self.term_start <= on <= self.expires_on

    # --- Transitions (TRANSITIONS; style.md "State, time and jobs"; rules.md REC-18) --

    def close(self, *, actor, on: date, reason: str, at=None, data=None) -> None:
        """Active or expired -> closed: the dog died or moved away (LIC-11)."""
        self._leave("close", actor=actor, on=on, reason=reason, at=at, data=data)

    def void(self, *, actor, on: date, reason: str, at=None, data=None) -> None:
        """Active, expired or closed -> void: the receipt that paid for it was voided
        (LIC-06, REC-01). Its issued tag is voided by the caller (``Tag.void``)."""
        self._leave("void", actor=actor, on=on, reason=reason, at=at, data=data)

    def _leave(self, name, *, actor, on, reason, at, data) -> None:
        self.ensure(name)
        self.status_changed_on, self.status_reason = on, reason
        self.apply(
            name,
            actor=actor,
            at=at,
            summary=reason,
            data=data,
            fields=["status_changed_on", "status_reason"],
        )

    @property
    def current_tag(self):
        """The issued tag, from a prefetch of ``tags`` when there is one."""
        return next((t for t in self.tags.all() if t.status == TagStatus.ISSUED), None)


class ExemptionKind(models.TextChoices):
    TEMPORARY_VISITOR = "temporary_visitor", _("Owner temporarily in the city")
    SHOW = "show", _("Dog show or performance")
    SERVICE_ANIMAL = "service_animal", _("Service or guide animal")
    NONRESIDENT_CONFINED = "nonresident_confined", _("Nonresident's dog kept confined")


class LicenseExemption(Kept):
    """A claimed exemption from licensing (LIC-02), recorded with its evidence, not skipped."""

    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="+")
    animal = models.ForeignKey(Animal, on_delete=models.PROTECT, related_name="license_exemptions")
    kind = models.CharField(_("exemption"), max_length=24, choices=ExemptionKind.choices)
    starts_on = models.DateField(_("from"))
    ends_on = models.DateField(_("until"), null=True, blank=True)
    evidence = models.TextField(_("evidence"))
    citation = models.CharField(_("citation"), max_length=200, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["-starts_on", "-pk"]

    def __str__(self):
        return f"{self.get_kind_display()} from {self.starts_on}"

    def covers(self, on: date) -> bool:
        return self.starts_on <= on and (self.ends_on is None or on <= self.ends_on)


class TagStock(models.Model):
    """A batch of numbered metal tags for a year, as received from the vendor (LIC-08)."""

    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.PROTECT, related_name="tag_stock"
    )
    year = models.PositiveSmallIntegerField(_("year stamped"))
    first_number = models.PositiveIntegerField(_("first number"))
    last_number = models.PositiveIntegerField(_("last number"))
    received_on = models.DateField(_("received on"))
    vendor = models.CharField(_("vendor"), max_length=120, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["-year", "first_number"]
        constraints = [
            models.CheckConstraint(
                condition=Q(last_number__gte=models.F("first_number")),
                name="tag_stock_range_ordered",
            ),
        ]

    def __str__(self):
        return f"{self.year} tags {self.first_number}–{self.last_number}"

    @property
    def size(self) -> int:
        return self.last_number - self.first_number + 1


class TagStatus(models.TextChoices):
    AVAILABLE = "available", _("Available")
    # Moved to a clinic that sells licenses on consignment: out of the
    # counter's stock, same number and year (REC-02), sold, returned or lost from there.
    CONSIGNED = "consigned", _("At a clinic")
    ISSUED = "issued", _("Issued")
    LOST = "lost", _("Lost")
    VOID = "void", _("Void")


SELLABLE = (TagStatus.AVAILABLE, TagStatus.CONSIGNED)


class Tag(StatefulRecord, Kept):
    """One metal tag stamped with number and year (LIC-08, REC-02); maps to one license."""

    KEPT_HINT = _("Void them instead.")
    TRANSITIONS = (
        Transition(
            "issue", SELLABLE, TagStatus.ISSUED, event="licensing.tag.issued", rule="LIC-08"
        ),
        Transition(
            "mark_lost", TagStatus.ISSUED, TagStatus.LOST, event="licensing.tag.lost", rule="LIC-10"
        ),
        Transition(
            "void", TagStatus.ISSUED, TagStatus.VOID, event="licensing.tag.voided", rule="LIC-14"
        ),
        # A block of tags at a clinic selling licenses on consignment (``move_many``).
        Transition(
            "consign",
            TagStatus.AVAILABLE,
            TagStatus.CONSIGNED,
            event="licensing.tag.consigned",
            rule="REC-02",
        ),
        Transition(
            "return_to_stock",
            TagStatus.CONSIGNED,
            TagStatus.AVAILABLE,
            event="licensing.tag.returned",
            rule="REC-02",
        ),
        Transition(
            "lose_at_clinic",
            TagStatus.CONSIGNED,
            TagStatus.LOST,
            event="licensing.tag.lost",
            rule="REC-02",
        ),
    )

    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="tags")
    year = models.PositiveSmallIntegerField(_("year"))
    number = models.PositiveIntegerField(_("tag number"))
    stock = models.ForeignKey(TagStock, on_delete=models.PROTECT, related_name="tags")
    status = models.CharField(
        _("status"), max_length=10, choices=TagStatus.choices, default=TagStatus.AVAILABLE
    )
    license = models.ForeignKey(
        License, null=True, blank=True, on_delete=models.PROTECT, related_name="tags"
    )
    issued_on = models.DateField(_("issued on"), null=True, blank=True)
    status_changed_on = models.DateField(null=True, blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["-year", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "year", "number"], name="tag_number_unique_per_city_year"
            ),
            models.UniqueConstraint(
                fields=["license"], condition=Q(status="issued"), name="one_issued_tag_per_license"
            ),
            models.CheckConstraint(
                condition=Q(status="available", license__isnull=True) | ~Q(status="available"),
                name="available_tag_has_no_license",
            ),
        ]
        indexes = [
            # The "next free tag" query: lowest available number of a city's year.
            models.Index(
                fields=["jurisdiction", "year", "status", "number"], name="tag_next_free_idx"
            ),
            # The search box's tag lookup: a bare number, any year (LIC-09).
            models.Index(fields=["number", "year"], name="tag_number_idx"),
        ]

    def __str__(self):
        return f"Tag {self.number} ({self.year})"

    # --- Transitions (TRANSITIONS; LIC-08, LIC-10, LIC-14; REC-02, REC-18) ------------
    # An issued tag never comes back: a lost or void number is never reissued, or two
    # dogs could wear it (LIC-14). A tag sent to a clinic and returned unsold was never
    # issued: it is back in stock under its own number (REC-02).

    def issue(self, *, license, actor, on: date, at=None) -> None:
        """Available (or at a clinic, sold there) -> issued to ``license`` (LIC-08)."""
        self.ensure("issue")
        self.license, self.issued_on, self.status_changed_on = license, on, on
        self.apply(
            "issue",
            actor=actor,
            at=at,
            summary=f"Tag {self.number} ({self.year}) issued with license {license.number}",
            data={"license": license.pk},
            fields=["license", "issued_on", "status_changed_on"],
        )

    def mark_lost(self, *, actor, on: date, at=None) -> None:
        """Issued -> lost: the owner reported it lost; a duplicate gets a new number (LIC-10)."""
        self._apply_on(on, "mark_lost", actor=actor, at=at, summary=f"{self} reported lost")

    def void(self, *, actor, on: date, reason: str, at=None) -> None:
        """Issued -> void: its license was voided; the number is not returned to stock
        (LIC-14)."""
        self._apply_on(on, "void", actor=actor, at=at, summary=f"{self} void: {reason}"[:300])

    def _apply_on(self, on, name, **event) -> None:
        """Apply ``name``, the day it happened recorded beside it."""
        self.ensure(name)
        self.status_changed_on = on
        self.apply(name, fields=["status_changed_on"], **event)

    # Consignment to a clinic: a block of tags moves at once, in one UPDATE with a history
    # row and an event per tag (REC-18), and one event for the block. The clinics' words
    # for a block's move, and the transition each is:
    CLINIC_WORDS = {
        "consigned": "consign",
        "returned": "return_to_stock",
        "lost": "lose_at_clinic",
    }

    @classmethod
    def move_many(cls, tags, *, move: str, holder: str, actor, on: date, at, reason="") -> None:
        """Available -> at a clinic ("consigned"), at a clinic -> available ("returned",
        unsold) or -> lost ("lost", never reissued: LIC-14). ``tags`` are locked by the
        caller; any one not in the starting state refuses the whole move."""
        name = cls.CLINIC_WORDS[move]
        tags = list(tags)
        for tag in tags:
            tag.ensure(name)
        if not tags:
            return
        why = f"{move}: {holder}" + (f" ({reason})" if reason else "")
        cls.apply_all(
            cls.objects.filter(pk__in=[t.pk for t in tags]),
            name,
            at=at,
            actor=actor,
            reason=why,
            summary=why,
            status_changed_on=on,
        )
        Event.record(
            f"licensing.tags.{move}",
            None,
            actor=actor,
            jurisdiction=tags[0].jurisdiction,
            at=at,
            summary=f"{len(tags)} tags of {tags[0].year} {move}: {holder}"[:300],
            data={"year": tags[0].year, "numbers": [t.number for t in tags], "why": reason},
        )
