"""Metal tags: stock received from the vendor, issue, and the duplicate for a lost tag.

LIC-08, LIC-10, LIC-14, REC-02. Numbers are claimed under a row lock
(``numbering.tag_claim``); a lost tag is marked lost, never reissued.
"""

from datetime import date, datetime
from decimal import Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from licensing.models import License, Tag, TagStatus, TagStock
from licensing.services.documents import IssueResult, issue_documents
from licensing.services.numbering import tag_claim
from licensing.services.receipts import fee_line, receipt_create
from ordinance.fees import fee_amount
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import rule_citation

# A screen safeguard against a mistyped range, not an ordinance value.
MAX_TAGS_PER_BATCH = 20000


def issue_tag(tag: Tag, *, license: License, on: date, actor=None, at=None) -> Tag:
    tag.issue(license=license, actor=actor, on=on, at=at)
    return tag


@refusing()
def tag_replace_lost(
    *,
    license: License,
    actor,
    on: date,
    method: str,
    reference: str = "",
    tendered: Decimal | None = None,
    tag_number: int | None = None,
    now: datetime | None = None,
) -> IssueResult:
    """LIC-10: mark the lost tag lost, charge the duplicate-tag fee, issue a new number."""
    now = now or timezone.now()
    with transaction.atomic():
        license = License.objects.select_for_update().get(pk=license.pk)
        if not license.is_current(on):
            raise Refused.because(  # LIC-10
                _("License"),
                _("The license is not current."),
                rule_citation(license.jurisdiction, "LIC-10"),
            )
        fee = fee_amount(license.jurisdiction, "duplicate_tag", on=on)  # LIC-10, FEE-05
        old = license.tags.filter(status=TagStatus.ISSUED).first()
        tag = tag_claim(
            jurisdiction=license.jurisdiction, year=license.expires_on.year, number=tag_number
        )
        if old:
            old.mark_lost(actor=actor, on=on, at=now)
        receipt = receipt_create(
            jurisdiction=license.jurisdiction,
            payer=license.owner,
            method=method,
            reference=reference,
            tendered=tendered,
            actor=actor,
            now=now,
            lines=[fee_line(fee)],
            regarding=[license],
        )
        issue_tag(tag, license=license, on=on, actor=actor, at=now)
        Event.record(
            "licensing.tag.duplicate_issued",
            license,
            actor=actor,
            at=now,
            summary=f"Duplicate tag {tag.number} ({tag.year})",
            data={
                "old_tag": old.number if old else None,
                "tag": tag.number,
                "receipt": receipt.number,
            },
        )
        result = IssueResult(license=license, receipt=receipt, tag=tag)
        # LIC-10, REC-01: the receipt and a certificate showing the new tag number.
        issue_documents(result, actor=actor, now=now)
    return result


@refusing()
def tag_stock_receive(
    *,
    jurisdiction,
    year: int,
    first_number: int,
    last_number: int,
    received_on: date,
    vendor: str,
    actor,
):
    """Enter a batch of numbered tags (LIC-08, REC-02); numbers must be new for that year."""
    if last_number - first_number + 1 > MAX_TAGS_PER_BATCH:
        raise Refused.because(
            _("Tag stock"),
            _("Enter at most %(n)s tags at a time.") % {"n": MAX_TAGS_PER_BATCH},
            rule_citation(jurisdiction, "LIC-08"),
            field="first_number",
        )
    with transaction.atomic():
        clash = Tag.objects.filter(
            jurisdiction=jurisdiction, year=year, number__range=(first_number, last_number)
        ).first()
        if clash:
            raise Refused.because(
                _("Tag stock"),
                _("Tag %(n)s of %(y)s is already in stock.") % {"n": clash.number, "y": year},
                rule_citation(jurisdiction, "REC-02"),
                field="first_number",
            )
        stock = TagStock.objects.create(
            jurisdiction=jurisdiction,
            year=year,
            first_number=first_number,
            last_number=last_number,
            received_on=received_on,
            vendor=vendor,
            recorded_by=actor,
        )
        Tag.objects.bulk_create(
            Tag(jurisdiction=jurisdiction, year=year, number=n, stock=stock)
            for n in range(first_number, last_number + 1)
        )
        Event.record("licensing.tag_stock.received", stock, actor=actor, summary=str(stock))
    return stock
