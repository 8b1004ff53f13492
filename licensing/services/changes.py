"""Changes residents report about their animal, applied by the clerk.

A resident's report is a ``ReportedChange`` with what they typed; it changes nothing on
the license. The clerk applies it with the counter's own service, so every check,
receipt and document is the counter's:

- new address: ``license_address_change`` (LIC-11; late when reported after the
  ordinance's days, counted to the day the resident reported it), after the new
  premises' animal limit (KEN-01);
- death: ``license_close`` (which marks the animal deceased, as at the counter), or
  ``animal_mark_deceased`` when no license is current;
- new owner: the new owner accepts on their own account first (a signed link e-mailed to
  them), then ``license_transfer`` (LIC-12, the transfer fee on the new owner's receipt);
- lost tag: ``tag_replace_lost`` (LIC-10, the duplicate-tag fee).

Or the clerk declines it with a reason. The resident is e-mailed either way, after commit.
"""

import logging
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from kernel.checks import refuse_if_future
from licensing.models import (
    Animal,
    ChangeKind,
    ChangeStatus,
    License,
    LicenseStatus,
    Owner,
    ReportedChange,
)
from licensing.models.online import OPEN_CHANGE_STATUSES
from licensing.services import registry
from licensing.services.licenses import (
    NewAddress,
    address_change_timing,
    license_address_change,
    license_close,
    license_transfer,
)
from licensing.services.limits import premises_limit_check
from licensing.services.tags import tag_replace_lost
from ordinance.fees import FeeAmount, fee_amount
from ordinance.models import Event
from ordinance.refusals import Check, Refused, refusing
from ordinance.rules import RuleUnavailable

logger = logging.getLogger(__name__)

TRANSFER_SALT = "licensing.reported_change.transfer"
# The fee the counter charges when the clerk applies each kind (LIC-10, LIC-12).
FEE_CODES = {ChangeKind.LOST_TAG: "duplicate_tag", ChangeKind.TRANSFER: "transfer"}
NEEDS_LICENSE = (ChangeKind.ADDRESS, ChangeKind.TRANSFER, ChangeKind.LOST_TAG)


# --- What the resident is told before and after reporting --------------------------------


@dataclass(frozen=True)
class ChangeFee:
    """The fee a kind of change costs (shown with its section), or why it is not set."""

    amount: FeeAmount | None
    problem: str = ""


def change_fee(jurisdiction, kind: str, *, on: date) -> ChangeFee | None:
    code = FEE_CODES.get(kind)
    if code is None:
        return None
    try:
        return ChangeFee(fee_amount(jurisdiction, code, on=on))
    except RuleUnavailable as exc:  # FEE-01: a blank the city has not filled in
        return ChangeFee(None, str(exc))


def change_timing(change: ReportedChange):
    """LIC-11: for a new address, the day it was due and whether the report was late."""
    if change.kind != ChangeKind.ADDRESS:
        return None
    try:
        return address_change_timing(
            change.jurisdiction,
            moved_on=change.happened_on,
            reported_on=timezone.localdate(change.submitted_at),
        )
    except RuleUnavailable:
        return None


def current_license(animal: Animal, *, on: date) -> License | None:
    """The license the change applies to: the animal's current one."""
    return next(
        (
            lic
            for lic in animal.licenses.filter(status=LicenseStatus.ACTIVE).order_by("-term_start")
            if lic.is_current(on)
        ),
        None,
    )


def transfer_token(change: ReportedChange) -> str:
    return signing.dumps({"change": change.pk}, salt=TRANSFER_SALT)


def change_for_token(token: str) -> ReportedChange | None:
    try:
        data = signing.loads(token, salt=TRANSFER_SALT)
    except signing.BadSignature:
        return None
    return (
        ReportedChange.objects.select_related("animal", "owner", "jurisdiction", "license")
        .filter(pk=data.get("change"), kind=ChangeKind.TRANSFER)
        .first()
    )


