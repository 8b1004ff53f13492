"""Veterinary clinics and the rabies certificates they send.

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

from kernel.kept import Kept
from kernel.models import StatefulRecord, Transition
from licensing.models import Animal, License, Owner, RabiesVaccination, Receipt, Tag
from ordinance.models import Jurisdiction


class Clinic(Kept):
    KEPT_HINT = _("Deactivate a clinic instead.")

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


class CertificateBatch(Kept):
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


_QUEUED = SubmissionStatus.QUEUED


class CertificateSubmission(StatefulRecord, Kept):
    """One rabies certificate a clinic sent: the Form 51 fields as sent, how it matched.

    It arrives waiting for the clerk unless the software matched it at once; the clerk
    confirms the animal, registers a new owner and animal, or rejects it with a reason
    (a rejected certificate is kept)."""

    KIND = _("Certificate")
    KEPT_HINT = _("Reject a certificate instead.")
    TRANSITIONS = (
        Transition("match", _QUEUED, SubmissionStatus.MATCHED, event="clinics.certificate.matched"),
        Transition(
            "confirm", _QUEUED, SubmissionStatus.CONFIRMED, event="clinics.certificate.confirmed"
        ),
        Transition(
            "register", _QUEUED, SubmissionStatus.REGISTERED, event="clinics.certificate.registered"
        ),
        Transition(
            "reject", _QUEUED, SubmissionStatus.REJECTED, event="clinics.certificate.rejected"
        ),
    )

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


# --- Vaccinated but unlicensed: the follow-up letters and e-mails -----


class FollowUpBatch(Kept):
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

    class Meta:
        ordering = ["-run_at", "-pk"]
        indexes = [models.Index(fields=["jurisdiction", "-run_at"], name="followup_batch_city_idx")]

    def __str__(self):
        return _("Follow-up batch %(pk)s") % {"pk": self.pk}


class FollowUpChannel(models.TextChoices):
    LETTER = "letter", _("Letter")
    EMAIL = "email", _("E-mail")


class FollowUpLetter(Kept):
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


# --- Licenses sold at the clinic --------------------------------------
# The city moves a block of its metal tags to a clinic (consignment stock). The clinic
# sells a license through the counter's own ``license_issue`` with a tag from its block
# and the city's next receipt; unsold tags come back, lost ones are marked lost. A tag
# keeps its number and year throughout (REC-02, NB Sec. 6-63): only its holder changes.
# Nothing here is deleted or rewritten (the database refuses it, migration 0003).


class ConsignmentBlock(Kept):
    """A range of the city's tags of one year, issued to a clinic to sell."""

    KEPT_HINT = _("Its unsold tags are returned or recorded lost instead.")

    clinic = models.ForeignKey(Clinic, on_delete=models.PROTECT, related_name="consignments")
    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="+")
    year = models.PositiveSmallIntegerField(_("year stamped"))
    first_number = models.PositiveIntegerField(_("first tag number"))
    last_number = models.PositiveIntegerField(_("last tag number"))
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    issued_at = models.DateTimeField(_("issued at"))
    note = models.CharField(_("note"), max_length=200, blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["-issued_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(last_number__gte=models.F("first_number")),
                name="consignment_range_ordered",
            ),
        ]
        indexes = [
            models.Index(fields=["clinic", "jurisdiction", "issued_at"], name="consignment_idx")
        ]

    def __str__(self):
        return _("Tags %(first)s–%(last)s (%(year)s) at %(clinic)s") % {
            "first": self.first_number,
            "last": self.last_number,
            "year": self.year,
            "clinic": self.clinic,
        }

    @property
    def size(self) -> int:
        return self.last_number - self.first_number + 1


class HoldingStatus(models.TextChoices):
    HELD = "held", _("Unsold, at the clinic")
    SOLD = "sold", _("Sold")
    RETURNED = "returned", _("Returned to the city")
    LOST = "lost", _("Lost")


_HELD = HoldingStatus.HELD


