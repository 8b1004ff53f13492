"""Kennel fees and their receipts (FEE-02, LIC-06, REC-01), and what a voided fee receipt
means for the kennel licenses it paid for (KEN-08)."""

from datetime import date, datetime
from decimal import Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from licensing.models import KennelLicense, KennelStatus, Receipt
from licensing.services.assessment import fee_lines
from licensing.services.documents import receipt_documents_issue
from licensing.services.kennels.common import ISSUED, record_event, refused, require_status
from licensing.services.kennels.terms import kennel_is_late, kennel_term_rules
from licensing.services.receipts import FeeLine, receipt_create
from ordinance.fees import fee_amount
from ordinance.models import Event
from ordinance.refusals import refusing
from ordinance.rules import rule_citation


@refusing()
def kennel_fee_lines(kennel, *, on: date) -> list[FeeLine]:
    """The kennel fee (FEE-02) and, when late, the penalty (LIC-13, FEE-03), by the same
    fee-line code as dog licenses. Raises FeeNotSet (a RuleUnavailable) while the council
    has set no fee."""
    fee = fee_amount(kennel.jurisdiction, "kennel_license", on=on)
    rules = kennel_term_rules(kennel, on=on)
    late = kennel_is_late(kennel, on=on, rules=rules) if rules else False
    return fee_lines(
        fee,
        late=late,
        rate=rules["late_penalty_rate"] if rules else None,
        penalty_code="kennel_license_late_penalty",
    )


@refusing()
def kennel_fee_collect(
    *, kennel, method: str, reference: str, actor, now: datetime, tendered: Decimal | None = None
) -> Receipt:
    """Take the fee and issue a numbered receipt (LIC-06, REC-01) through the one receipt
    service; Glencoe takes it with the application (701 Subd. 4(C)), North Branch at the
    latest when issuing."""
    if kennel.fee_paid:
        raise refused(
            _("The kennel fee has already been paid (receipt %(n)s).")
            % {"n": kennel.receipt.number},
            kennel,
        )
    require_status(kennel, KennelStatus.APPLIED, KennelStatus.UNDER_REVIEW, KennelStatus.APPROVED)
    on = timezone.localdate(now)
    lines = kennel_fee_lines(kennel, on=on)  # FEE-02: a fee not yet set refuses (FeeNotSet)
    with transaction.atomic():
        kennel = KennelLicense.objects.select_for_update().select_related("owner").get(pk=kennel.pk)
        if kennel.fee_paid:
            raise refused(_("The kennel fee has already been paid."), kennel)
        receipt = receipt_create(
            jurisdiction=kennel.jurisdiction,
            payer=kennel.owner,
            lines=lines,
            method=method,
            reference=reference,
            tendered=tendered,
            actor=actor,
            now=now,
        )
        kennel.receipt = receipt
        kennel.save(update_fields=["receipt"])
        record_event(
            "licensing.kennel.fee_paid",
            kennel,
            actor,
            f"Receipt {receipt.number}",
            at=now,
            receipt=receipt.number,
            total=str(receipt.total),
        )
        receipt_documents_issue(receipt=receipt, actor=actor, now=now)  # REC-01
    return receipt