def site_url(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


# --- The resident reports ------------------------------------------------------------------


@refusing()
def change_report(
    *,
    animal: Animal,
    kind: str,
    happened_on: date,
    details: dict,
    user,
    now: datetime | None = None,
) -> ReportedChange:
    """Record what the resident reports about their own animal; nothing else changes.

    A transfer waits for the new owner's acceptance: they are e-mailed a link.
    """
    now = now or timezone.now()
    today = timezone.localdate(now)
    refuse_if_future(happened_on, _("Date"), field="happened_on", today=today)
    with transaction.atomic():
        animal = Animal.objects.select_for_update().select_related("owner").get(pk=animal.pk)
        if animal.owner.user_id != user.pk:  # the view filters; the service holds it too
            raise Refused.because(_("Animal"), _("This animal is not on file as yours."))
        if not animal.is_alive():
            raise Refused.because(
                _("Animal"), _("This animal is no longer on file as living with you.")
            )
        if animal.reported_changes.filter(kind=kind, status__in=OPEN_CHANGE_STATUSES).exists():
            raise Refused.because(
                _("Report"), _("You already reported this change; the clerk has it.")
            )
        license = current_license(animal, on=today)
        if kind in NEEDS_LICENSE and license is None:
            raise Refused.because(
                _("License"),
                _(
                    "No current license is on file for this animal: call or visit the "
                    "clerk at City Hall."
                ),
            )
        transfer = kind == ChangeKind.TRANSFER
        change = ReportedChange.objects.create(
            jurisdiction=animal.jurisdiction,
            kind=kind,
            status=ChangeStatus.WAITING_NEW_OWNER if transfer else ChangeStatus.SUBMITTED,
            animal=animal,
            owner=animal.owner,
            license=license,
            submitted_by=user,
            submitted_at=now,
            happened_on=happened_on,
            details=details,
        )
        Event.record(
            "licensing.change.reported",
            change,
            actor=user,
            jurisdiction=change.jurisdiction,
            at=now,
            summary=f"{change.get_kind_display()}: {animal.name}",
            data={"kind": kind, "happened_on": happened_on.isoformat(), "details": details},
        )
        if transfer:
            transaction.on_commit(lambda: _mail_transfer_invitation(change.pk))
    return change


@refusing()
def change_accept_transfer(*, change: ReportedChange, user, now: datetime | None = None):
    """The new owner, signed in, accepts the animal: the clerk then applies the transfer."""
    now = now or timezone.now()
    with transaction.atomic():
        change = ReportedChange.objects.select_for_update().get(pk=change.pk)
        if user.pk == change.submitted_by_id or change.owner.user_id == user.pk:
            raise Refused.because(
                _("New owner"), _("The new owner accepts on their own account, not yours.")
            )
        change.ensure("accept_transfer")
        change.new_owner_user = user
        change.apply(
            "accept_transfer",
            actor=user,
            at=now,
            summary=_("The new owner accepted"),
            data={"user": user.pk},
            fields=["new_owner_user"],
        )
    return change


# --- The clerk applies or declines -----------------------------------------------------


@dataclass
class Applied:
    change: ReportedChange
    message: str
    receipt: object = None  # the Receipt the change issued, if it took a fee


@dataclass(frozen=True)
class ClerkEntry:
    """What the clerk enters to apply a report (the apply form's cleaned data): the
    payment of a kind that takes a fee, the tag handed over, whether a move stays in the
    city, and a note for the resident."""

    method: str = ""
    reference: str = ""
    tag_number: int | None = None
    amount_tendered: Decimal | None = None
    within_city: bool = True
    note: str = ""


@refusing()
def change_apply(
    *,
    change: ReportedChange,
    actor,
    entry: ClerkEntry = ClerkEntry(),
    on: date | None = None,
    now: datetime | None = None,
) -> Applied:
    """Apply a waiting report with the counter's service for its kind; refused as a whole
    (nothing kept) when that service refuses."""
    now = now or timezone.now()
    on = on or timezone.localdate(now)
    with transaction.atomic():
        change = (
            ReportedChange.objects.select_for_update(of=("self",))
            .select_related("animal", "owner", "jurisdiction", "license")
            .get(pk=change.pk)
        )
        if not change.may("apply_change"):
            raise Refused.because(
                _("Reported change"),
                _("This report is %(status)s: only a report waiting for the clerk is applied.")
                % {"status": str(change.get_status_display()).lower()},
            )
        apply = _APPLY[change.kind]
        receipt, message = apply(
            change,
            actor=actor,
            on=on,
            now=now,
            method=entry.method,
            reference=entry.reference,
            tag_number=entry.tag_number,
            tendered=entry.amount_tendered,
            within_city=entry.within_city,
        )
        change.handled_by, change.handled_at, change.handled_note = actor, now, entry.note
        change.receipt = receipt
        change.apply(
            "apply_change",
            actor=actor,
            at=now,
            summary=message,
            data={"receipt": receipt.number if receipt else None},
            fields=["handled_by", "handled_at", "handled_note", "receipt"],
        )
        transaction.on_commit(lambda: _mail_outcome(change.pk))
    return Applied(change=change, message=message, receipt=receipt)


@refusing()
def change_decline(
    *, change: ReportedChange, actor, reason: str, now: datetime | None = None
) -> ReportedChange:
    now = now or timezone.now()
    if not reason.strip():
        raise Refused.because(_("Reason"), _("Say why, for the resident."), field="reason")
    with transaction.atomic():
        change = ReportedChange.objects.select_for_update().get(pk=change.pk)
        change.ensure("decline")
        change.handled_by, change.handled_at, change.handled_note = actor, now, reason
        change.apply(
            "decline",
            actor=actor,
            at=now,
            summary=reason[:200],
            data={"reason": reason},
            fields=["handled_by", "handled_at", "handled_note"],
        )
        transaction.on_commit(lambda: _mail_outcome(change.pk))
    return change


def _license(change: ReportedChange, on: date) -> License:
    license = change.license or current_license(change.animal, on=on)
    if license is None:
        raise Refused.because(_("License"), _("No current license is on file for this animal."))
    return license


def _apply_address(change, *, actor, on, now, within_city, **_unused):
    details, license = change.details, _license(change, on)
    if within_city:  # KEN-01: the animal joins the count at the new address
        premises = registry.premises_for_address(
            jurisdiction=change.jurisdiction,
            address_line=details.get("address_line", ""),
            unit=details.get("unit", ""),
            city=details.get("city", ""),
            state=details.get("state", "MN"),
            postal_code=details.get("postal_code", ""),
        )
        limit = premises_limit_check(premises=premises, on=on, adding=change.animal)
        if not limit.ok:
            raise Refused([Check(_("Animal limit"), "fail", limit.message, limit.citation)])
    result = license_address_change(
        license=license,
        moved_on=change.happened_on,
        reported_on=timezone.localdate(change.submitted_at),  # LIC-11: the day reported
        within_city=within_city,
        address=NewAddress.of(details),
        actor=actor,
        now=now,
    )
    note = (
        _("Reported late: due by %(due)s (%(cite)s).")
        if result.late
        else _("Reported in time (due by %(due)s, %(cite)s).")
    ) % {"due": date_format(result.due_on), "cite": result.citation}
    return None, _("Address change recorded. ") + note


def _apply_death(change, *, actor, on, now, **_unused):
    license = change.license or current_license(change.animal, on=on)
    if license is not None and license.status == LicenseStatus.ACTIVE:
        # As at the counter: closing the license marks the animal deceased too.
        license_close(
            license=license, reason="deceased", on=change.happened_on, actor=actor, now=now
        )
    else:
        registry.animal_mark_deceased(
            animal=change.animal, actor=actor, on=on, died_on=change.happened_on
        )
    return None, _("The animal is recorded as deceased.")


def _apply_lost_tag(change, *, actor, on, now, method, reference, tag_number, tendered, **_unused):
    result = tag_replace_lost(
        license=_license(change, on),
        actor=actor,
        on=on,
        method=method,
        reference=reference,
        tendered=tendered,
        tag_number=tag_number,
        now=now,
    )
    return result.receipt, _("Tag %(t)s issued; receipt %(n)s.") % {
        "t": result.tag.number,
        "n": result.receipt.number,
    }


def _apply_transfer(change, *, actor, on, now, method, reference, tendered, **_unused):
    new_owner = _new_owner(change, actor=actor, now=now)
    result = license_transfer(
        license=_license(change, on),
        new_owner=new_owner,
        actor=actor,
        on=on,
        method=method,
        reference=reference,
        tendered=tendered,
        now=now,
    )
    return result.receipt, _("License transferred to %(name)s; receipt %(n)s.") % {
        "name": new_owner.name,
        "n": result.receipt.number,
    }


def _new_owner(change: ReportedChange, *, actor, now) -> Owner:
    """The new owner's record in the city: the one already linked to their account, else
    one made from what the reporting resident entered, linked to the accepting account."""
    user = change.new_owner_user
    found = Owner.objects.filter(jurisdiction=change.jurisdiction, user=user).first()
    if found is not None:
        return found
    d = change.details
    return registry.owner_create(
        jurisdiction=change.jurisdiction,
        actor=actor,
        now=now,
        user=user,
        first_name=d.get("first_name", ""),
        last_name=d.get("last_name", ""),
        address_line=d.get("address_line", ""),
        unit=d.get("unit", ""),
        city=d.get("city", ""),
        state=d.get("state", "MN"),
        postal_code=d.get("postal_code", ""),
        phone=d.get("phone", ""),
        email=d.get("email", ""),
    )


_APPLY = {
    ChangeKind.ADDRESS: _apply_address,
    ChangeKind.DEATH: _apply_death,
    ChangeKind.LOST_TAG: _apply_lost_tag,
    ChangeKind.TRANSFER: _apply_transfer,
}


# --- E-mail, after commit ------------------------------------------------------------------


def _send(subject: str, template: str, context: dict, to: str, *, what: str, pk: int) -> None:
    if not to:
        return
    body = render_to_string(template, context)
    try:
        EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [to]).send()
    except Exception:  # the report and its status are kept; the page shows them
        logger.exception("%s e-mail for reported change %s failed", what, pk)


