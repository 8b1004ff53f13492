"""The registry every other app reads: owners, premises, animals, ownership, vaccinations.

Every row belongs to a jurisdiction (architecture.md): lists are scoped to the cities a
user serves. Field history of every model is kept by django-simple-history.
"""

import re
from datetime import date

from dateutil.relativedelta import relativedelta
from django.conf import settings
from django.db import models
from django.db.models.functions import Lower, Upper
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from kernel.kept import CityQuerySet, Kept
from kernel.models import StatefulRecord, Transition
from ordinance.models import Jurisdiction
from ordinance.refusals import Refused

from .search import SEARCHED_FIELDS, OwnerSearch


class Species(models.TextChoices):
    DOG = "dog", _("Dog")
    CAT = "cat", _("Cat")
    FERRET = "ferret", _("Ferret")
    OTHER = "other", _("Other pet")


class Sex(models.TextChoices):
    MALE = "male", _("Male")
    FEMALE = "female", _("Female")
    UNKNOWN = "unknown", _("Unknown")


class AnimalStatus(models.TextChoices):
    ALIVE = "alive", _("Alive")
    DECEASED = "deceased", _("Deceased")
    TRANSFERRED_OUT = "transferred_out", _("Moved or transferred out")


def phone_digits(phone: str) -> str:
    """The digits of a phone number, what the search compares (Owner.phone_digits)."""
    return re.sub(r"\D", "", phone or "")


class Owner(models.Model):
    class Kind(models.TextChoices):
        PERSON = "person", _("Person")
        ORGANIZATION = "organization", _("Organization")

    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="owners")
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices, default=Kind.PERSON)
    first_name = models.CharField(_("first name"), max_length=80, blank=True)
    last_name = models.CharField(_("last name"), max_length=80, blank=True)
    organization_name = models.CharField(_("organization name"), max_length=160, blank=True)
    address_line = models.CharField(_("street address"), max_length=160)
    unit = models.CharField(_("apartment or unit"), max_length=40, blank=True)
    city = models.CharField(_("city"), max_length=80)
    state = models.CharField(_("state"), max_length=2, default="MN")
    postal_code = models.CharField(_("ZIP code"), max_length=10)
    phone = models.CharField(_("phone"), max_length=30, blank=True)
    # The phone's digits only ("(651) 555-0147" -> "6515550147"), kept in step by save():
    # the search box matches a caller's number here, by a trigram index on PostgreSQL.
    phone_digits = models.CharField(max_length=30, blank=True, editable=False)
    email = models.EmailField(_("e-mail"), blank=True)
    is_resident = models.BooleanField(
        _("resident of the city"),
        default=True,
        help_text=_("Nonresidents' confined dogs are exempt from licensing (NB Sec. 6-96(4)(b))."),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="owner_records",
        verbose_name=_("online account"),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # A duplicate record merged into another owner of the same city: kept (nothing is
    # lost, receipts keep the payer they were issued to), no longer used for new work.
    merged_into = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="merged_owners",
        verbose_name=_("merged into"),
    )

    history = HistoricalRecords()
    objects = CityQuerySet.as_manager()

    class Meta:
        ordering = ["last_name", "first_name", "organization_name"]
        indexes = [
            models.Index(Lower("last_name"), "jurisdiction", name="owner_last_name_idx"),
            models.Index(fields=["phone"], name="owner_phone_idx"),
        ]

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        self.fill_derived()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "phone" in update_fields:
            kwargs["update_fields"] = {*update_fields, "phone_digits"}
        super().save(*args, **kwargs)
        # The search box's copy of the names and address.
        if update_fields is None or SEARCHED_FIELDS.intersection(update_fields):
            OwnerSearch.objects.using(self._state.db).refresh([self.pk])

    def get_absolute_url(self):
        return reverse("licensing:owner_detail", args=[self.pk])

    def fill_derived(self) -> None:
        """What is kept from other fields for search (a bulk insert calls it itself)."""
        self.phone_digits = phone_digits(self.phone)

    @classmethod
    def bulk_created(cls, owners) -> None:
        """What ``save`` does after writing, for owners written by ``bulk_create``: the
        search box's copy of their names and address."""
        OwnerSearch.objects.refresh([o.pk for o in owners])

    @property
    def name(self) -> str:
        if self.kind == self.Kind.ORGANIZATION:
            return self.organization_name
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def address(self) -> str:
        unit = f" {self.unit}" if self.unit else ""
        return f"{self.address_line}{unit}, {self.city}, {self.state} {self.postal_code}"