@refusing()
def kennel_fee_replace(
    *, kennel, method: str, reference: str, actor, now: datetime, tendered: Decimal | None = None
) -> Receipt:
    """Take an issued kennel license's fee again (the first payment failed: a bounced
    check), on a new receipt with the same lines, so the first receipt can then be voided
    without leaving the license unpaid (LIC-06, REC-01, KEN-08)."""
    with transaction.atomic():
        kennel = KennelLicense.objects.select_for_update().get(pk=kennel.pk)
        require_status(kennel, *ISSUED)
        if not kennel.fee_paid:
            section = rule_citation(kennel.jurisdiction, "KEN-08")
            if section:
                message = _(
                    "This license's fee receipt is already voided; revoke the "
                    "license or take the fee with a new payment (%(section)s)."
                ) % {"section": section}
            else:
                message = _(
                    "This license's fee receipt is already voided; revoke the "
                    "license or take the fee with a new payment."
                )
            raise refused(message, kennel, rule="KEN-08")
        old = kennel.receipt
        lines = [
            FeeLine(ln.code, ln.description, ln.amount, ln.authority) for ln in old.lines.all()
        ]
        receipt = receipt_create(
            jurisdiction=kennel.jurisdiction,
            payer=kennel.owner,
            lines=lines,
            method=method,
            reference=reference,
            tendered=tendered,
            actor=actor,
            now=now,
        )
        kennel.receipt = receipt
        kennel._change_reason = f"Fee receipt {old.number} replaced by {receipt.number}"
        kennel.save(update_fields=["receipt"])
        Event.record(
            "licensing.kennel.fee_replaced",
            kennel,
            actor=actor,
            at=now,
            summary=f"Fee receipt {old.number} replaced by receipt {receipt.number}",
            data={
                "old_receipt": old.number,
                "receipt": receipt.number,
                "total": str(receipt.total),
            },
        )
        receipt_documents_issue(receipt=receipt, actor=actor, now=now)  # REC-01
    return receipt


def kennel_fee_voided_reason(kennel) -> str:
    """Why an application whose fee receipt was voided needs the fee again, else ""."""
    if kennel.receipt_id is None or kennel.fee_paid:
        return ""
    values = {
        "n": kennel.receipt.number,
        "v": kennel.receipt.voided_by.number,
        "section": rule_citation(kennel.jurisdiction, "LIC-06"),
    }
    if values["section"]:
        return (
            _(
                "The kennel fee receipt %(n)s was voided (void receipt %(v)s): the fee must be "
                "paid again before the license can be issued (%(section)s)."
            )
            % values
        )
    return (
        _(
            "The kennel fee receipt %(n)s was voided (void receipt %(v)s): the fee must be "
            "paid again before the license can be issued."
        )
        % values
    )


def kennel_receipt_void_refusal(receipt: Receipt) -> str:
    """Why this receipt cannot be voided, else "" (LIC-06, KEN-08): it paid the fee of an
    issued kennel license, and money and license must never disagree. Locks the kennel
    licenses it paid for (call inside ``receipt_void``'s transaction), so an issuance
    running now waits and then sees the void."""
    kennels = list(KennelLicense.objects.select_for_update().filter(receipt=receipt).order_by("pk"))
    issued = [k.number for k in kennels if k.status in ISSUED]
    if not issued:
        return ""
    values = {
        "n": receipt.number,
        "k": ", ".join(issued),
        "section": rule_citation(receipt.jurisdiction, "KEN-08"),
    }
    if values["section"]:
        return (
            _(
                "Receipt %(n)s paid the fee of kennel license %(k)s, which has been issued: "
                "voiding it would leave an issued license unpaid. Revoke the license first "
                "(notice, hearing and decision, %(section)s), or take the fee again on the "
                "license's page (“Replace the fee payment”) and then void this receipt."
            )
            % values
        )
    return (
        _(
            "Receipt %(n)s paid the fee of kennel license %(k)s, which has been issued: "
            "voiding it would leave an issued license unpaid. Revoke the license first "
            "(notice, hearing and decision), or take the fee again on the "
            "license's page (“Replace the fee payment”) and then void this receipt."
        )
        % values
    )


def kennel_receipt_voided(*, receipt: Receipt, void: Receipt, actor, now: datetime):
    """Record on each kennel license the receipt paid for that its fee was voided: an
    application not yet issued (or denied, or revoked) needs the fee again before it can
    be issued (``KennelLicense.fee_paid``). Called by ``receipt_void`` after
    ``kennel_receipt_void_refusal`` found nothing to refuse."""
    for kennel in KennelLicense.objects.filter(receipt=receipt).order_by("pk"):
        Event.record(
            "licensing.kennel.fee_voided",
            kennel,
            actor=actor,
            at=now,
            summary=f"Fee receipt {receipt.number} voided by receipt {void.number}; "
            f"the fee is due again",
            data={"receipt": receipt.number, "void_receipt": void.number, "status": kennel.status},
        )
