"""Complaints: what a caller, an officer or (later) a resident reports, the facts the
ordinance tests, the officer's entries onto premises and the outcome.

Rules: RES-01..05, RES-09, RES-13, RES-14 (rules.md). Every row belongs to a
jurisdiction; field history is kept by django-simple-history and each named step records
an ``ordinance.Event`` (style.md "State, time and jobs"). A complaint is a case of the
case kernel: it is closed by its outcome, the one transition it declares. Complaints
are kept: a wrong one is closed with a reason, never deleted.
"""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext as __
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from impound.models import ImpoundCase
from kernel.kept import Kept
from kernel.models import CaseRecord, Transition
from licensing.models import Animal, Owner, Premises
from ordinance.models import Jurisdiction


class Kind(models.TextChoices):
    RUNNING_AT_LARGE = "running_at_large", _("Running at large")
    RESTRAINT = "restraint", _("Restraint")
    BARKING = "barking", _("Barking")
    LITTER = "litter", _("Litter (feces)")
    CRUELTY = "cruelty", _("Cruelty or neglect")
    ABANDONMENT = "abandonment", _("Abandonment")
    INTERFERENCE = "interference", _("Interference with an officer")
    WILD_ANIMAL = "wild_animal", _("Wild animal")
    BITE = "bite", _("Bite")
    DANGEROUS_DOG = "dangerous_dog", _("Possible dangerous dog")


# The kinds whose facts are the restraint facts (RES-01..03) and whose outcome is
# governed by the at-large rules (RES-04).
AT_LARGE_KINDS = frozenset({Kind.RUNNING_AT_LARGE, Kind.RESTRAINT})


class Channel(models.TextChoices):
    COUNTER = "counter", _("Phone or counter (clerk)")
    FIELD = "field", _("In the field (officer)")
    ONLINE = "online", _("Online (resident)")


class Status(models.TextChoices):
    OPEN = "open", _("Open")
    CLOSED = "closed", _("Closed")


class Outcome(models.TextChoices):
    NONE = "none", _("No action")
    WARNING = "warning", _("Warning")
    CITATION = "citation", _("Citation")
    IMPOUNDMENT = "impoundment", _("Impoundment")