class ConsignedTag(StatefulRecord, Kept):
    """One tag of a block and where it went: sold, returned unsold or lost, and when.

    Only a tag the clinic still holds is sold, returned or lost (REC-02)."""

    KIND = _("Tag at the clinic")
    TRANSITIONS = (
        Transition("sell", _HELD, HoldingStatus.SOLD, event="clinics.holding.sold", rule="REC-02"),
        Transition(
            "return", _HELD, HoldingStatus.RETURNED, event="clinics.holding.returned", rule="REC-02"
        ),
        Transition("lose", _HELD, HoldingStatus.LOST, event="clinics.holding.lost", rule="REC-02"),
    )

    block = models.ForeignKey(ConsignmentBlock, on_delete=models.PROTECT, related_name="holdings")
    tag = models.ForeignKey(Tag, on_delete=models.PROTECT, related_name="consignments")
    status = models.CharField(
        _("status"), max_length=10, choices=HoldingStatus.choices, default=HoldingStatus.HELD
    )
    # When it stopped being the clinic's to sell (sale, return, loss): the monthly
    # statement counts what the clinic held at any month's end from it.
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    reconciliation = models.ForeignKey(
        "TagReconciliation",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="holdings",
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["block", "tag"], name="consigned_tag_once_per_block"),
            # One clinic holds a tag at a time: a tag back in stock may go out again.
            models.UniqueConstraint(
                fields=["tag"],
                condition=models.Q(status="held"),
                name="consigned_tag_one_holder",
            ),
        ]
        indexes = [models.Index(fields=["block", "status"], name="consigned_tag_status_idx")]

    def __str__(self):
        return f"{self.tag} ({self.get_status_display()})"


class ReconciliationKind(models.TextChoices):
    RETURNED = "returned", _("Returned unsold")
    LOST = "lost", _("Lost before sale")


class TagReconciliation(Kept):
    """Tags of a block that came back unsold, or were lost before they were sold: a range
    of the block, who recorded it, when and why."""

    block = models.ForeignKey(
        ConsignmentBlock, on_delete=models.PROTECT, related_name="reconciliations"
    )
    kind = models.CharField(_("what happened"), max_length=10, choices=ReconciliationKind.choices)
    first_number = models.PositiveIntegerField(_("first tag number"))
    last_number = models.PositiveIntegerField(_("last tag number"))
    reason = models.CharField(_("why"), max_length=200)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(_("recorded at"))

    history = HistoricalRecords()

    class Meta:
        ordering = ["-recorded_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(last_number__gte=models.F("first_number")),
                name="reconciliation_range_ordered",
            ),
        ]

    def __str__(self):
        return f"{self.get_kind_display()}: {self.numbers}"

    @property
    def count(self) -> int:
        return self.last_number - self.first_number + 1

    @property
    def numbers(self) -> str:
        if self.first_number == self.last_number:
            return str(self.first_number)
        return f"{self.first_number}–{self.last_number}"


class ClinicSale(Kept):
    """A license the clinic sold: issued by the counter's own service with a tag of the
    clinic's block, the rabies vaccination of the clinic's own certificate and the
    city's next receipt number, the fee collected by the clinic for the city."""

    KEPT_HINT = _("A sale is voided by its receipt.")

    clinic = models.ForeignKey(Clinic, on_delete=models.PROTECT, related_name="sales")
    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="+")
    holding = models.OneToOneField(ConsignedTag, on_delete=models.PROTECT, related_name="sale")
    license = models.OneToOneField(License, on_delete=models.PROTECT, related_name="clinic_sale")
    receipt = models.OneToOneField(Receipt, on_delete=models.PROTECT, related_name="clinic_sale")
    certificate = models.ForeignKey(
        CertificateSubmission, on_delete=models.PROTECT, related_name="sales"
    )
    sold_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    sold_at = models.DateTimeField(_("sold at"))

    history = HistoricalRecords()

    class Meta:
        ordering = ["-sold_at", "-pk"]
        indexes = [
            models.Index(fields=["clinic", "jurisdiction", "sold_at"], name="clinic_sale_month_idx")
        ]

    def __str__(self):
        return _("License %(n)s sold by %(clinic)s") % {
            "n": self.license.number,
            "clinic": self.clinic,
        }