def _mail_transfer_invitation(pk: int) -> None:
    change = ReportedChange.objects.select_related("animal", "owner", "jurisdiction").get(pk=pk)
    url = site_url(reverse("licensing:transfer_accept", args=[transfer_token(change)]))
    _send(
        _("%(city)s: %(owner)s transferred %(animal)s to you")
        % {
            "city": change.jurisdiction.short_name,
            "owner": change.owner.name,
            "animal": change.animal.name,
        },
        "licensing/emails/transfer_invitation.txt",
        {"change": change, "url": url},
        change.details.get("email", ""),
        what="Transfer invitation",
        pk=pk,
    )


def _mail_outcome(pk: int) -> None:
    change = ReportedChange.objects.select_related(
        "animal", "owner", "jurisdiction", "submitted_by"
    ).get(pk=pk)
    to = change.submitted_by.email or change.owner.email
    url = site_url(reverse("licensing:change_detail", args=[change.pk]))
    _send(
        _("%(city)s: your report about %(animal)s: %(status)s")
        % {
            "city": change.jurisdiction.short_name,
            "animal": change.animal.name,
            "status": str(change.get_status_display()).lower(),
        },
        "licensing/emails/change_outcome.txt",
        {"change": change, "url": url},
        to,
        what="Outcome",
        pk=pk,
    )