class Premises(models.Model):
    """An address or lot: the household unit whose animal count the limits apply to."""

    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.PROTECT, related_name="premises"
    )
    address_line = models.CharField(_("street address"), max_length=160)
    unit = models.CharField(_("apartment or unit"), max_length=40, blank=True)
    city = models.CharField(_("city"), max_length=80)
    state = models.CharField(_("state"), max_length=2, default="MN")
    postal_code = models.CharField(_("ZIP code"), max_length=10)
    parcel_id = models.CharField(_("parcel ID"), max_length=40, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()
    objects = CityQuerySet.as_manager()

    class Meta:
        verbose_name_plural = _("premises")
        ordering = ["address_line", "unit"]
        constraints = [
            models.UniqueConstraint(
                "jurisdiction",
                Lower("address_line"),
                Lower("unit"),
                name="premises_unique_address_per_city",
            ),
        ]

    def __str__(self):
        return self.address

    @property
    def address(self) -> str:
        unit = f" {self.unit}" if self.unit else ""
        return f"{self.address_line}{unit}, {self.city}, {self.state} {self.postal_code}"


class Animal(StatefulRecord, Kept):
    """An animal of the registry; it leaves the living by one of its transitions (the
    services close its licenses), and is never deleted."""

    TRANSITIONS = (
        Transition(
            "die", AnimalStatus.ALIVE, AnimalStatus.DECEASED, event="licensing.animal.deceased"
        ),
        Transition(
            "move_out",
            AnimalStatus.ALIVE,
            AnimalStatus.TRANSFERRED_OUT,
            event="licensing.animal.moved_out",
        ),
    )

    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="animals")
    species = models.CharField(_("species"), max_length=10, choices=Species.choices)
    # The row of the city's species table (ordinance.species; Glencoe 701 Subd. 1(R)):
    # "" where the city has none, or for an animal registered before it had one.
    kind = models.CharField(_("kind (species table)"), max_length=40, blank=True)
    name = models.CharField(_("name"), max_length=80)
    breed = models.CharField(_("breed"), max_length=80, blank=True)
    color = models.CharField(_("color"), max_length=80, blank=True)
    sex = models.CharField(_("sex"), max_length=8, choices=Sex.choices, default=Sex.UNKNOWN)
    sterilized = models.BooleanField(_("spayed or neutered"), default=False)
    date_of_birth = models.DateField(_("date of birth"), null=True, blank=True)
    dob_is_estimate = models.BooleanField(
        _("date of birth is an estimate"),
        default=False,
        help_text=_("Tick when only the approximate age is known."),
    )
    microchip = models.CharField(_("microchip number"), max_length=20, blank=True, db_index=True)
    distinguishing_traits = models.TextField(_("distinguishing traits"), blank=True)
    photo = models.ImageField(_("photo"), upload_to="animals/%Y/", blank=True)
    owner = models.ForeignKey(Owner, on_delete=models.PROTECT, related_name="animals")
    premises = models.ForeignKey(
        Premises, null=True, blank=True, on_delete=models.PROTECT, related_name="animals"
    )
    acquired_on = models.DateField(
        _("date acquired"),
        null=True,
        blank=True,
        help_text=_(
            "Starts the application window for a license, where the city licenses the animal."
        ),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=AnimalStatus.choices, default=AnimalStatus.ALIVE
    )
    status_changed_on = models.DateField(null=True, blank=True)
    is_service_animal = models.BooleanField(_("service or guide animal"), default=False)
    is_law_enforcement = models.BooleanField(_("law-enforcement animal"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        indexes = [
            models.Index(Lower("name"), "jurisdiction", name="animal_name_idx"),
            models.Index(fields=["premises", "species", "status"], name="animal_premises_idx"),
        ]

    def __str__(self):
        return f"{self.name} ({self.get_species_display().lower()})"

    def get_absolute_url(self):
        return reverse("licensing:animal_detail", args=[self.pk])

    def age_in_months(self, on: date) -> int | None:
        """Whole calendar months of age on a date (DEF-01: calendar months, not 30-day blocks)."""
        if self.date_of_birth is None:
            return None
        delta = relativedelta(on, self.date_of_birth)
        return delta.years * 12 + delta.months

    def is_alive(self) -> bool:
        return self.status == AnimalStatus.ALIVE

    # --- Transitions (TRANSITIONS; style.md "State, time and jobs"; rules.md REC-18) --

    def mark_deceased(self, *, actor, on: date, note: str = "", at=None) -> None:
        """Alive -> deceased on ``on``; its licenses are closed by the licensing services."""
        self._leave_alive(
            "die",
            on=on,
            actor=actor,
            note=note or "Reported deceased",
            at=at,
            summary=f"{self} reported deceased on {on:%Y-%m-%d}",
            data={"died_on": on.isoformat(), "note": note},
        )

    def mark_moved_out(self, *, actor, on: date, note: str = "", at=None) -> None:
        """Alive -> moved or transferred out of the city on ``on`` (LIC-11)."""
        self._leave_alive(
            "move_out",
            on=on,
            actor=actor,
            note=note or "Moved out",
            at=at,
            summary=f"{self} moved out on {on:%Y-%m-%d}",
            data={"on": on.isoformat(), "note": note},
        )

    def _leave_alive(self, name, *, on, actor, note, **event) -> None:
        self.ensure(name)
        self.status_changed_on = on
        self._history_user, self._change_reason = actor, note  # read by simple-history
        self.apply(name, actor=actor, fields=["status_changed_on"], **event)

    def refuse(self, t, to, citation=None, field=""):
        """Leaving alive twice: the record already says what became of the animal."""
        return Refused.because(
            _("Animal"),
            gettext("%(animal)s is already recorded as %(status)s.")
            % {"animal": self.name, "status": self.get_status_display().lower()},
            "",  # REC-18 (the audit trail): no section of the ordinance sets it
            field=field,
        )


class Ownership(models.Model):
    """Who owned an animal when, so transfers are traceable."""

    animal = models.ForeignKey(Animal, on_delete=models.PROTECT, related_name="ownerships")
    owner = models.ForeignKey(Owner, on_delete=models.PROTECT, related_name="ownerships")
    premises = models.ForeignKey(
        Premises, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    started_on = models.DateField(_("from"))
    ended_on = models.DateField(_("to"), null=True, blank=True)
    note = models.CharField(_("note"), max_length=200, blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["-started_on", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["animal"],
                condition=models.Q(ended_on__isnull=True),
                name="one_current_ownership_per_animal",
            ),
        ]

    def __str__(self):
        return f"{self.owner} since {self.started_on}"


class RabiesVaccination(models.Model):
    """The fields of the standard rabies vaccination certificate (NASPHV Form 51)."""

    class Duration(models.IntegerChoices):
        ONE_YEAR = 1, _("1 year")
        THREE_YEARS = 3, _("3 years")

    animal = models.ForeignKey(Animal, on_delete=models.PROTECT, related_name="vaccinations")
    vaccinated_on = models.DateField(_("date vaccinated"))
    duration_years = models.PositiveSmallIntegerField(
        _("vaccine duration"), choices=Duration.choices, default=Duration.ONE_YEAR
    )
    next_due_on = models.DateField(_("next vaccination due"), null=True, blank=True)
    manufacturer = models.CharField(_("vaccine manufacturer"), max_length=80, blank=True)
    product = models.CharField(_("vaccine product"), max_length=80, blank=True)
    lot_number = models.CharField(_("lot number"), max_length=40, blank=True)
    lot_expires_on = models.DateField(_("lot expiration"), null=True, blank=True)
    rabies_tag_number = models.CharField(
        _("rabies tag number"), max_length=30, blank=True, db_index=True
    )
    veterinarian_name = models.CharField(_("veterinarian"), max_length=120)
    veterinarian_license = models.CharField(_("veterinarian license number"), max_length=40)
    clinic_name = models.CharField(_("clinic"), max_length=120, blank=True)
    clinic_address = models.CharField(_("clinic address"), max_length=200, blank=True)
    certificate = models.FileField(_("certificate file"), upload_to="certificates/%Y/", blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["-vaccinated_on", "-pk"]
        indexes = [
            models.Index(fields=["animal", "-vaccinated_on"], name="vacc_animal_date_idx"),
            # The search box's rabies-tag lookup compares UPPER(tag) = UPPER(query).
            models.Index(Upper("rabies_tag_number"), name="vacc_rabies_tag_upper_idx"),
        ]

    def __str__(self):
        return f"Rabies vaccination {self.vaccinated_on:%Y-%m-%d} ({self.duration_years} yr)"
