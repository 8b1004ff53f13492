"""Impoundment: pounds, cases, their gates, redemptions and sterilization agreements.

Rules: IMP-01..15, rules.md Appendix B2 (lifecycle), C11-C21 (documents), Minn. Stat.
346.47 (Appendix H MN-01..04). A case is never deleted (IMP-06: records kept at least
``impound_record_retention_months``; the database refuses a delete through ``PROTECT``
and ``delete()`` refuses, the kernel's ``Kept``). A case stands on the kernel's
``CaseRecord``: its state machine is the ``TRANSITIONS`` table on the model, and every
state change is applied by the kernel, which records its Event; field history is kept
by simple-history.

An impounded stray has no owner yet, and ``licensing.Animal.owner`` is required, so the
case carries its own Subd. 13 description; ``animal`` is linked once an owner is known.
"""

from datetime import date

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as __
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from kernel.kept import Kept
from kernel.models import CaseRecord, Transition
from licensing.models import Animal, License, Owner, RabiesVaccination, Receipt
from licensing.models.registry import Sex, Species
from ordinance.models import Jurisdiction

# --- Pounds -----------------------------------------------------------------------------


class Pound(models.Model):
    """A designated shelter or pound (IMP-02); one may serve several cities.

    Its weekly hours and closures decide its "regular business days" (Minn. Stat. 346.47
    subd. 1(2)), which the hold counts alongside the ordinance's business days.
    """

    name = models.CharField(_("name"), max_length=160)
    address = models.CharField(_("address"), max_length=300)
    phone = models.CharField(_("phone"), max_length=40, blank=True)
    jurisdictions = models.ManyToManyField(
        Jurisdiction, related_name="pounds", verbose_name=_("cities served")
    )
    designation = models.CharField(
        _("designated by"),
        max_length=200,
        help_text=_("The council resolution designating it (NB Sec. 6-28; GL Subd. 12)."),
    )
    designated_from = models.DateField(_("designated from"))
    designated_until = models.DateField(_("designated until"), null=True, blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        verbose_name = _("pound")

    def __str__(self):
        return self.name


class PoundHours(models.Model):
    """Hours the pound is open to the public on a weekday (one row per interval)."""

    class Weekday(models.IntegerChoices):
        MONDAY = 0, _("Monday")
        TUESDAY = 1, _("Tuesday")
        WEDNESDAY = 2, _("Wednesday")
        THURSDAY = 3, _("Thursday")
        FRIDAY = 4, _("Friday")
        SATURDAY = 5, _("Saturday")
        SUNDAY = 6, _("Sunday")

    pound = models.ForeignKey(Pound, on_delete=models.CASCADE, related_name="hours")
    weekday = models.PositiveSmallIntegerField(_("day"), choices=Weekday.choices)
    opens = models.TimeField(_("opens"))
    closes = models.TimeField(_("closes"))

    history = HistoricalRecords()

    class Meta:
        ordering = ["pound", "weekday", "opens"]
        verbose_name = _("pound hours")
        verbose_name_plural = _("pound hours")
        constraints = [
            models.CheckConstraint(condition=Q(closes__gt=models.F("opens")), name="hours_order"),
        ]

    def __str__(self):
        return f"{self.get_weekday_display()} {self.opens:%H:%M}-{self.closes:%H:%M}"


class PoundClosure(models.Model):
    """A day the pound is closed to the public beyond its weekly hours."""

    pound = models.ForeignKey(Pound, on_delete=models.CASCADE, related_name="closures")
    date = models.DateField(_("date"))
    reason = models.CharField(_("reason"), max_length=200)

    history = HistoricalRecords()

    class Meta:
        ordering = ["pound", "date"]
        verbose_name = _("pound closure")
        constraints = [
            models.UniqueConstraint(fields=["pound", "date"], name="pound_closure_unique")
        ]

    def __str__(self):
        return f"{self.pound}: {self.date} ({self.reason})"


# --- Cases ------------------------------------------------------------------------------


class CaseStatus(models.TextChoices):
    HELD = "held", _("Held for redemption")
    AVAILABLE = "available", _("Available for disposition")
    REDEEMED = "redeemed", _("Redeemed by the owner")
    ADOPTED = "adopted", _("Adopted")
    EUTHANIZED = "euthanized", _("Humanely euthanized")
    TRANSFERRED = "transferred", _("Transferred")
    RELEASED = "released", _("Released")
    DIED = "died", _("Died in custody")


OPEN_STATUSES = (CaseStatus.HELD, CaseStatus.AVAILABLE)
CLOSED_STATUSES = tuple(s for s in CaseStatus if s not in OPEN_STATUSES)
# How a case ends other than by the owner's redemption: a person's disposition (IMP-09).
DISPOSED_STATUSES = tuple(s for s in CLOSED_STATUSES if s != CaseStatus.REDEEMED)


class Sterilized(models.TextChoices):
    YES = "yes", _("Spayed or neutered")
    NO = "no", _("Intact")
    UNKNOWN = "unknown", _("Not known")


class ImpoundCase(CaseRecord):
    """One animal's stay at the pound, from intake to disposition (Appendix B2, C13).

    Held for redemption until the stored hold end has passed (the sweep makes it
    available, IMP-04); closed by the owner's redemption (IMP-07) or by a person's
    disposition, before the hold ends only with a recorded override (IMP-09).
    """

    EVENT_PREFIX = "impound.case"
    TRANSITIONS = (
        Transition(
            "make_available",
            CaseStatus.HELD,
            CaseStatus.AVAILABLE,
            event="impound.case.available",
            rule="IMP-04",
        ),
        Transition(
            "redeem",
            OPEN_STATUSES,
            CaseStatus.REDEEMED,
            event="impound.case.redeemed",
            rule="IMP-07",
        ),
        Transition(
            "dispose", OPEN_STATUSES, DISPOSED_STATUSES, event="impound.case.{to}", rule="IMP-09"
        ),
    )

    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.PROTECT, related_name="impound_cases"
    )
    number = models.CharField(_("case number"), max_length=20)
    pound = models.ForeignKey(Pound, on_delete=models.PROTECT, related_name="cases")
    kennel = models.CharField(_("kennel or run"), max_length=40, blank=True)
    status = models.CharField(
        _("status"), max_length=12, choices=CaseStatus.choices, default=CaseStatus.HELD
    )

    # Why (IMP-01): the profile's ground code, its label and section as at intake.
    ground = models.SlugField(_("ground for impounding"), max_length=60)
    ground_label = models.CharField(_("ground"), max_length=200)
    ground_citation = models.CharField(_("section"), max_length=200)

    # When and where (IMP-03, Subd. 13): the time of placement is never changed.
    placed_at = models.DateTimeField(_("placed in the pound at"))
    seized_on = models.DateField(_("date seized"))
    seized_where = models.CharField(_("where seized"), max_length=200)
    # What the public pages (found animals, the public record) say about where: a block
    # or street, never an address that identifies a finder; empty shows only the city.
    found_area = models.CharField(
        _("found near (public)"),
        max_length=120,
        blank=True,
        help_text=_(
            "A block or street for the public found-animals page, such as "
            '"300 block of Main St". Never the finder\'s address. Leave blank to show '
            "only the city."
        ),
    )
    brought_by_name = models.CharField(_("received from (name)"), max_length=160, blank=True)
    brought_by_address = models.CharField(_("received from (address)"), max_length=300, blank=True)
    officer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("recorded by"),
    )

    # The animal as described at intake (Subd. 13 item 1; C12 fields).
    species = models.CharField(_("species"), max_length=10, choices=Species.choices)
    breed = models.CharField(_("breed"), max_length=80, blank=True)
    sex = models.CharField(_("sex"), max_length=8, choices=Sex.choices, default=Sex.UNKNOWN)
    sterilized = models.CharField(
        _("spayed or neutered"),
        max_length=8,
        choices=Sterilized.choices,
        default=Sterilized.UNKNOWN,
    )
    color = models.CharField(_("color"), max_length=80)
    approximate_age_months = models.PositiveSmallIntegerField(_("approximate age (months)"))
    distinguishing_traits = models.TextField(_("other distinguishing traits"), blank=True)
    photo = models.ImageField(_("photo"), upload_to="impound/%Y/", blank=True)
    tag_present = models.BooleanField(_("identification tag present"), default=False)
    tag_text = models.CharField(_("what the tag says"), max_length=200, blank=True)
    microchip = models.CharField(_("microchip number"), max_length=20, blank=True)
    licensed = models.BooleanField(
        _("licensed"), null=True, blank=True, help_text=_("Recorded at redemption (G1).")
    )
    no_research = models.BooleanField(
        _("not to be used for research"),
        default=False,
        help_text=_("From a tag or an owner's statement after seizure (C14)."),
    )
    no_research_source = models.CharField(_("no-research source"), max_length=200, blank=True)

    # The owner, once known: the registry's animal (and through it, its owner).
    animal = models.ForeignKey(
        Animal,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="impound_cases",
    )
    owner_identified_at = models.DateTimeField(null=True, blank=True)

    # The hold (IMP-04, MN-02): stored at intake with its basis, never recomputed.
    hold_key = models.CharField(_("hold rule"), max_length=80)
    hold_starts_on = models.DateField(_("hold counted from"))
    hold_ends_on = models.DateField(_("hold ends"))
    hold_citation = models.CharField(_("hold section"), max_length=300)
    hold_basis = models.TextField(_("how the hold end was found"), blank=True)
    available_on = models.DateField(_("available for disposition from"), null=True, blank=True)

    # Where it went (Subd. 13 item 5: to whom an animal three months or older went).
    transferred_to_name = models.CharField(_("transferred to (name)"), max_length=160, blank=True)
    transferred_to_address = models.CharField(
        _("transferred to (address)"), max_length=300, blank=True
    )

    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["-placed_at", "-pk"]
        verbose_name = _("impound case")
        constraints = [
            models.UniqueConstraint(fields=["jurisdiction", "number"], name="case_number_unique"),
            models.CheckConstraint(
                condition=Q(hold_ends_on__gte=models.F("hold_starts_on")),
                name="case_hold_after_start",
            ),
        ]
        indexes = [
            models.Index(fields=["jurisdiction", "status", "hold_ends_on"], name="case_board_idx"),
            models.Index(fields=["jurisdiction", "placed_at"], name="case_placed_idx"),
        ]

    def __str__(self):
        return f"{__('Impound case')} {self.number}"

    def get_absolute_url(self):
        return reverse("impound:case_detail", args=[self.pk])

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES

    @property
    def hold_running(self) -> bool:
        """Still held for redemption: a disposition now overrides the hold (IMP-04)."""
        return self.status == CaseStatus.HELD

    @property
    def owner(self) -> Owner | None:
        return self.animal.owner if self.animal_id else None

    def days_held(self, on: date) -> int:
        """Calendar days from placement to ``on`` (or to closing), at least one."""
        end = self.closed_on or on
        return max((end - timezone.localtime(self.placed_at).date()).days, 1)

    def description(self) -> str:
        parts = [self.color, self.breed or self.get_species_display()]
        return " ".join(p for p in parts if p)

    # --- Transitions (TRANSITIONS above) ---------------------------------------------

    def make_available(self, *, on: date, at, actor=None, data=None) -> None:
        """Held -> available for disposition: the stored hold end has passed (IMP-04)."""
        self.ensure("make_available")
        self.available_on = on
        self.apply(
            "make_available",
            actor=actor,
            at=at,
            summary=__("Hold ended %(d)s; available for disposition")
            % {"d": date_format(self.hold_ends_on)},
            data=data,
            fields=["available_on"],
        )

    def close(
        self, status, *, on: date, at, actor, note: str, to_name="", to_address="", data=None
    ) -> None:
        """Held or available -> redeemed (IMP-07) or a disposition (adopted, euthanized,
        ..., IMP-09), with the closing date, note and to whom the animal went."""
        name = "redeem" if status == CaseStatus.REDEEMED else "dispose"
        self.ensure(name, to=status)
        self.transferred_to_name = to_name or self.transferred_to_name
        self.transferred_to_address = to_address or self.transferred_to_address
        self.closed_on, self.closing_note = on, note[:300]
        self.apply(
            name,
            to=status,
            actor=actor,
            at=at,
            summary=note,
            data=data,
            fields=["transferred_to_name", "transferred_to_address", "closed_on", "closing_note"],
        )


