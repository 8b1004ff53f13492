"""Online applications: the clerk's approval and the issue that follows payment.

A resident's application is never a license by itself. The clerk approves it, which
records the uploaded rabies certificate with ``vaccination_record`` (RAB-01, RAB-05) and
fixes the amount due from ``license_assess``, the counter's own checks and fee lines.
Payment (at city hall, by mail, or by card through a provider) then issues it with
``license_issue``, with the application date deciding the term and the late penalty
(NB Sec. 6-65(c), LIC-13, FEE-03).

Every step is a transition of ``OnlineApplication.TRANSITIONS``, applied with the
Event inside one transaction; a refusal leaves everything as it was.
"""

from dataclasses import dataclass, replace
from datetime import date, datetime
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from kernel.checks import refuse_if_future
from ordinance.models import Event
from ordinance.refusals import Check, Refused, refusing
from ordinance.rules import rule_citation

from ..models import OnlineApplication, RabiesVaccination
from ..models.online import OPEN_APPLICATION_STATUSES, ApplicationKind, ApplicationStatus
from .assessment import license_assess
from .documents import IssueResult
from .licenses import license_issue
from .mail import application_mail
from .registry import vaccination_record

APPLICATION = _("Application")

# What the resident entered about the certificate, recorded as it stands when approved.
CERTIFICATE_FIELDS = (
    "vaccinated_on",
    "duration_years",
    "veterinarian_name",
    "veterinarian_license",
    "clinic_name",
    "rabies_tag_number",
)


def _refused(message: str, field: str = "") -> Refused:
    return Refused([Check(APPLICATION, "fail", message, "", field)])


def _locked(application) -> OnlineApplication:
    return (
        OnlineApplication.objects.select_for_update(of=("self",))
        .select_related("animal", "owner", "jurisdiction", "uses_vaccination", "vaccination")
        .get(pk=application.pk)
    )


@dataclass
class Approval:
    application: OnlineApplication
    amount_due: Decimal
    fee_lines: list


@refusing()
def application_approve(application, *, actor, on: date | None = None, now=None) -> Approval:
    """The clerk has compared the certificate with the dates entered: record it (or use the
    vaccination on file), assess the license on today's fee schedule with the application
    date, and set the amount due. Refused when a check fails; nothing is recorded then."""
    now = now or timezone.now()
    on = on or timezone.localdate(now)
    with transaction.atomic():
        application = _locked(application)
        if not application.may("approve"):
            raise _refused(_("Only an application waiting for the clerk can be approved."))
        vaccination = application.uses_vaccination
        if vaccination is None:
            if application.vaccinated_on is None:
                raise _refused(
                    _("The application has no rabies vaccination: return it to the resident."),
                    "vaccinated_on",
                )
            fields = {
                name: getattr(application, name)
                for name in CERTIFICATE_FIELDS
                if getattr(application, name) not in (None, "")
            }
            if application.certificate:
                fields["certificate"] = application.certificate.name
            vaccination = vaccination_record(
                animal=application.animal, actor=actor, on=on, now=now, **fields
            )
        a = license_assess(
            animal=application.animal,
            owner=application.owner,
            on=on,
            applied_on=application.applied_on,
            vaccination=vaccination,
        )
        if not a.can_issue:
            raise Refused(a.refusals)
        amount = a.total
        application.vaccination, application.amount_due = vaccination, amount
        application.reviewed_by, application.reviewed_at = actor, now
        application.return_reason = ""
        application.apply(
            "approve",
            actor=actor,
            at=now,
            summary=f"Online application {application.pk} approved: {amount} due",
            data={"amount_due": str(amount), "vaccination": vaccination.pk},
            fields=["vaccination", "amount_due", "reviewed_by", "reviewed_at", "return_reason"],
        )
        application_mail(application, "approved")
    return Approval(application=application, amount_due=amount, fee_lines=a.fee_lines)