class Complaint(CaseRecord):
    """A complaint, open until the officer records its outcome (RES-04), which closes it."""

    EVENT_PREFIX = "complaints.complaint"
    KEPT_HINT = _("Close a mistaken one with its reason.")
    TRANSITIONS = (
        Transition(
            "close", Status.OPEN, Status.CLOSED, event="complaints.complaint.outcome", rule="RES-04"
        ),
    )

    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.PROTECT, related_name="complaints"
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    channel = models.CharField(_("taken"), max_length=10, choices=Channel.choices)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    # Where: the address as given, and its normalized form that repeat complaints match on.
    address_line = models.CharField(_("street address"), max_length=160)
    unit = models.CharField(_("apartment or unit"), max_length=40, blank=True)
    address_key = models.CharField(max_length=200, editable=False, db_index=True)
    location_note = models.CharField(
        _("where exactly"),
        max_length=200,
        blank=True,
        help_text=_("For example “in the park across the street” or “back yard”."),
    )
    premises = models.ForeignKey(
        Premises,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="complaints",
        verbose_name=_("premises in the registry"),
    )
    occurred_at = models.DateTimeField(_("happened at"))
    received_at = models.DateTimeField(_("received at"))
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("taken by"),
    )
    # The complainant: identified (name, phone, address) or anonymous.
    anonymous = models.BooleanField(_("anonymous complainant"), default=False)
    complainant_name = models.CharField(_("complainant's name"), max_length=160, blank=True)
    complainant_phone = models.CharField(_("complainant's phone"), max_length=30, blank=True)
    complainant_address = models.CharField(_("complainant's address"), max_length=200, blank=True)
    animal = models.ForeignKey(
        Animal,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="complaints",
        verbose_name=_("animal"),
    )
    owner = models.ForeignKey(
        Owner,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="complaints",
        verbose_name=_("owner"),
    )
    animal_description = models.CharField(_("animal as described"), max_length=200, blank=True)
    narrative = models.TextField(_("what happened"))
    follow_up_on = models.DateField(_("follow up on"), null=True, blank=True)
    # The outcome the officer decided (RES-04); a citation is linked by the citations app.
    outcome = models.CharField(_("outcome"), max_length=12, choices=Outcome.choices, blank=True)
    outcome_reason = models.TextField(_("reason for the outcome"), blank=True)
    outcome_citation = models.CharField(_("section"), max_length=200, blank=True)
    outcome_at = models.DateTimeField(null=True, blank=True)
    outcome_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    impound_case = models.ForeignKey(
        ImpoundCase,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("impound case"),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["-received_at", "-pk"]
        indexes = [
            # The repeat-address list at intake: same city, same normalized address.
            models.Index(fields=["jurisdiction", "address_key"], name="complaint_address_idx"),
            models.Index(fields=["jurisdiction", "status", "kind"], name="complaint_status_idx"),
        ]

    def __str__(self):
        return __("Complaint %(pk)s: %(kind)s at %(address)s") % {
            "pk": self.pk,
            "kind": self.get_kind_display(),
            "address": self.address,
        }

    def get_absolute_url(self):
        return reverse("complaints:detail", args=[self.pk])

    @property
    def address(self) -> str:
        return f"{self.address_line} {self.unit}".strip()

    @property
    def is_open(self) -> bool:
        """Open while its outcome may still close it (the transition table says when)."""
        return self.may("close")

    @property
    def complainant_label(self) -> str:
        return __("Anonymous") if self.anonymous else self.complainant_name


class Location(models.TextChoices):
    """Where the dog was (RES-01's location types)."""

    OWN_PREMISES = "own_premises", _("Owner's own premises")
    FENCED = "fenced", _("Fenced yard")
    UNFENCED_LOT = "unfenced_lot", _("Unfenced lot")
    STREET = "street", _("Street or sidewalk")
    ALLEY = "alley", _("Alley")
    PARK = "park", _("Park")
    SCHOOL_GROUNDS = "school_grounds", _("School grounds")
    PUBLIC_PLACE = "public_place", _("Other public place")
    OTHER_PRIVATE = "other_private", _("Someone else's private land")
    VEHICLE = "vehicle", _("In a vehicle")


class Restraint(models.TextChoices):
    """How the dog was restrained."""

    NONE = "none", _("Not restrained")
    LEASH_HELD = "leash_held", _("Leash held by a person")
    LEASH_TIED = "leash_tied", _("Leash or chain tied to a fixed object")
    ELECTRONIC = "electronic", _("Electronic collar")
    VOICE = "voice", _("Voice control only")
    ENCLOSED = "enclosed", _("Inside a fence, building or enclosure")
    VEHICLE = "vehicle", _("Confined in a vehicle")


class RestraintFacts(models.Model):
    """RES-01..03: what the officer saw; the reading is computed, never stored."""

    complaint = models.OneToOneField(
        Complaint, on_delete=models.PROTECT, related_name="restraint_facts"
    )
    location = models.CharField(_("where the dog was"), max_length=20, choices=Location.choices)
    restraint = models.CharField(_("how restrained"), max_length=12, choices=Restraint.choices)
    leash_length_ft = models.PositiveSmallIntegerField(
        _("leash length (feet)"), null=True, blank=True
    )
    nearest_ft = models.PositiveSmallIntegerField(
        _("nearest person or animal (feet)"), null=True, blank=True
    )
    handler_present = models.BooleanField(_("a person was with the dog"), default=False)
    handler_capable = models.BooleanField(
        _("that person could control the dog (of suitable age and discretion)"), default=False
    )
    obedient = models.BooleanField(
        _("the dog obeyed that person's commands at once"), default=False
    )
    show_or_hunting = models.BooleanField(
        _("at a scheduled dog show, obedience trial, or legally hunting"), default=False
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField()

    history = HistoricalRecords()

    def __str__(self):
        return __("Restraint facts of complaint %(pk)s") % {"pk": self.complaint_id}


class BarkingPattern(models.TextChoices):
    CONTINUOUS = "continuous", _("Continuous")
    INTERMITTENT = "intermittent", _("Intermittent")


class BarkingFacts(models.Model):
    """RES-05: start and end, continuous or intermittent, distance, exceptions."""

    complaint = models.OneToOneField(
        Complaint, on_delete=models.PROTECT, related_name="barking_facts"
    )
    started_at = models.DateTimeField(_("barking started"))
    ended_at = models.DateTimeField(_("barking ended"))
    pattern = models.CharField(_("pattern"), max_length=12, choices=BarkingPattern.choices)
    distance_ft = models.PositiveIntegerField(
        _("heard from (feet from the premises)"), null=True, blank=True
    )
    audible_off_premises = models.BooleanField(_("heard off the premises"), default=False)
    heard_by_officer = models.BooleanField(_("the officer heard it too"), default=False)
    at_night = models.BooleanField(_("at night"), default=False)
    harassment = models.BooleanField(_("the dog was being harassed"), default=False)
    injury = models.BooleanField(_("the dog was injured"), default=False)
    trespass = models.BooleanField(_("someone was trespassing on the premises"), default=False)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField()

    history = HistoricalRecords()

    def __str__(self):
        return __("Barking facts of complaint %(pk)s") % {"pk": self.complaint_id}

    @property
    def minutes(self) -> int:
        return int((self.ended_at - self.started_at).total_seconds() // 60)


class LitterPlace(models.TextChoices):
    OWN_PROPERTY = "own_property", _("The owner's own property")
    SIDEWALK_OR_STREET = "sidewalk_or_street", _("Sidewalk or street")
    PARK = "park", _("Park")
    SCHOOL = "school", _("School")
    PUBLIC_PLACE = "public_place", _("Other public place")
    OTHER_PRIVATE = "other_private", _("Someone else's private property")


class LitterFacts(models.Model):
    """RES-09: where, whether it was cleaned up, and (Glencoe) removal materials."""

    complaint = models.OneToOneField(
        Complaint, on_delete=models.PROTECT, related_name="litter_facts"
    )
    place = models.CharField(_("where"), max_length=20, choices=LitterPlace.choices)
    cleaned_up = models.BooleanField(_("the feces were cleaned up"), default=False)
    carrying_materials = models.BooleanField(
        _("the custodian carried removal materials (bag, paper towels)"), null=True, blank=True
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField()

    history = HistoricalRecords()

    def __str__(self):
        return __("Litter facts of complaint %(pk)s") % {"pk": self.complaint_id}


class CareFacts(models.Model):
    """RES-13: what the officer found of a dog's care (Glencoe 701 Subds. 9-11). Each
    observation may be left unknown; the reading names what the ordinance asks of each."""

    complaint = models.OneToOneField(Complaint, on_delete=models.PROTECT, related_name="care_facts")
    kept_outdoors = models.BooleanField(
        _("the dog is kept outdoors or in an unheated enclosure"), null=True, blank=True
    )
    shelter_and_bedding = models.BooleanField(
        _("it has shelter and bedding"), null=True, blank=True
    )
    enclosure_soiled = models.BooleanField(
        _("feces, urine or food scraps are left in its enclosure too long"),
        null=True,
        blank=True,
    )
    food_and_water = models.BooleanField(
        _("it has sufficient good and wholesome food and water"), null=True, blank=True
    )
    weather_protection = models.BooleanField(
        _("it has proper shelter and protection from the weather"), null=True, blank=True
    )
    veterinary_care = models.BooleanField(
        _("it needs veterinary care to prevent suffering and is not getting it"),
        null=True,
        blank=True,
    )
    abused = models.BooleanField(
        _("it was beaten, treated cruelly, tormented or otherwise abused"), null=True, blank=True
    )
    fight = models.BooleanField(
        _("someone caused or permitted a dog or cat fight"), null=True, blank=True
    )
    in_vehicle = models.BooleanField(
        _("the dog was left in a motor vehicle"), null=True, blank=True
    )
    observations = models.TextField(_("what the officer saw"), blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField()

    history = HistoricalRecords()

    def __str__(self):
        return __("Care facts of complaint %(pk)s") % {"pk": self.complaint_id}


class Entry(Kept):
    """An entry onto premises or an inspection, with its legal basis (RES-14)."""

    complaint = models.ForeignKey(Complaint, on_delete=models.PROTECT, related_name="entries")
    entered_at = models.DateTimeField(_("entered at"))
    officer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    basis = models.CharField(_("legal basis"), max_length=60)
    basis_label = models.CharField(max_length=300)  # as the profile worded it then
    basis_citation = models.CharField(max_length=200)
    findings = models.TextField(_("what was found"))
    recorded_at = models.DateTimeField()

    history = HistoricalRecords()

    class Meta:
        ordering = ["entered_at", "pk"]
        verbose_name_plural = _("entries")

    def __str__(self):
        return f"{self.entered_at:%Y-%m-%d %H:%M} {self.basis_citation}"


# The barking-dog seizure (Glencoe 701 Subd. 5) keeps its models in their own module.
from .seizure_models import BarkingSeizure, ContactAttempt  # noqa: E402, F401
