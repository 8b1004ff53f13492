"""Lost-pet reports by residents and their likely matches among the pound's animals
(issue 20 item 2).

Rules: IMP-05 and REC-04 (North Branch Sec. 6-68: "every possible effort to notify the
owners"; Glencoe 701 Subds. 13, 14). A report's end (``expires_on``) is stored when it is
filed or renewed, from the profile's program setting ``lost_report_open_days`` (not an
ordinance rule), and a beat sweep expires it (impound/sweeps.py); another e-mails the
resident once per open period ``lost_report_reminder_days`` before that end (issue 20).
A match is stored once per (report, case), so running the matching again never
notifies anyone twice.

Imported at the end of impound/models.py, so Django finds these models in the impound
app; the post_save receiver that matches a new intake lives in impound/services/lost.py.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext as __
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from licensing.models.registry import Sex, Species
from ordinance.models import Event, Jurisdiction
from ordinance.refusals import Refused


class LostStatus(models.TextChoices):
    OPEN = "open", _("Open")
    MATCHED = "matched", _("Likely match found")
    CLOSED = "closed", _("Closed")
    EXPIRED = "expired", _("Expired")


# A report still compared with the pound's animals (and that the resident may renew).
ACTIVE_LOST_STATUSES = (LostStatus.OPEN, LostStatus.MATCHED)


class ContactPreference(models.TextChoices):
    EMAIL = "email", _("E-mail")
    PHONE = "phone", _("Phone")


def lost_photo_path(report, filename):
    return f"impound/lost/{report.jurisdiction.slug}/{filename}"


class LostReport(models.Model):
    """A resident's report of a lost animal: what it looks like, when and where it was
    lost (street level), how to reach them, and until when it is matched."""

    jurisdiction = models.ForeignKey(
        Jurisdiction,
        on_delete=models.PROTECT,
        related_name="lost_reports",
        verbose_name=_("city where lost"),
    )
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="lost_reports",
        verbose_name=_("reported by"),
    )
    species = models.CharField(_("species"), max_length=10, choices=Species.choices)
    breed = models.CharField(_("breed"), max_length=80, blank=True)
    color = models.CharField(_("color"), max_length=80)
    sex = models.CharField(_("sex"), max_length=8, choices=Sex.choices, default=Sex.UNKNOWN)
    approximate_age_months = models.PositiveSmallIntegerField(
        _("approximate age (months)"), null=True, blank=True
    )
    name = models.CharField(_("the animal's name"), max_length=80, blank=True)
    distinguishing_marks = models.TextField(_("distinguishing marks"), max_length=1000, blank=True)
    tag_number = models.CharField(
        _("tag number"),
        max_length=40,
        blank=True,
        help_text=_("The license or ID tag number, if the animal wore one."),
    )
    microchip = models.CharField(_("microchip number"), max_length=20, blank=True)
    photo = models.ImageField(_("photo"), upload_to=lost_photo_path, blank=True, max_length=300)
    lost_on = models.DateField(_("date lost"))
    lost_where = models.CharField(
        _("where lost"),
        max_length=200,
        help_text=_("A street, a crossing or a park; not a house number."),
    )
    contact_preference = models.CharField(
        _("how to reach you"),
        max_length=8,
        choices=ContactPreference.choices,
        default=ContactPreference.EMAIL,
    )
    contact_phone = models.CharField(_("phone"), max_length=40, blank=True)
    status = models.CharField(
        _("status"), max_length=8, choices=LostStatus.choices, default=LostStatus.OPEN
    )
    status_changed_at = models.DateTimeField(_("status changed at"))
    expires_on = models.DateField(_("open until"))
    expires_citation = models.CharField(_("setting"), max_length=200)
    closed_note = models.CharField(_("closing note"), max_length=200, blank=True)
    # The ``expires_on`` the resident was last reminded of (the profile's program setting
    # ``lost_report_reminder_days``): one reminder per open period, since a renewal
    # moves ``expires_on`` past it (impound.lost_reports_remind).
    reminder_sent_for_expiry = models.DateField(
        _("reminded of the end on"), null=True, blank=True, editable=False
    )
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("lost-pet report")
        indexes = [
            models.Index(
                fields=["jurisdiction", "status", "species"], name="lost_report_match_idx"
            ),
            models.Index(fields=["status", "expires_on"], name="lost_report_expiry_idx"),
        ]

    def __str__(self):
        return __("Lost %(what)s reported %(day)s") % {
            "what": self.description(),
            "day": self.lost_on.isoformat(),
        }

    def get_absolute_url(self):
        return reverse("impound:lost_report_detail", args=[self.pk])

    @property
    def is_active(self) -> bool:
        return self.status in ACTIVE_LOST_STATUSES

    def description(self) -> str:
        parts = [self.color, self.breed or self.get_species_display()]
        return " ".join(p for p in parts if p)

    # --- Transitions (each records its Event) ----------------------------------------

    def mark_matched(self, *, at, data=None) -> None:
        """Open -> matched: a likely match was found (the report stays active)."""
        if self.status != LostStatus.OPEN:
            return
        self._move(LostStatus.MATCHED, at=at, actor=None, action="impound.lost.matched", data=data)

    def expire(self, *, at) -> None:
        """Open or matched -> expired: its stored end passed unrenewed (the sweep)."""
        self._move(
            LostStatus.EXPIRED,
            at=at,
            actor=None,
            action="impound.lost.expired",
            data={"expires_on": str(self.expires_on)},
        )

    def close(self, *, at, actor, note: str) -> None:
        self.closed_note = note[:200]
        self._move(
            LostStatus.CLOSED,
            at=at,
            actor=actor,
            action="impound.lost.closed",
            data={"note": self.closed_note},
            extra=["closed_note"],
        )

    def _move(self, status, *, at, actor, action, data, extra=()):
        if self.status not in ACTIVE_LOST_STATUSES:
            raise Refused.because(
                _("Lost-pet report"),
                __("This report is %(status)s.") % {"status": self.get_status_display().lower()},
            )
        self.status, self.status_changed_at = status, at
        self.save(update_fields=["status", "status_changed_at", *extra])
        Event.record(
            action,
            self,
            actor=actor,
            at=at,
            summary=f"{self}: {LostStatus(status).label}",
            data=data,
        )


class LostMatch(models.Model):
    """A likely match between a lost report and an impound case: its score and the
    reasons, stored once per pair; ``notified_at`` is when the resident was e-mailed and
    ``officer_notified_at`` when the city's officers were."""

    report = models.ForeignKey(LostReport, on_delete=models.PROTECT, related_name="matches")
    case = models.ForeignKey(
        "impound.ImpoundCase", on_delete=models.PROTECT, related_name="lost_matches"
    )
    score = models.PositiveSmallIntegerField(_("score"))
    reasons = models.JSONField(_("why it may match"), default=list)
    decisive = models.BooleanField(_("tag or microchip matched"), default=False)
    created_at = models.DateTimeField(_("found at"))
    notified_at = models.DateTimeField(_("resident e-mailed at"), null=True, blank=True)
    officer_notified_at = models.DateTimeField(_("officers e-mailed at"), null=True, blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("likely match")
        verbose_name_plural = _("likely matches")
        constraints = [
            models.UniqueConstraint(fields=["report", "case"], name="lost_match_once"),
            models.CheckConstraint(condition=Q(score__lte=100), name="lost_match_score_max"),
        ]

    def __str__(self):
        return f"{self.report} ~ {self.case} ({self.score})"