@refusing()
def application_issue(
    application,
    *,
    actor,
    method: str,
    reference: str = "",
    tendered: Decimal | None = None,
    expected_total: Decimal | None = None,
    on: date | None = None,
    now: datetime | None = None,
) -> IssueResult:
    """Payment received for an approved application: issue the license, tag and receipt
    with ``license_issue`` (documents archived there, so the resident sees them), the
    application date deciding the late penalty (NB Sec. 6-65(c)).

    ``actor`` is who issues it: the clerk at the counter, or the approving clerk when a
    provider's webhook pays (``Receipt.issued_by`` is required). ``expected_total`` is
    what the provider charged: a receipt for another amount is refused (the fee schedule
    changed in between), and the caller holds the payment for the clerk."""
    now = now or timezone.now()
    on = on or timezone.localdate(now)
    with transaction.atomic():
        application = _locked(application)
        if not application.may("issue"):
            raise _refused(_("Only an approved application can be paid and issued."))
        result = license_issue(
            animal=application.animal,
            owner=application.owner,
            actor=actor,
            on=on,
            method=method,
            reference=reference,
            tendered=tendered,
            vaccination=application.vaccination,
            applied_on=application.applied_on,
            now=now,
        )
        if expected_total is not None and result.receipt.total != expected_total:
            # Rolls back the license, tag and receipt: numbering stays gap-free.
            raise _refused(
                _(
                    "The amount paid (%(paid)s) is not the amount due today (%(due)s): the "
                    "clerk must finish this application."
                )
                % {"paid": expected_total, "due": result.receipt.total}
            )
        application.license, application.held_reason = result.license, ""
        application.apply(
            "issue",
            actor=actor,
            at=now,
            summary=(
                f"Online application {application.pk}: license {result.license.number}, "
                f"receipt {result.receipt.number}"
            ),
            data={"license": result.license.pk, "receipt": result.receipt.number},
            fields=["license", "held_reason"],
        )
        application_mail(application, "issued")
    return result


def application_hold(application, *, reason: str, now: datetime | None = None) -> None:
    """Money arrived but the license could not be issued: keep the case for the clerk."""
    now = now or timezone.now()
    with transaction.atomic():
        application = _locked(application)
        application.ensure("hold")
        application.held_reason = reason
        application.apply(
            "hold",
            at=now,
            summary=f"Online application {application.pk} paid but held: {reason}"[:300],
            fields=["held_reason"],
        )


# --- The resident's side: submit, fix a returned one, withdraw ---------------------------


def _vaccination_refusals(animal, fields, *, on, certificate, uses_vaccination) -> list[Check]:
    """The shape of the certificate as entered: a date not in the future, the vaccine's
    duration, the veterinarian (RAB-05: a licensed veterinarian's name and license
    number), and the file itself. Whether the date covers the term is the assessment's
    rabies check (LIC-05)."""
    if uses_vaccination is not None:
        if uses_vaccination.animal_id != animal.pk:
            return [
                Check(
                    APPLICATION,
                    "fail",
                    _("Choose this animal's vaccination."),
                    "",
                    "uses_vaccination",
                )
            ]
        return []
    checks = []

    def fail(field, message, section=""):
        checks.append(Check(APPLICATION, "fail", message, section, field))

    given = fields.get("vaccinated_on")
    if not given:
        fail("vaccinated_on", _("Enter the date of the vaccination from the certificate."))
    try:
        refuse_if_future(given, APPLICATION, field="vaccinated_on", today=on)
    except Refused as refused:  # beside the others: the resident fixes them all at once
        checks.extend(refused.checks)
    if not fields.get("duration_years"):
        fail("duration_years", _("Choose how long the vaccine is good for (on the certificate)."))
    rab05 = rule_citation(animal.jurisdiction, "RAB-05")
    if not fields.get("veterinarian_name"):
        fail("veterinarian_name", _("Enter the veterinarian's name from the certificate."), rab05)
    if not fields.get("veterinarian_license"):
        fail(
            "veterinarian_license",
            _("Enter the veterinarian's license number from the certificate."),
            rab05,
        )
    if not certificate:
        fail("certificate", _("Upload the veterinarian's rabies certificate (PDF, JPEG or PNG)."))
    return checks


