"""The rulebook's own tables: jurisdictions and the append-only event log.

The ordinance profile values, fee schedule and calendar live beside these (see
``ordinance/profiles``); every other app reads rules through ``ordinance`` and never
writes a number of days or dollars itself (architecture.md, "Rules as data").
"""

from datetime import time

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

# A city's own early opening of next-term sales is at most half a year ahead: beyond
# that the "next" term would be the one after.
NEXT_TERM_SALES_MAX_DAYS = 180


class Jurisdiction(models.Model):
    """A city whose animal ordinance this installation administers."""

    slug = models.SlugField(unique=True)
    name = models.CharField(_("name"), max_length=120, help_text=_("As printed on documents."))
    short_name = models.CharField(_("short name"), max_length=60)
    state = models.CharField(
        _("state"), max_length=2, default="MN", help_text=_("Whose legal holidays apply.")
    )
    profile_key = models.SlugField(
        _("ordinance profile"), help_text=_("The profile data file this city adopted.")
    )
    seal_text = models.CharField(_("seal text"), max_length=200, blank=True)
    address = models.TextField(_("city hall address"), blank=True)
    phone = models.CharField(_("phone"), max_length=40, blank=True)
    office_closes_at = models.TimeField(
        _("closing time of city hall"),
        default=time(16, 30),
        help_text=_("The hour printed on a notice's claim-by date (Glencoe Subd. 14)."),
    )
    # City policy, not ordinance: a city may sell next-term licenses earlier
    # than its ordinance's application window (NB Sec. 6-65(c): 30 days before the term).
    next_term_sales_days_before = models.PositiveSmallIntegerField(
        _("sell next-term licenses from (days before the term)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(NEXT_TERM_SALES_MAX_DAYS)],
        help_text=_(
            "City policy: start selling licenses for the next term this many days before "
            "it starts, earlier than the ordinance's application window. Leave empty to "
            "follow the ordinance. A value inside the ordinance's window changes nothing."
        ),
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name


class EventQuerySet(models.QuerySet):
    def for_object(self, obj):
        ct = ContentType.objects.get_for_model(obj, for_concrete_model=False)
        return self.filter(subject_type=ct, subject_id=str(obj.pk))


class Event(models.Model):
    """Something that happened to a record: who, when, what, and on which basis.

    Append-only (rules.md REC-18): rows are never updated or deleted. Field-level history
    of every model is kept separately by django-simple-history; this log records the
    named transitions (``licensing.license.expired``) and what the sweeps did.
    """

    at = models.DateTimeField(default=timezone.now, db_index=True)
    action = models.CharField(max_length=100, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    jurisdiction = models.ForeignKey(
        Jurisdiction, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    subject_type = models.ForeignKey(ContentType, null=True, on_delete=models.PROTECT)
    subject_id = models.CharField(max_length=40, blank=True)
    summary = models.CharField(max_length=300, blank=True)
    data = models.JSONField(default=dict, blank=True)

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["subject_type", "subject_id"], name="event_subject_idx")]

    def __str__(self):
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}"

    def save(self, *args, **kwargs):
        if self.pk is not None and not self._state.adding:
            raise RuntimeError("Events are append-only and cannot be changed.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise RuntimeError("Events are append-only and cannot be deleted.")

    @classmethod
    def record(
        cls, action, subject=None, *, actor=None, jurisdiction=None, summary="", data=None, at=None
    ):
        event = cls(
            action=action,
            actor=actor,
            jurisdiction=jurisdiction,
            summary=summary[:300],
            data=data or {},
            at=at or timezone.now(),
        )
        if subject is not None:
            event.subject_type = ContentType.objects.get_for_model(
                subject, for_concrete_model=False
            )
            event.subject_id = str(subject.pk)
            if jurisdiction is None and getattr(subject, "jurisdiction_id", None):
                event.jurisdiction_id = subject.jurisdiction_id
        event.save()
        return event


class EndedNotDeleted(Exception):
    """A rule value or fee row is superseded by a later effective-dated row, never deleted:
    a deleted row would silently change what the counter charges for
    every date it covered, and the history of what was charged when."""


class KeptRowQuerySet(models.QuerySet):
    def delete(self):
        raise EndedNotDeleted(
            _("%(model)s rows are never deleted: record a new row with a later effective date.")
            % {"model": self.model._meta.verbose_name}
        )


class KeptRowMixin:
    def delete(self, *args, **kwargs):
        raise EndedNotDeleted(
            _("%(model)s rows are never deleted: record a new row with a later effective date.")
            % {"model": self._meta.verbose_name}
        )


class RuleValueQuerySet(KeptRowQuerySet):
    def in_force(self, jurisdiction, keys, on):
        """Every row of these keys that took effect on or before ``on``, newest first."""
        return self.filter(
            jurisdiction=jurisdiction, key__in=list(keys), effective_from__lte=on
        ).order_by("key", "-effective_from", "-pk")

    def in_force_layered(self, jurisdiction, keys, on):
        """As ``in_force``, with the rows of the jurisdiction's state layer in the same
        query (``jurisdiction`` is null on those: tell the layers apart by it)."""
        return self.layered(jurisdiction).filter(key__in=list(keys), effective_from__lte=on)

    def layered(self, jurisdiction):
        """Every row of the city and of its state's layer, newest first per key."""
        return self.filter(
            models.Q(jurisdiction=jurisdiction)
            | models.Q(jurisdiction__isnull=True, state=jurisdiction.state),
        ).order_by("key", "-effective_from", "-pk")

    def state_layer(self, state):
        return self.filter(jurisdiction__isnull=True, state=state)


class RuleValue(KeptRowMixin, models.Model):
    """One value of a jurisdiction's ordinance profile, from a date on.

    Rows are seeded from the profile data file (``load_profile``) with the ordinance's
    adoption date; an amendment is a new row with a later ``effective_from`` and the
    amending ordinance's number. The value in force on a date is the row with the latest
    ``effective_from`` on or before it: looked up, never copied (architecture.md).
    ``value`` is JSON: null means the ordinance leaves it blank (rules.md Section 0).

    A row of a state's layer (the statutes beneath every city of that state, rules.md
    Appendix H) has no jurisdiction and names the ``state`` instead: one row serves every
    city of the state, so a statute amendment is recorded once.
    """

    jurisdiction = models.ForeignKey(
        Jurisdiction,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="rule_values",
        help_text=_("Empty for a value of the state's law, which every city there inherits."),
    )
    state = models.CharField(
        _("state"),
        max_length=2,
        blank=True,
        help_text=_("For a value of state law only (e.g. “MN”); empty for a city's value."),
    )
    key = models.CharField(_("key"), max_length=80)
    value = models.JSONField(_("value"), null=True, blank=True)
    effective_from = models.DateField(_("effective from"))
    citation = models.CharField(_("citation"), max_length=200)
    rule_ids = models.JSONField(_("rule IDs"), default=list, blank=True)
    ordinance_ref = models.CharField(
        _("ordinance number"),
        max_length=100,
        help_text=_("The adopting or amending ordinance, e.g. “Ord. No. 230-15”."),
    )
    note = models.TextField(_("note"), blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    recorded_at = models.DateTimeField(_("recorded at"), default=timezone.now)

    history = HistoricalRecords()
    objects = RuleValueQuerySet.as_manager()

    class Meta:
        ordering = ["jurisdiction", "key", "-effective_from"]
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "key", "effective_from"],
                name="rulevalue_one_per_key_and_date",
            ),
            # NULL jurisdictions are distinct to the constraint above: state rows need
            # their own.
            models.UniqueConstraint(
                fields=["state", "key", "effective_from"],
                condition=models.Q(jurisdiction__isnull=True),
                name="rulevalue_state_one_per_key_and_date",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(jurisdiction__isnull=False, state="")
                    | (models.Q(jurisdiction__isnull=True) & ~models.Q(state=""))
                ),
                name="rulevalue_city_or_state",
                violation_error_message=_(
                    "A rule value belongs either to a city or to a state's law, not both."
                ),
            ),
        ]
        verbose_name = _("ordinance rule value")

    def __str__(self):
        return f"{self.jurisdiction or self.state} {self.key} from {self.effective_from}"

    @property
    def is_state_law(self) -> bool:
        return self.jurisdiction_id is None

    @property
    def is_blank(self) -> bool:
        return self.value is None


