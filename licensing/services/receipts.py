"""Numbered receipts: one way to take money (dog licences, tags, transfers, kennels).

LIC-06, REC-01: every payment gets the next number of the city's gap-free series
(``numbering.receipt_number_allocate``, under a row lock in the payment's transaction);
a receipt is never deleted, a void is a new receipt with negative lines pointing at it.
"""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from licensing.models import LicenceStatus, Receipt, ReceiptLine, TagStatus
from licensing.services.documents import documents_void, receipt_documents_issue
from licensing.services.fees import Check, FeeLine, LicenceRefused
from licensing.services.numbering import receipt_number_allocate
from ordinance.models import Event
from ordinance.money import money_sum


def receipt_create(*, jurisdiction, payer, lines: list[FeeLine], method: str, reference: str,
                   actor, now: datetime, voids: Receipt | None = None,
                   void_reason: str = "") -> Receipt:
    """A numbered receipt with its lines (LIC-06, REC-01); call inside a transaction.

    A void copies the original's payer snapshot, so it reads the same as the original.
    """
    number = receipt_number_allocate(jurisdiction=jurisdiction)
    receipt = Receipt.objects.create(
        jurisdiction=jurisdiction, number=number, issued_at=now, issued_by=actor, payer=payer,
        payer_name=voids.payer_name if voids else payer.name,
        payer_address=voids.payer_address if voids else payer.address, method=method,
        reference=reference, total=money_sum(ln.amount for ln in lines),
        voids=voids, void_reason=void_reason,
    )
    ReceiptLine.objects.bulk_create(
        ReceiptLine(receipt=receipt, position=i, code=ln.code, description=ln.description,
                    amount=ln.amount, authority=ln.authority)
        for i, ln in enumerate(lines)
    )
    Event.record("licensing.receipt.issued", receipt, actor=actor, at=now,
                 summary=f"Receipt {number}: {receipt.total}",
                 data={"number": number, "total": str(receipt.total)})
    return receipt


def receipt_void(*, receipt: Receipt, actor, reason: str, now: datetime | None = None) -> Receipt:
    """Void a receipt by a new receipt with negative lines pointing at it (LIC-06).

    The licences it paid for become void; their tags are marked void, not returned to
    stock: the metal tag is already in the owner's hands, and a reissued number could
    then be worn by two dogs (LIC-14). A kennel application it paid for needs the fee
    again; the fee of an issued kennel licence is refused (KEN-08, see services.kennels).
    """
    now = now or timezone.now()
    with transaction.atomic():
        receipt = Receipt.objects.select_for_update().get(pk=receipt.pk)
        if receipt.voids_id is not None or Receipt.objects.filter(voids=receipt).exists():
            raise LicenceRefused([Check(_("Receipt"), "fail",
                                        _("This receipt is already voided or is itself a void."))])
        # Money and licence never disagree (LIC-06, KEN-08): an issued kennel licence's
        # fee is not voided under it.
        from licensing.services.kennels import kennel_receipt_void_refusal, kennel_receipt_voided

        refusal = kennel_receipt_void_refusal(receipt)
        if refusal:
            raise LicenceRefused([Check(_("Kennel licence"), "fail", refusal)])
        lines = [FeeLine(ln.code, _("Void: %(d)s") % {"d": ln.description}, -ln.amount,
                         ln.authority) for ln in receipt.lines.all()]
        void = receipt_create(jurisdiction=receipt.jurisdiction, payer=receipt.payer,
                              lines=lines, method=receipt.method, reference=receipt.reference,
                              actor=actor, now=now, voids=receipt, void_reason=reason)
        on = timezone.localdate(now)
        voided_licences = list(receipt.licences.all())
        for licence in voided_licences:
            licence.set_status(LicenceStatus.VOID, on=on, reason=reason)
            for tag in licence.tags.filter(status=TagStatus.ISSUED):  # saved: history kept
                tag.status, tag.status_changed_on = TagStatus.VOID, on
                tag.save(update_fields=["status", "status_changed_on"])
            Event.record("licensing.licence.voided", licence, actor=actor, at=now,
                         summary=reason, data={"void_receipt": void.number})
        kennel_receipt_voided(receipt=receipt, void=void, actor=actor, now=now)
        Event.record("licensing.receipt.voided", receipt, actor=actor, at=now, summary=reason,
                     data={"void_receipt": void.number})
        # The printed originals are voided too (REC-01: the archive shows what was issued
        # and that it no longer stands).
        documents_void(receipt, actor=actor, reason=reason, now=now)
        for licence in voided_licences:
            documents_void(licence, actor=actor, reason=reason, now=now)
        # The void receipt is itself a numbered receipt, printed like any other (REC-01).
        receipt_documents_issue(receipt=void, actor=actor, now=now)
    return void