def _assessment_refusals(animal, fields, *, on, uses_vaccination) -> list[Check]:
    """The counter's own checks (``license_assess``) with the application date today:
    a check the resident cannot pass online stops the application, with its section."""
    vaccination = uses_vaccination or RabiesVaccination(
        animal=animal,
        vaccinated_on=fields["vaccinated_on"],
        duration_years=fields["duration_years"],
        veterinarian_name=fields.get("veterinarian_name", ""),
    )
    a = license_assess(
        animal=animal, owner=animal.owner, on=on, applied_on=on, vaccination=vaccination
    )
    field = "uses_vaccination" if uses_vaccination else "vaccinated_on"
    return [
        replace(c, field=field) if c.label == str(_("Rabies vaccination")) else c
        for c in a.refusals
    ]


def _check_application(animal, fields, *, on, certificate, uses_vaccination) -> None:
    checks = _vaccination_refusals(
        animal, fields, on=on, certificate=certificate, uses_vaccination=uses_vaccination
    )
    if not checks:
        checks = _assessment_refusals(animal, fields, on=on, uses_vaccination=uses_vaccination)
    if checks:
        raise Refused(checks)


def _certificate_fields(fields: dict, uses_vaccination) -> dict:
    if uses_vaccination is not None:  # the one on file: nothing entered is kept
        return {
            name: None if name in ("vaccinated_on", "duration_years") else ""
            for name in CERTIFICATE_FIELDS
        }
    return {
        name: fields.get(name) or (None if name in ("vaccinated_on", "duration_years") else "")
        for name in CERTIFICATE_FIELDS
    }


def open_application_for(animal) -> OnlineApplication | None:
    return OnlineApplication.objects.filter(
        animal=animal, status__in=OPEN_APPLICATION_STATUSES
    ).first()


@refusing()
def application_submit(
    *,
    animal,
    actor,
    uses_vaccination=None,
    certificate=None,
    on: date | None = None,
    now: datetime | None = None,
    **fields,
) -> OnlineApplication:
    """A resident applies online for ``animal``'s license: renewal when it held one,
    else a new license. ``applied_on`` is today (NB Sec. 6-65(c): the application date
    decides the late penalty). Refused, with each check next to its field, when the
    counter would refuse it (``license_assess``) or the certificate is incomplete; an
    open application of the same animal is refused (one per animal, a unique constraint
    backs it)."""
    now = now or timezone.now()
    on = on or timezone.localdate(now)
    if animal.owner.user_id != actor.pk:
        raise _refused(_("Only the animal's owner can apply for its license."))
    if open_application_for(animal) is not None:
        raise _refused(_("This animal already has an open application."))
    _check_application(
        animal, fields, on=on, certificate=certificate, uses_vaccination=uses_vaccination
    )
    kind = ApplicationKind.RENEWAL if animal.licenses.exists() else ApplicationKind.NEW
    application = OnlineApplication(
        jurisdiction=animal.jurisdiction,
        kind=kind,
        animal=animal,
        owner=animal.owner,
        submitted_by=actor,
        submitted_at=now,
        status_changed_at=now,
        applied_on=on,
        uses_vaccination=uses_vaccination,
        **_certificate_fields(fields, uses_vaccination),
    )
    if certificate and uses_vaccination is None:
        application.certificate = certificate
    try:
        with transaction.atomic():
            application.save()
            Event.record(
                "licensing.application.submitted",
                application,
                actor=actor,
                jurisdiction=application.jurisdiction,
                at=now,
                summary=f"Online application {application.pk} ({kind}) for {animal}",
                data={"kind": kind, "applied_on": on.isoformat()},
            )
    except IntegrityError as exc:  # a double submit raced past the check above
        raise _refused(_("This animal already has an open application.")) from exc
    return application


