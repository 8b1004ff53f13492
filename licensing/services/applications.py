"""Online applications (issue 12): the clerk's approval and the issue that follows payment.

A resident's application is never a license by itself. The clerk approves it, which
records the uploaded rabies certificate with ``vaccination_record`` (RAB-01, RAB-05) and
fixes the amount due from ``license_assess``, the counter's own checks and fee lines.
Payment (at city hall, by mail, or by card through a provider) then issues it with
``license_issue``, with the application date deciding the term and the late penalty
(NB Sec. 6-65(c), LIC-13, FEE-03).

Every step is a transition on the row, recorded as an Event, inside one transaction; a
refusal leaves everything as it was.
"""

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ordinance.refusals import Check, Refused, refusing

from ..models import OnlineApplication
from ..models.online import ApplicationStatus
from .assessment import license_assess
from .documents import IssueResult
from .licenses import license_issue
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
        if application.status != ApplicationStatus.SUBMITTED:
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
        application.transition(
            ApplicationStatus.APPROVED,
            allowed=(ApplicationStatus.SUBMITTED,),
            actor=actor,
            at=now,
            action="licensing.application.approved",
            summary=f"Online application {application.pk} approved: {amount} due",
            data={"amount_due": str(amount), "vaccination": vaccination.pk},
            vaccination=vaccination,
            amount_due=amount,
            reviewed_by=actor,
            reviewed_at=now,
            return_reason="",
        )
    return Approval(application=application, amount_due=amount, fee_lines=a.fee_lines)


@refusing()
def application_issue(
    application,
    *,
    actor,
    method: str,
    reference: str = "",
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
        if application.status not in (ApplicationStatus.APPROVED, ApplicationStatus.PAYMENT_HELD):
            raise _refused(_("Only an approved application can be paid and issued."))
        result = license_issue(
            animal=application.animal,
            owner=application.owner,
            actor=actor,
            on=on,
            method=method,
            reference=reference,
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
        application.transition(
            ApplicationStatus.ISSUED,
            allowed=(ApplicationStatus.APPROVED, ApplicationStatus.PAYMENT_HELD),
            actor=actor,
            at=now,
            action="licensing.application.issued",
            summary=(
                f"Online application {application.pk}: license {result.license.number}, "
                f"receipt {result.receipt.number}"
            ),
            data={"license": result.license.pk, "receipt": result.receipt.number},
            license=result.license,
            held_reason="",
        )
    return result


def application_hold(application, *, reason: str, now: datetime | None = None) -> None:
    """Money arrived but the license could not be issued: keep the case for the clerk."""
    now = now or timezone.now()
    with transaction.atomic():
        application = _locked(application)
        application.transition(
            ApplicationStatus.PAYMENT_HELD,
            allowed=(ApplicationStatus.APPROVED, ApplicationStatus.PAYMENT_HELD),
            actor=None,
            at=now,
            action="licensing.application.held",
            summary=f"Online application {application.pk} paid but held: {reason}"[:300],
            held_reason=reason,
        )
