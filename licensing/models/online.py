"""Residents online: account links, applications, payments, reported changes
and renewal reminders.

A resident never changes a license directly. What they send is a row here that a clerk
reviews and applies with the counter's own services (``license_issue``,
``vaccination_record``, ``license_address_change`` ...), so every rule check, receipt
and document is the counter's. The rows are kept: a returned, withdrawn or declined
request stays in the history with its reason.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from kernel.kept import Kept
from kernel.models import StatefulRecord, Transition
from ordinance.models import Event, Jurisdiction

from .licenses import License, Receipt
from .registry import Animal, Owner, RabiesVaccination


class LinkAttempt(models.Model):
    """A resident's try at linking their account to an owner record (license or tag
    number, last name, ZIP code). Kept for the rate limit and the clerk's review."""

    class Outcome(models.TextChoices):
        LINKED = "linked", _("Linked")
        NO_MATCH = "no_match", _("No match")
        TAKEN = "taken", _("Owner linked to another account: sent to the clerk")
        LIMITED = "limited", _("Too many attempts")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="link_attempts"
    )
    at = models.DateTimeField(_("at"), db_index=True)
    ip_address = models.GenericIPAddressField(_("address"), null=True, blank=True)
    number_entered = models.CharField(_("license or tag number"), max_length=40)
    last_name_entered = models.CharField(_("last name"), max_length=80)
    postal_code_entered = models.CharField(_("ZIP code"), max_length=10)
    outcome = models.CharField(_("outcome"), max_length=10, choices=Outcome.choices)
    owner = models.ForeignKey(
        Owner, null=True, blank=True, on_delete=models.SET_NULL, related_name="link_attempts"
    )
    # A TAKEN attempt waits for the clerk, who links or refuses on the owner page.
    resolved_at = models.DateTimeField(_("resolved at"), null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["user", "at"], name="link_attempt_user_at_idx")]

    def __str__(self):
        return f"{self.user} {self.get_outcome_display()} {self.at:%Y-%m-%d %H:%M}"


class ApplicationKind(models.TextChoices):
    RENEWAL = "renewal", _("Renewal")
    NEW = "new", _("New license")


class ApplicationStatus(models.TextChoices):
    SUBMITTED = "submitted", _("Waiting for the clerk")
    RETURNED = "returned", _("Returned to you to fix")
    APPROVED = "approved", _("Approved: waiting for payment")
    ISSUED = "issued", _("License issued")
    PAYMENT_HELD = "held", _("Paid: the clerk is finishing it")
    WITHDRAWN = "withdrawn", _("Withdrawn")


OPEN_APPLICATION_STATUSES = (
    ApplicationStatus.SUBMITTED,
    ApplicationStatus.RETURNED,
    ApplicationStatus.APPROVED,
    ApplicationStatus.PAYMENT_HELD,
)


_SUBMITTED, _RETURNED = ApplicationStatus.SUBMITTED, ApplicationStatus.RETURNED
_APPROVED, _HELD = ApplicationStatus.APPROVED, ApplicationStatus.PAYMENT_HELD


