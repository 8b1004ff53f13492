"""Lost-pet reports by residents and their likely matches among the pound's animals.

Rules: IMP-05 and REC-04 (North Branch Sec. 6-68: "every possible effort to notify the
owners"; Glencoe 701 Subds. 13, 14). A report's end (``expires_on``) is stored when it is
filed or renewed, from the profile's program setting ``lost_report_open_days`` (not an
ordinance rule), and a beat sweep expires it (impound/sweeps.py); another e-mails the
resident once per open period ``lost_report_reminder_days`` before that end.
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

from kernel.kept import Kept
from kernel.models import StatefulRecord, Transition
from licensing.models.registry import Sex, Species
from ordinance.models import Jurisdiction
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


class LostReport(StatefulRecord, Kept):
    """A resident's report of a lost animal: what it looks like, when and where it was
    lost (street level), how to reach them, and until when it is matched.

    Open until a likely match is found (still active), closed by the resident, expired
    by the sweep once its stored end passed; renewing an expired one opens it again.
    """

    TRANSITIONS = (
        Transition("match", LostStatus.OPEN, LostStatus.MATCHED, event="impound.lost.matched"),
        Transition(
            "expire", ACTIVE_LOST_STATUSES, LostStatus.EXPIRED, event="impound.lost.expired"
        ),
        Transition("close", ACTIVE_LOST_STATUSES, LostStatus.CLOSED, event="impound.lost.closed"),
        # Matched again at once if it had a likely match before it expired.
        Transition(
            "reopen",
            LostStatus.EXPIRED,
            ACTIVE_LOST_STATUSES,
            event="impound.lost.renewed",
        ),
    )

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

    @property
    def may_renew(self) -> bool:
        """Active (its end moves forward) or expired (it opens again); never closed."""
        return self.is_active or self.may("reopen")

    def description(self) -> str:
        parts = [self.color, self.breed or self.get_species_display()]
        return " ".join(p for p in parts if p)

    def refuse(self, t, to, citation=None, field=""):
        """A resident reads the refusal: the report's state, plainly."""
        return Refused.because(
            self.kind_label(),
            __("This report is %(status)s.") % {"status": self.get_status_display().lower()},
            citation or "",
            field=field,
        )

    # --- Transitions (TRANSITIONS above) ---------------------------------------------

    def mark_matched(self, *, at, data=None) -> None:
        """Open -> matched: a likely match was found (the report stays active)."""
        if self.may("match"):
            self.apply("match", at=at, summary=self._summary(LostStatus.MATCHED), data=data)

    def expire(self, *, at) -> None:
        """Open or matched -> expired: its stored end passed unrenewed (the sweep)."""
        self.apply(
            "expire",
            at=at,
            summary=self._summary(LostStatus.EXPIRED),
            data={"expires_on": str(self.expires_on)},
        )

    def close(self, *, at, actor, note: str) -> None:
        self.ensure("close")
        self.closed_note = note[:200]
        self.apply(
            "close",
            actor=actor,
            at=at,
            summary=self._summary(LostStatus.CLOSED),
            data={"note": self.closed_note},
            fields=["closed_note"],
        )

    def _summary(self, status) -> str:
        return f"{self}: {LostStatus(status).label}"


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
