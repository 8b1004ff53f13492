"""Veterinary clinics and the rabies certificates they send (issue 18, items 1 and 2).

A clinic serves one or more cities; its people log in with the veterinarian role and see
only what their clinic submitted and the animals those submissions matched. Each
certificate is a ``CertificateSubmission`` holding the NASPHV Form 51 fields as the clinic
sent them; once matched to a registered animal it points at the ``RabiesVaccination``
that ``vaccination_record`` wrote (one answer per question: the registry's own service).
Rows are never deleted: a rejected certificate keeps its reason.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from licensing.models import Animal, Owner, RabiesVaccination
from licensing.models._base import NoDeleteMixin, NoDeleteQuerySet
from ordinance.models import Jurisdiction


class Clinic(models.Model):
    name = models.CharField(_("clinic name"), max_length=120)
    address_line = models.CharField(_("street address"), max_length=160)
    city = models.CharField(_("city"), max_length=80)
    state = models.CharField(_("state"), max_length=2, default="MN")
    postal_code = models.CharField(_("ZIP code"), max_length=10)
    phone = models.CharField(_("phone"), max_length=30, blank=True)
    jurisdictions = models.ManyToManyField(
        Jurisdiction, related_name="clinics", verbose_name=_("cities served")
    )
    is_active = models.BooleanField(_("active"), default=True)
    closed_reason = models.CharField(_("why it was deactivated"), max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self):
        return self.name

    @property
    def address(self) -> str:
        return f"{self.address_line}, {self.city}, {self.state} {self.postal_code}"

    def delete(self, *args, **kwargs):
        raise models.ProtectedError(_("A clinic is deactivated, never deleted."), [self])

    @property
    def active_veterinarians(self) -> list:
        return [v for v in self.veterinarians.all() if v.is_active]


class ClinicVeterinarian(models.Model):
    """A veterinarian of the clinic, with the license number a certificate must carry
    (RAB-05: given by a licensed veterinarian)."""

    clinic = models.ForeignKey(Clinic, on_delete=models.PROTECT, related_name="veterinarians")
    name = models.CharField(_("veterinarian"), max_length=120)
    license_number = models.CharField(_("veterinarian license number"), max_length=40)
    is_active = models.BooleanField(_("active"), default=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["clinic", "license_number"], name="clinic_vet_license_unique"
            )
        ]

    def __str__(self):
        return f"{self.name} ({self.license_number})"


class ClinicMember(models.Model):
    """A login of the clinic: invited by an administrator, deactivated by one."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="clinic_membership"
    )
    clinic = models.ForeignKey(Clinic, on_delete=models.PROTECT, related_name="members")
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    invited_at = models.DateTimeField(_("invited at"))
    deactivated_at = models.DateTimeField(_("deactivated at"), null=True, blank=True)
    deactivated_reason = models.CharField(_("why"), max_length=200, blank=True)

    history = HistoricalRecords()

    def __str__(self):
        return f"{self.user} ({self.clinic})"


class CertificateBatch(models.Model):
    """One CSV file of certificates, recorded once every row of it passed."""

    clinic = models.ForeignKey(Clinic, on_delete=models.PROTECT, related_name="batches")
    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="+")
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    submitted_at = models.DateTimeField(_("submitted at"))
    row_count = models.PositiveIntegerField(_("rows"))

    history = HistoricalRecords()

    class Meta:
        ordering = ["-submitted_at", "-pk"]

    def __str__(self):
        return _("Batch %(pk)s") % {"pk": self.pk}


class SubmissionStatus(models.TextChoices):
    MATCHED = "matched", _("Matched and recorded")
    QUEUED = "queued", _("Waiting for the clerk")
    CONFIRMED = "confirmed", _("Confirmed by the clerk")
    REGISTERED = "registered", _("Registered as a new animal")
    REJECTED = "rejected", _("Rejected")


RECORDED_STATUSES = (
    SubmissionStatus.MATCHED,
    SubmissionStatus.CONFIRMED,
    SubmissionStatus.REGISTERED,
)


