"""Voiding a receipt, and what it paid for (LIC-06, REC-01, LIC-14, KEN-08).

A void sits above both ``services.receipts`` (which numbers the void receipt) and
``services.kennels`` (whose licenses a receipt may have paid for), so neither of them
imports the other to void: ``kennels`` takes payments through ``receipts``, and this
module asks ``kennels`` whether the void may go ahead and tells it when it did.
"""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from licensing.models import Receipt, TagStatus
from licensing.services.documents import documents_void, receipt_documents_issue
from licensing.services.kennels.payments import kennel_receipt_void_refusal, kennel_receipt_voided
from licensing.services.receipts import FeeLine, receipt_create
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import rule_citation


@refusing()
def receipt_void(*, receipt: Receipt, actor, reason: str, now: datetime | None = None) -> Receipt:
    """Void a receipt by a new receipt with negative lines pointing at it (LIC-06).

    The licenses it paid for become void; their tags are marked void, not returned to
    stock: the metal tag is already in the owner's hands, and a reissued number could
    then be worn by two dogs (LIC-14). A kennel application it paid for needs the fee
    again; the fee of an issued kennel license is refused (KEN-08, see services.kennels).
    """
    now = now or timezone.now()
    with transaction.atomic():
        receipt = Receipt.objects.select_for_update().get(pk=receipt.pk)
        _refuse_unless_voidable(receipt)
        void = _void_receipt_create(receipt, actor=actor, reason=reason, now=now)
        voided_licenses = _licenses_void(receipt, void, actor=actor, reason=reason, now=now)
        kennel_receipt_voided(receipt=receipt, void=void, actor=actor, now=now)
        Event.record(
            "licensing.receipt.voided",
            receipt,
            actor=actor,
            at=now,
            summary=reason,
            data={"void_receipt": void.number},
        )
        # The printed originals are voided too (REC-01: the archive shows what was issued
        # and that it no longer stands); nothing printed yet means nothing to void.
        for obj in (receipt, *voided_licenses):
            documents_void(obj, actor=actor, reason=reason, now=now)
        # The void receipt is itself a numbered receipt, printed like any other (REC-01).
        receipt_documents_issue(receipt=void, actor=actor, now=now)
    return void


def _refuse_unless_voidable(receipt: Receipt) -> None:
    if receipt.voids_id is not None or Receipt.objects.filter(voids=receipt).exists():
        raise Refused.because(
            _("Receipt"),
            _("This receipt is already voided or is itself a void."),
            rule_citation(receipt.jurisdiction, "LIC-06"),
        )
    # Money and license never disagree (LIC-06, KEN-08): an issued kennel license's fee is
    # not voided under it.
    refusal = kennel_receipt_void_refusal(receipt)
    if refusal:
        raise Refused.because(  # KEN-08
            _("Kennel license"), refusal, rule_citation(receipt.jurisdiction, "KEN-08")
        )


def _void_receipt_create(receipt: Receipt, *, actor, reason: str, now: datetime) -> Receipt:
    lines = [
        FeeLine(ln.code, _("Void: %(d)s") % {"d": ln.description}, -ln.amount, ln.authority)
        for ln in receipt.lines.all()
    ]
    return receipt_create(
        jurisdiction=receipt.jurisdiction,
        payer=receipt.payer,
        lines=lines,
        method=receipt.method,
        reference=receipt.reference,
        actor=actor,
        now=now,
        voids=receipt,
        void_reason=reason,
    )


def _licenses_void(receipt: Receipt, void: Receipt, *, actor, reason: str, now: datetime):
    on = timezone.localdate(now)
    licenses = list(receipt.licenses.all())
    for license in licenses:
        license.void(actor=actor, on=on, reason=reason, at=now, data={"void_receipt": void.number})
        for tag in license.tags.filter(status=TagStatus.ISSUED):  # saved: history kept
            tag.void(actor=actor, on=on, reason=reason, at=now)
    return licenses
