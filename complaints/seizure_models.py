"""The barking-dog seizure (Glencoe 701 Subd. 5; rules.md RES-07, RES-08, REC-05).

A ``BarkingSeizure`` row exists only once all seven conditions are recorded: the service
(``complaints.seizure``) refuses until then. Each condition is kept as what it rests on:
condition 1 the identified complainant and the time the officer confirmed the complaint
was contemporaneous; condition 3 the earlier complaint the system found in the complaint
history (never typed); condition 4 the contact attempts, each its own row; condition 7
the place the written notice was left and the notice itself (an issued document).
Imported by ``complaints.models``; rows are kept, never deleted.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext as __
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from impound.models import ImpoundCase
from kernel.kept import Kept
from notices.models import IssuedDocument
from ordinance.models import Jurisdiction


class ContactMethod(models.TextChoices):
    PHONE = "phone", _("Telephone")
    DOOR = "door", _("Knocked at the door")
    OTHER = "other", _("Other")


class ContactResult(models.TextChoices):
    """Condition 4: attempts that "have either failed or have been ignored"."""

    NO_ANSWER = "no_answer", _("No answer")
    NOT_FOUND = "not_found", _("No way to reach them (no number, no one home)")
    IGNORED = "ignored", _("Message left or door answered, and ignored")
    REACHED = "reached", _("Reached, and the owner is stopping the barking")


# Results that count toward condition 4; a reached owner who acts does not.
FAILED_OR_IGNORED = frozenset(
    {ContactResult.NO_ANSWER, ContactResult.NOT_FOUND, ContactResult.IGNORED}
)


class ContactAttempt(Kept):
    """One attempt to reach the dog's owner or the property owner (RES-07 cond. 4)."""

    complaint = models.ForeignKey(
        "complaints.Complaint", on_delete=models.PROTECT, related_name="contact_attempts"
    )
    attempted_at = models.DateTimeField(_("attempted at"))
    method = models.CharField(_("how"), max_length=10, choices=ContactMethod.choices)
    contacted = models.CharField(
        _("who was tried"),
        max_length=160,
        help_text=_("The dog's owner or the owner of the property, and the number or door."),
    )
    result = models.CharField(_("result"), max_length=12, choices=ContactResult.choices)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField()

    history = HistoricalRecords()

    class Meta:
        ordering = ["attempted_at", "pk"]

    def __str__(self):
        when = f"{self.attempted_at:%Y-%m-%d %H:%M}"
        return f"{when} {self.get_method_display()}: {self.get_result_display()}"

    @property
    def failed_or_ignored(self) -> bool:
        return self.result in FAILED_OR_IGNORED


class EntryMeans(models.TextChoices):
    """Condition 5: no forced entry into a private residence."""

    NO_RESIDENCE = "no_residence", _("No entry into a residence (yard, kennel, porch, garage)")
    PASSKEY = (
        "passkey",
        _("A passkey from a property manager, landlord, innkeeper or other key-holder"),
    )


class BarkingSeizure(Kept):
    """A barking dog seized with all seven conditions of Glencoe 701 Subd. 5 recorded."""

    complaint = models.OneToOneField(
        "complaints.Complaint", on_delete=models.PROTECT, related_name="barking_seizure"
    )
    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="+")
    # 1. An identified complainant, not an officer, complaining now: who, and when the
    # officer confirmed it (the time stamp).
    complainant_name = models.CharField(_("complainant"), max_length=160)
    complainant_confirmed_at = models.DateTimeField(_("complaint confirmed as contemporaneous at"))
    # 2. The officer's belief that the barking meets the Subd. 5 criteria, with the
    # system's reading of the recorded facts at that moment (may be blank: none recorded).
    barking_belief_at = models.DateTimeField(_("officer's belief recorded at"))
    barking_reading = models.CharField(
        _("system's reading of the facts"), max_length=200, blank=True
    )
    # 3. Found by the system in the complaint history: the latest earlier barking
    # complaint at this address on a prior date, and how many there were.
    prior_complaint = models.ForeignKey(
        "complaints.Complaint",
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("earlier barking complaint"),
    )
    prior_count = models.PositiveSmallIntegerField(_("earlier barking complaints on prior dates"))
    # 4. The attempts (ContactAttempt rows on the complaint); how many at the seizure.
    contact_attempt_count = models.PositiveSmallIntegerField(_("contact attempts"))
    # 5. No forced entry.
    entry_means = models.CharField(_("entry"), max_length=14, choices=EntryMeans.choices)
    passkey_from = models.CharField(_("passkey from"), max_length=160, blank=True)
    # 6. No less intrusive means: what was tried or considered.
    less_intrusive = models.TextField(_("less intrusive means tried or considered"))
    # 7. Where the written notice was left, and the notice (REC-05).
    notice_place = models.CharField(_("notice left at"), max_length=200)
    notice = models.ForeignKey(
        IssuedDocument,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("seizure notice"),
    )
    seized_at = models.DateTimeField(_("seized at"))
    seized_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    citation = models.CharField(_("section"), max_length=200)
    impound_case = models.ForeignKey(
        ImpoundCase, on_delete=models.PROTECT, related_name="+", verbose_name=_("impound case")
    )

    history = HistoricalRecords()

    def __str__(self):
        return __("Barking dog seized at %(address)s") % {"address": self.complaint.address}