@refusing()
def application_resubmit(
    application,
    *,
    actor,
    uses_vaccination=None,
    certificate=None,
    on: date | None = None,
    now: datetime | None = None,
    **fields,
) -> OnlineApplication:
    """The resident fixes a returned application and sends it back. The certificate file
    already uploaded is kept unless a new one comes; ``applied_on`` stays the first
    day it reached the city (NB Sec. 6-65(c))."""
    now = now or timezone.now()
    on = on or timezone.localdate(now)
    if application.submitted_by_id != actor.pk and application.owner.user_id != actor.pk:
        raise _refused(_("Only the animal's owner can change this application."))
    keep_file = certificate or (application.certificate if uses_vaccination is None else None)
    _check_application(
        application.animal,
        fields,
        on=on,
        certificate=keep_file,
        uses_vaccination=uses_vaccination,
    )
    values = _certificate_fields(fields, uses_vaccination)
    if certificate and uses_vaccination is None:
        values["certificate"] = certificate
    elif uses_vaccination is not None:
        values["certificate"] = ""
    with transaction.atomic():
        application = _locked(application)
        application.ensure("resubmit")
        values["uses_vaccination"] = uses_vaccination
        for name, value in values.items():
            setattr(application, name, value)
        application.apply(
            "resubmit",
            actor=actor,
            at=now,
            summary=f"Online application {application.pk} fixed and sent back",
            fields=list(values),
        )
    return application


@refusing()
def application_return(application, *, actor, reason: str, now: datetime | None = None):
    """The clerk sends the application back with what to fix (required): the resident
    fixes it without retyping the rest. E-mailed after commit."""
    now = now or timezone.now()
    reason = (reason or "").strip()
    if not reason:
        raise _refused(_("Say what the resident must fix."), "reason")
    with transaction.atomic():
        application = _locked(application)
        application.ensure("return")
        application.return_reason = reason
        application.reviewed_by, application.reviewed_at = actor, now
        application.apply(
            "return",
            actor=actor,
            at=now,
            summary=f"Online application {application.pk} returned: {reason}"[:300],
            data={"reason": reason},
            fields=["return_reason", "reviewed_by", "reviewed_at"],
        )
        application_mail(application, "returned")
    return application


@refusing()
def application_withdraw(application, *, actor, now: datetime | None = None):
    """The resident withdraws an application not yet paid for; the row is kept."""
    now = now or timezone.now()
    if application.owner.user_id != actor.pk:
        raise _refused(_("Only the animal's owner can withdraw this application."))
    with transaction.atomic():
        application = _locked(application)
        application.apply(
            "withdraw",
            actor=actor,
            at=now,
            summary=f"Online application {application.pk} withdrawn by the resident",
        )
    return application


def applications_mark_mailed(applications, *, actor, now: datetime | None = None) -> int:
    """The clerk mailed these issued licenses' tags (after printing the mailing list).
    A conditional update: a tag marked mailed already is not marked again."""
    now = now or timezone.now()
    marked = 0
    with transaction.atomic():
        for application in applications:
            done = OnlineApplication.objects.filter(
                pk=application.pk, status=ApplicationStatus.ISSUED, tag_mailed_at__isnull=True
            ).update(tag_mailed_at=now)
            if done:
                marked += 1
                Event.record(
                    "licensing.application.tag_mailed",
                    application,
                    actor=actor,
                    jurisdiction=application.jurisdiction,
                    at=now,
                    summary=f"Tag of online application {application.pk} mailed",
                )
    return marked


@refusing()
def application_certificate_arrived(
    *, animal, vaccination, now: datetime | None = None
) -> OnlineApplication | None:
    """A veterinary clinic's certificate for ``animal`` was recorded:
    an application the clerk returned to the resident waits on its rabies certificate, so
    it goes back to the clerk with this vaccination on file, ready for approval, and the
    owner is told by e-mail. None when the animal has no such application."""
    now = now or timezone.now()
    waiting = OnlineApplication.objects.filter(
        animal=animal, status__in=OnlineApplication.transition("certificate_arrived").sources
    ).first()
    if waiting is None or vaccination.animal_id != animal.pk:
        return None
    with transaction.atomic():
        application = _locked(waiting)
        application.ensure("certificate_arrived")
        values = {
            "uses_vaccination": vaccination,
            **_certificate_fields({}, vaccination),
            "certificate": "",
        }
        for name, value in values.items():
            setattr(application, name, value)
        application.apply(
            "certificate_arrived",
            at=now,
            summary=f"Online application {application.pk}: the clinic's certificate arrived",
            data={"vaccination": vaccination.pk},
            fields=list(values),
        )
        application_mail(application, "certificate_arrived")
    return application
