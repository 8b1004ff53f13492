"""Transfer of a current kennel license to a new owner (LIC-12, NB Sec. 6-65(d))."""

from datetime import date, datetime
from decimal import Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from licensing.models import KennelLicense, Receipt
from licensing.services.documents import receipt_documents_issue
from licensing.services.kennels.common import record_event, refused
from licensing.services.kennels.documents import kennel_document_issue
from licensing.services.receipts import FeeQuote, fee_line, fee_quote, receipt_create
from ordinance.fees import fee_amount
from ordinance.refusals import refusing


def kennel_transfer_fee(kennel, *, on: date) -> FeeQuote:
    """The transfer fee in force (LIC-12), shown before the payment, or why there is none."""
    return fee_quote(kennel.jurisdiction, "transfer", on=on)


@refusing()
def kennel_transfer(
    *,
    kennel,
    new_owner,
    actor,
    on: date,
    method: str,
    reference: str = "",
    tendered: Decimal | None = None,
    now: datetime | None = None,
) -> Receipt:
    """LIC-12 for kennels (NB Sec. 6-65(d)): the new owner takes over the current license,
    same number and expiry, for the transfer fee; a city without the fee cannot transfer."""
    now = now or timezone.now()
    if new_owner.pk == kennel.owner_id or new_owner.jurisdiction_id != kennel.jurisdiction_id:
        raise refused(_("Choose a different owner in the same city."), kennel, "LIC-12")
    fee = fee_amount(kennel.jurisdiction, "transfer", on=on)  # LIC-12: no fee, no transfer
    with transaction.atomic():
        kennel = KennelLicense.objects.select_for_update().select_related("owner").get(pk=kennel.pk)
        if not kennel.is_current(on):
            raise refused(_("Only a current kennel license can be transferred."), kennel, "LIC-12")
        previous = kennel.owner
        receipt = receipt_create(
            jurisdiction=kennel.jurisdiction,
            payer=new_owner,
            lines=[fee_line(fee)],
            method=method,
            reference=reference,
            tendered=tendered,
            actor=actor,
            now=now,
        )
        kennel.owner = new_owner
        kennel._change_reason = f"Transferred, receipt {receipt.number}"
        kennel.save(update_fields=["owner"])
        record_event(
            "licensing.kennel.transferred",
            kennel,
            actor,
            f"{previous.name} → {new_owner.name}",
            at=now,
            from_owner=previous.pk,
            to_owner=new_owner.pk,
            receipt=receipt.number,
        )
        # LIC-12, REC-01: the new owner's receipt and the license in their name.
        receipt_documents_issue(receipt=receipt, actor=actor, now=now)
        kennel_document_issue(kennel=kennel, actor=actor, now=now)
    return receipt