class GateKind(models.TextChoices):
    COURT_AUTHORIZATION = "court", _("Court authorization of redemption")
    HUMANE_DESTRUCTION = "humane", _("Judgement of humane destruction")
    LICENSE = "license", _("License issued before release")
    IMMUNIZATION = "immunization", _("Rabies immunization before release")
    RELEASE_ORDER = "release", _("Release by the responsible authority")


def court_order_path(gate, filename):
    return f"impound/court-orders/{gate.case.jurisdiction.slug}/{filename}"


class CaseGate(Kept):
    """Something that must be cleared before the owner may redeem (IMP-07, IMP-08).

    A Sec. 6-75 dog at large waits for a court's authorization; a dog judged for humane
    destruction is never redeemable (``clearable`` False). Later apps open their own
    gates (a quarantine's release). Each gate carries its section and, once cleared,
    the record that cleared it: the uploaded order, who recorded it and when.
    """

    case = models.ForeignKey(ImpoundCase, on_delete=models.PROTECT, related_name="gates")
    kind = models.CharField(_("gate"), max_length=14, choices=GateKind.choices)
    label = models.CharField(_("what must happen"), max_length=200)
    citation = models.CharField(_("section"), max_length=200)
    clearable = models.BooleanField(default=True)
    opened_at = models.DateTimeField(_("opened at"))
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    cleared_at = models.DateTimeField(_("cleared at"), null=True, blank=True)
    cleared_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    clearing_record = models.CharField(
        _("cleared by (record)"),
        max_length=300,
        blank=True,
        help_text=_("The court, order number and date; the license or vaccination."),
    )
    clearing_document = models.FileField(
        _("order or certificate"), upload_to=court_order_path, blank=True, max_length=300
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["opened_at", "pk"]
        verbose_name = _("redemption gate")

    def __str__(self):
        return self.label

    @property
    def is_open(self) -> bool:
        return self.cleared_at is None


class Redemption(Kept):
    """The owner took the animal back (C15): what was paid, under which conditions."""

    case = models.OneToOneField(ImpoundCase, on_delete=models.PROTECT, related_name="redemption")
    owner = models.ForeignKey(Owner, on_delete=models.PROTECT, related_name="redemptions")
    redeemed_at = models.DateTimeField(_("redeemed at"))
    receipt = models.OneToOneField(
        Receipt, on_delete=models.PROTECT, related_name="redemption", null=True, blank=True
    )
    licensed = models.BooleanField(_("licensed when redeemed"))
    resident = models.BooleanField(_("owner is a resident"))
    days_charged = models.PositiveSmallIntegerField(_("days of care charged"))
    license = models.ForeignKey(
        License, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    immunization = models.ForeignKey(
        RabiesVaccination, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("redemption")

    def __str__(self):
        return f"{self.case} redeemed {self.redeemed_at:%Y-%m-%d}"


# Sterilization agreements, and lost-pet reports with their matches, in their own modules.
from .models_lost import (  # noqa: E402, F401
    ACTIVE_LOST_STATUSES,
    ContactPreference,
    LostMatch,
    LostReport,
    LostStatus,
)
from .models_sterilization import (  # noqa: E402, F401
    OPEN_AGREEMENT_STATUSES,
    AgreementStatus,
    DepositStatus,
    SterilizationAgreement,
    certificate_path,
)
