"""The rulebook's own tables: jurisdictions and the append-only event log.

The ordinance profile values, fee schedule and calendar live beside these (see
``ordinance/profiles``); every other app reads rules through ``ordinance`` and never
writes a number of days or dollars itself (architecture.md, "Rules as data").
"""

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


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
    named transitions (``licensing.licence.expired``) and what the sweeps did.
    """

    at = models.DateTimeField(default=timezone.now, db_index=True)
    action = models.CharField(max_length=100, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
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
    def record(cls, action, subject=None, *, actor=None, jurisdiction=None, summary="",
               data=None, at=None):
        event = cls(action=action, actor=actor, jurisdiction=jurisdiction, summary=summary[:300],
                    data=data or {}, at=at or timezone.now())
        if subject is not None:
            event.subject_type = ContentType.objects.get_for_model(
                subject, for_concrete_model=False
            )
            event.subject_id = str(subject.pk)
            if jurisdiction is None and getattr(subject, "jurisdiction_id", None):
                event.jurisdiction_id = subject.jurisdiction_id
        event.save()
        return event