class CertificateSubmission(models.Model):
    """One rabies certificate a clinic sent: the Form 51 fields as sent, how it matched."""

    clinic = models.ForeignKey(Clinic, on_delete=models.PROTECT, related_name="submissions")
    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="+")
    batch = models.ForeignKey(
        CertificateBatch,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="submissions",
    )
    row_number = models.PositiveIntegerField(_("row"), null=True, blank=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    submitted_at = models.DateTimeField(_("submitted at"))
    status = models.CharField(
        _("status"), max_length=10, choices=SubmissionStatus.choices, db_index=True
    )

    # Form 51: the owner.
    owner_first_name = models.CharField(_("owner's first name"), max_length=80, blank=True)
    owner_last_name = models.CharField(_("owner's last name"), max_length=80)
    owner_address = models.CharField(_("owner's street address"), max_length=160)
    owner_city = models.CharField(_("owner's city"), max_length=80, blank=True)
    owner_postal_code = models.CharField(_("owner's ZIP code"), max_length=10, blank=True)
    owner_phone = models.CharField(_("owner's phone"), max_length=30, blank=True)
    # Form 51: the animal.
    animal_name = models.CharField(_("animal's name"), max_length=80)
    species = models.CharField(_("species"), max_length=10)
    breed = models.CharField(_("breed"), max_length=80, blank=True)
    color = models.CharField(_("color"), max_length=80, blank=True)
    sex = models.CharField(_("sex"), max_length=8, blank=True)
    microchip = models.CharField(_("microchip number"), max_length=20, blank=True)
    # Form 51: the vaccine (as RabiesVaccination holds them).
    vaccinated_on = models.DateField(_("date vaccinated"))
    duration_years = models.PositiveSmallIntegerField(
        _("vaccine duration"), choices=RabiesVaccination.Duration.choices
    )
    next_due_on = models.DateField(_("next vaccination due"), null=True, blank=True)
    manufacturer = models.CharField(_("vaccine manufacturer"), max_length=80, blank=True)
    product = models.CharField(_("vaccine product"), max_length=80, blank=True)
    lot_number = models.CharField(_("lot number"), max_length=40, blank=True)
    lot_expires_on = models.DateField(_("lot expiration"), null=True, blank=True)
    rabies_tag_number = models.CharField(_("rabies tag number"), max_length=30, blank=True)
    veterinarian_name = models.CharField(_("veterinarian"), max_length=120)
    veterinarian_license = models.CharField(_("veterinarian license number"), max_length=40)
    certificate = models.FileField(
        _("signed certificate"), upload_to="clinic-certificates/%Y/", blank=True
    )

    # The match.
    score = models.PositiveSmallIntegerField(_("match score"), default=0)
    animal = models.ForeignKey(
        Animal, null=True, blank=True, on_delete=models.PROTECT, related_name="clinic_certificates"
    )
    vaccination = models.OneToOneField(
        RabiesVaccination,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="clinic_submission",
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    reject_reason = models.CharField(_("why it was rejected"), max_length=300, blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["-submitted_at", "-pk"]
        indexes = [
            models.Index(fields=["jurisdiction", "status"], name="clinic_cert_city_status_idx"),
            models.Index(fields=["clinic", "-submitted_at"], name="clinic_cert_clinic_idx"),
        ]

    def __str__(self):
        return _("Certificate %(pk)s") % {"pk": self.pk}

    @property
    def owner_name(self) -> str:
        return f"{self.owner_first_name} {self.owner_last_name}".strip()

    def delete(self, *args, **kwargs):
        raise models.ProtectedError(_("A certificate is rejected, never deleted."), [self])


# --- Vaccinated but unlicensed: the follow-up letters and e-mails (issue 18, item 3) -----


class FollowUpBatch(NoDeleteMixin, models.Model):
    """One run of the follow-up for one city: who ran it, when, and the letters as
    printed (``snapshot``: names, addresses, animals, fees and deadlines with their
    sections, frozen when the batch was run), so its PDF prints the same every time."""

    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="+")
    run_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    run_at = models.DateTimeField(_("run at"))
    term_start = models.DateField(_("license term"))
    snapshot = models.JSONField(_("letters as printed"), default=dict)
    letter_count = models.PositiveIntegerField(_("letters"), default=0)
    email_count = models.PositiveIntegerField(_("e-mails"), default=0)

    objects = NoDeleteQuerySet.as_manager()

    class Meta:
        ordering = ["-run_at", "-pk"]
        indexes = [models.Index(fields=["jurisdiction", "-run_at"], name="followup_batch_city_idx")]

    def __str__(self):
        return _("Follow-up batch %(pk)s") % {"pk": self.pk}


class FollowUpChannel(models.TextChoices):
    LETTER = "letter", _("Letter")
    EMAIL = "email", _("E-mail")


class FollowUpLetter(NoDeleteMixin, models.Model):
    """One follow-up to the owner of a vaccinated but unlicensed animal, by one channel,
    for one license term: at most one letter and one e-mail per animal and term (the
    unique constraint), so running the follow-up again sends nothing twice. The
    vaccination is the current certificate it was sent about; ``measure_ends_on`` the
    last day a license counts as its effect (the profile's program measure in force on
    ``sent_on``)."""

    batch = models.ForeignKey(FollowUpBatch, on_delete=models.PROTECT, related_name="letters")
    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="+")
    animal = models.ForeignKey(Animal, on_delete=models.PROTECT, related_name="followups")
    owner = models.ForeignKey(Owner, on_delete=models.PROTECT, related_name="followups")
    vaccination = models.ForeignKey(
        RabiesVaccination, on_delete=models.PROTECT, related_name="followups"
    )
    channel = models.CharField(_("sent by"), max_length=6, choices=FollowUpChannel.choices)
    term_start = models.DateField(_("license term"))
    sent_on = models.DateField(_("sent on"))
    sent_to = models.CharField(_("sent to"), max_length=300)
    measure_ends_on = models.DateField(_("counts as licensed through"))
    # An e-mail is recorded with its batch and handed to the mail server by a task, which
    # claims it here first: a task run twice sends it once.
    emailed_at = models.DateTimeField(_("e-mailed at"), null=True, blank=True)

    objects = NoDeleteQuerySet.as_manager()

    class Meta:
        ordering = ["-sent_on", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["animal", "term_start", "channel"], name="one_followup_per_animal_term"
            )
        ]
        indexes = [
            models.Index(fields=["jurisdiction", "sent_on"], name="followup_city_sent_idx"),
        ]

    def __str__(self):
        return f"{self.get_channel_display()} {self.animal_id} {self.term_start:%Y}"