class OnlineApplication(StatefulRecord, Kept):
    """A resident's application for a dog license (new or renewal), with the rabies
    certificate they uploaded. The clerk approves it (recording the certificate with
    ``vaccination_record``), the resident or the clerk pays, and ``license_issue`` issues
    it with ``applied_on`` deciding the late penalty (NB Sec. 6-65(c), LIC-05)."""

    KIND = _("Application")
    TRANSITIONS = (
        Transition("approve", _SUBMITTED, _APPROVED, event="licensing.application.approved"),
        Transition("return", _SUBMITTED, _RETURNED, event="licensing.application.returned"),
        Transition("resubmit", _RETURNED, _SUBMITTED, event="licensing.application.resubmitted"),
        # A clinic's certificate for an application returned for want of one.
        Transition(
            "certificate_arrived",
            _RETURNED,
            _SUBMITTED,
            event="licensing.application.certificate_arrived",
        ),
        # Paid: issued, or held for the clerk when the license could not be issued.
        Transition(
            "issue",
            (_APPROVED, _HELD),
            ApplicationStatus.ISSUED,
            event="licensing.application.issued",
        ),
        Transition("hold", (_APPROVED, _HELD), _HELD, event="licensing.application.held"),
        Transition(
            "withdraw",
            (_SUBMITTED, _RETURNED, _APPROVED),
            ApplicationStatus.WITHDRAWN,
            event="licensing.application.withdrawn",
        ),
    )

    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.PROTECT, related_name="online_applications"
    )
    kind = models.CharField(_("kind"), max_length=8, choices=ApplicationKind.choices)
    status = models.CharField(
        _("status"),
        max_length=10,
        choices=ApplicationStatus.choices,
        default=ApplicationStatus.SUBMITTED,
    )
    # Set from the submission on (the kernel's is blank until a first change).
    status_changed_at = models.DateTimeField(_("status changed at"))
    animal = models.ForeignKey(Animal, on_delete=models.PROTECT, related_name="online_applications")
    owner = models.ForeignKey(Owner, on_delete=models.PROTECT, related_name="online_applications")
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="online_applications"
    )
    submitted_at = models.DateTimeField(_("submitted at"))
    # The day the application first reached the city: it decides the late penalty.
    applied_on = models.DateField(_("applied on"))

    # The rabies certificate as the resident entered it (RAB-01, RAB-05). Blank when the
    # vaccination on file still covers the term (``uses_vaccination``).
    uses_vaccination = models.ForeignKey(
        RabiesVaccination,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("vaccination on file"),
    )
    vaccinated_on = models.DateField(_("date of vaccination"), null=True, blank=True)
    duration_years = models.PositiveSmallIntegerField(
        _("vaccine good for"),
        null=True,
        blank=True,
        choices=RabiesVaccination.Duration.choices,
    )
    veterinarian_name = models.CharField(_("veterinarian"), max_length=120, blank=True)
    veterinarian_license = models.CharField(
        _("veterinarian's license number"), max_length=40, blank=True
    )
    clinic_name = models.CharField(_("clinic"), max_length=120, blank=True)
    rabies_tag_number = models.CharField(_("rabies tag number"), max_length=30, blank=True)
    certificate = models.FileField(_("certificate file"), upload_to="applications/%Y/", blank=True)

    # The clerk's review.
    return_reason = models.TextField(_("what to fix"), blank=True)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reviewed_at = models.DateTimeField(_("reviewed at"), null=True, blank=True)
    vaccination = models.ForeignKey(
        RabiesVaccination,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="online_applications",
        verbose_name=_("vaccination recorded"),
    )
    amount_due = models.DecimalField(
        _("amount due"), max_digits=10, decimal_places=2, null=True, blank=True
    )
    license = models.OneToOneField(
        License,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="online_application",
    )
    tag_mailed_at = models.DateTimeField(_("tag mailed at"), null=True, blank=True)
    held_reason = models.TextField(_("why the clerk must finish it"), blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["-submitted_at", "-pk"]
        indexes = [
            models.Index(fields=["jurisdiction", "status"], name="online_app_city_status_idx")
        ]
        constraints = [
            # One open application per animal: a second tab or a double submit is refused.
            models.UniqueConstraint(
                fields=["animal"],
                condition=models.Q(status__in=["submitted", "returned", "approved", "held"]),
                name="one_open_online_application_per_animal",
            )
        ]

    def __str__(self):
        return _("Online application %(pk)s") % {"pk": self.pk}

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_APPLICATION_STATUSES


class Payment(StatefulRecord, Kept):
    """Money received online through a provider (Stripe Checkout). The provider's own id
    is unique, so a replayed webhook finds the row and changes nothing."""

    class Status(models.TextChoices):
        RECEIVED = "received", _("Received")
        APPLIED = "applied", _("Applied: receipt issued")
        HELD = "held", _("Held: the clerk must finish the license")

    TRANSITIONS = (
        # The license was issued for the money (its receipt linked), at once or by the clerk.
        Transition(
            "settle",
            (Status.RECEIVED, Status.HELD),
            Status.APPLIED,
            event="licensing.payment.applied",
        ),
        Transition("hold", Status.RECEIVED, Status.HELD, event="licensing.payment.held"),
    )

    provider = models.CharField(_("provider"), max_length=20)
    provider_id = models.CharField(_("provider's payment id"), max_length=255, unique=True)
    reference = models.CharField(_("reference on the receipt"), max_length=40, blank=True)
    application = models.ForeignKey(
        OnlineApplication, on_delete=models.PROTECT, related_name="payments"
    )
    amount = models.DecimalField(_("amount"), max_digits=10, decimal_places=2)
    currency = models.CharField(_("currency"), max_length=3, default="usd")
    received_at = models.DateTimeField(_("received at"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices)
    receipt = models.OneToOneField(
        Receipt, null=True, blank=True, on_delete=models.PROTECT, related_name="online_payment"
    )
    note = models.TextField(_("note"), blank=True)

    history = HistoricalRecords()

    class Meta:
        ordering = ["-received_at", "-pk"]

    def __str__(self):
        return f"{self.provider} {self.provider_id}"

    @classmethod
    def receive(cls, *, application, provider, provider_id, reference, amount, currency, at):
        """Record money a provider reports as received. The unique ``provider_id`` makes a
        second delivery of the same payment fail here (IntegrityError), never a second
        row; the caller treats that as the replay it is."""
        payment = cls.objects.create(
            application=application,
            provider=provider,
            provider_id=provider_id,
            reference=reference,
            amount=amount,
            currency=currency,
            received_at=at,
            status=cls.Status.RECEIVED,
        )
        Event.record(
            "licensing.payment.received",
            payment,
            jurisdiction=application.jurisdiction,
            at=at,
            summary=f"{provider} payment {provider_id}: {amount} {currency.upper()} for "
            f"online application {application.pk}",
            data={"provider": provider, "provider_id": provider_id},
        )
        return payment

    @property
    def jurisdiction(self):
        """The city of the application paid for: its events go in that city's log."""
        return self.application.jurisdiction

    @property
    def jurisdiction_id(self):
        return self.application.jurisdiction_id

    def settle(self, receipt, *, actor, at):
        """The license was issued for this money: link the receipt."""
        self.ensure("settle")
        self.receipt, self.note = receipt, ""
        self._apply(
            "settle",
            actor=actor,
            at=at,
            fields=["receipt", "note"],
            summary=f"Payment {self.provider_id}: receipt {receipt.number}",
            data={"receipt": receipt.number},
        )

    def hold(self, reason: str, *, at):
        """The money is kept but no license could be issued: the clerk finishes it."""
        self.ensure("hold")
        self.note = reason
        self._apply(
            "hold",
            at=at,
            fields=["note"],
            summary=f"Payment {self.provider_id} held: {reason}",
            data={"reason": reason},
        )

    def _apply(self, name, *, data, **event):
        self.apply(
            name,
            data={"provider": self.provider, "provider_id": self.provider_id, **data},
            **event,
        )


class ChangeKind(models.TextChoices):
    ADDRESS = "address", _("New address")
    DEATH = "death", _("Death of the animal")
    TRANSFER = "transfer", _("New owner")
    LOST_TAG = "lost_tag", _("Lost tag")


class ChangeStatus(models.TextChoices):
    SUBMITTED = "submitted", _("Waiting for the clerk")
    WAITING_NEW_OWNER = "new_owner", _("Waiting for the new owner")
    APPLIED = "applied", _("Done")
    DECLINED = "declined", _("Declined")


# A change still waiting for someone: the new owner's acceptance or the clerk.
OPEN_CHANGE_STATUSES = (ChangeStatus.SUBMITTED, ChangeStatus.WAITING_NEW_OWNER)


class ReportedChange(StatefulRecord, Kept):
    """A change a resident reports about their animal; the clerk applies it with the
    counter's service (``license_address_change``, ``license_close``,
    ``license_transfer``, ``tag_replace_lost``) or declines it with a reason."""

    TRANSITIONS = (
        # A transfer waits for the new owner's account to accept it.
        Transition(
            "accept_transfer",
            ChangeStatus.WAITING_NEW_OWNER,
            ChangeStatus.SUBMITTED,
            event="licensing.change.transfer_accepted",
        ),
        Transition(
            "apply_change",
            ChangeStatus.SUBMITTED,
            ChangeStatus.APPLIED,
            event="licensing.change.applied",
        ),
        Transition(
            "decline",
            OPEN_CHANGE_STATUSES,
            ChangeStatus.DECLINED,
            event="licensing.change.declined",
        ),
    )

    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.PROTECT, related_name="reported_changes"
    )
    kind = models.CharField(_("change"), max_length=10, choices=ChangeKind.choices)
    status = models.CharField(
        _("status"), max_length=10, choices=ChangeStatus.choices, default=ChangeStatus.SUBMITTED
    )
    animal = models.ForeignKey(Animal, on_delete=models.PROTECT, related_name="reported_changes")
    owner = models.ForeignKey(Owner, on_delete=models.PROTECT, related_name="reported_changes")
    license = models.ForeignKey(
        License, null=True, blank=True, on_delete=models.PROTECT, related_name="reported_changes"
    )
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="reported_changes"
    )
    submitted_at = models.DateTimeField(_("submitted at"))
    happened_on = models.DateField(_("date of the change"))
    # What the resident typed, by kind: the new address; the new owner's name, address and
    # e-mail; where the tag was lost. Shown to the clerk as entered.
    details = models.JSONField(_("details"), default=dict, blank=True)
    # A transfer waits for the new owner's account to accept (and pay).
    new_owner_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    handled_at = models.DateTimeField(_("handled at"), null=True, blank=True)
    handled_note = models.TextField(_("clerk's note"), blank=True)
    receipt = models.ForeignKey(
        Receipt, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    history = HistoricalRecords()

    class Meta:
        ordering = ["-submitted_at", "-pk"]
        indexes = [
            models.Index(fields=["jurisdiction", "status"], name="reported_change_status_idx")
        ]

    def __str__(self):
        return f"{self.get_kind_display()}: {self.animal}"

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_CHANGE_STATUSES


class RenewalReminder(models.Model):
    """One renewal reminder per license and term: the sweep's record that it was sent
    (``licensing.renewal_reminders``)."""

    license = models.ForeignKey(License, on_delete=models.PROTECT, related_name="reminders")
    term_start = models.DateField(_("term of the renewal"))
    sent_to = models.EmailField(_("sent to"))
    sent_at = models.DateTimeField(_("sent at"))

    class Meta:
        ordering = ["-sent_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["license", "term_start"], name="one_renewal_reminder_per_term"
            )
        ]

    def __str__(self):
        return f"{self.license} {self.term_start:%Y}"


class RenewalNotice(models.Model):
    """One printed renewal notice per owner, license and term: the clerk
    printed it from the expiring-licenses report for mailing. Printing the batch again
    adds no row (the unique constraint); ``printed_at`` stays the first print."""

    owner = models.ForeignKey(Owner, on_delete=models.PROTECT, related_name="renewal_notices")
    license = models.ForeignKey(License, on_delete=models.PROTECT, related_name="renewal_notices")
    term_start = models.DateField(_("term of the renewal"))
    mailed_to = models.CharField(_("mailing address"), max_length=300)
    printed_at = models.DateTimeField(_("printed at"))
    printed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("printed by"),
    )

    class Meta:
        ordering = ["-printed_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "license", "term_start"], name="one_renewal_notice_per_term"
            )
        ]

    def __str__(self):
        return f"{self.license} {self.term_start:%Y}"