class FeeScheduleEntry(KeptRowMixin, models.Model):
    """A fee the council sets by resolution, in force from a date (rules.md FEE-01, FEE-02).

    Amounts the ordinance itself fixes (a $3.00 duplicate tag) come from the profile
    instead; ``ordinance.fees.fee_amount`` looks in both.
    """

    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.CASCADE, related_name="fee_schedule"
    )
    code = models.SlugField(_("fee code"), max_length=60)
    description = models.CharField(_("description"), max_length=200)
    amount = models.DecimalField(_("amount"), max_digits=8, decimal_places=2)
    effective_from = models.DateField(_("effective from"))
    resolution = models.CharField(
        _("resolution"), max_length=100, help_text=_("E.g. “Council Res. 2025-41”.")
    )
    notes = models.TextField(_("notes"), blank=True)

    history = HistoricalRecords()
    objects = KeptRowQuerySet.as_manager()

    class Meta:
        ordering = ["jurisdiction", "code", "-effective_from"]
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "code", "effective_from"],
                name="fee_one_per_code_and_date",
            ),
            models.CheckConstraint(condition=models.Q(amount__gte=0), name="fee_not_negative"),
        ]
        verbose_name = _("fee schedule entry")
        verbose_name_plural = _("fee schedule")

    def __str__(self):
        return f"{self.jurisdiction} {self.code} ${self.amount} from {self.effective_from}"


class ClosedDay(models.Model):
    """A day the city is closed beyond weekends and state holidays (rules.md DEF-20)."""

    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.CASCADE, related_name="closed_days"
    )
    date = models.DateField(_("date"))
    reason = models.CharField(_("reason"), max_length=200)

    history = HistoricalRecords()

    class Meta:
        ordering = ["jurisdiction", "date"]
        constraints = [
            models.UniqueConstraint(fields=["jurisdiction", "date"], name="closed_day_unique")
        ]
        verbose_name = _("closed day")

    def __str__(self):
        return f"{self.jurisdiction}: {self.date} ({self.reason})"
