"""Documents of the counter, issued through notices: receipt, 80 mm slip, license certificate.

The use-case services (``license_issue``, ``license_transfer``, ``tag_replace_lost``,
``receipt_void``, the kennel services) call these inside their own transaction, so no
record is ever left without its documents. Archived as issued (architecture.md
"Documents"); re-printing prints the archived copy.
"""

from dataclasses import dataclass
from datetime import date, datetime

from django.utils import timezone
from django.utils.translation import gettext as _

from licensing.models import License, Receipt, Tag
from ordinance.rules import rule_in_force

RECEIPT_KINDS = ("receipt", "receipt_80mm")


@dataclass
class IssueResult:
    """What a counter use case hands over: the license, its receipt and tag, whose
    documents ``issue_documents`` issues (``license_issue``, ``license_transfer``,
    ``tag_replace_lost``)."""

    license: License
    receipt: Receipt
    tag: Tag | None


def _receipt_context(receipt: Receipt, *, tag: Tag | None, license: License | None) -> dict:
    return {
        "receipt": {
            "number": receipt.number,
            "issued_at": receipt.issued_at,
            "payer_name": receipt.payer_name,
            "payer_address": receipt.payer_address,
            "method": receipt.get_method_display(),
            "reference": receipt.reference,
            "total": receipt.total,
            "voids": receipt.voids.number if receipt.voids else None,
            "voids_issued_at": receipt.voids.issued_at if receipt.voids else None,
            "void_reason": receipt.void_reason,
            # A void gives the money back: the refund as a positive amount.
            "refunded": -receipt.total if receipt.voids_id else None,
            "amount_tendered": receipt.amount_tendered,
            "change_due": receipt.change_due,
            "lines": [
                {
                    "description": ln.description,
                    "amount": ln.amount,
                    "refund": -ln.amount,
                    "authority": ln.authority,
                }
                for ln in receipt.lines.all()
            ],
        },
        "tag": {"number": tag.number, "year": tag.year} if tag else None,
        "license": {
            "number": license.number,
            "expires_on": license.expires_on,
            "animal": license.animal.name,
        }
        if license
        else None,
    }


def _certificate_context(license: License, *, tag: Tag | None, on: date) -> dict:
    legend = rule_in_force(license.jurisdiction, "tag_legend", on=on)
    expiry = rule_in_force(license.jurisdiction, "license_expiry", on=on)
    animal, owner, vacc = license.animal, license.owner, license.vaccination
    return {
        "license": {
            "number": license.number,
            "term_start": license.term_start,
            "expires_on": license.expires_on,
            "issued_on": license.issued_on,
            "expiry_citation": expiry.citation,
        },
        "tag": {
            "number": tag.number,
            "year": tag.year,
            "legend": legend.value,
            "citation": legend.citation,
        }
        if tag
        else None,
        "animal": {
            "name": animal.name,
            "species": animal.get_species_display(),
            "breed": animal.breed,
            "color": animal.color,
            "sex": animal.get_sex_display(),
            "date_of_birth": animal.date_of_birth,
        },
        "owner": {"name": owner.name, "address": owner.address},
        "vaccination": {
            "vaccinated_on": vacc.vaccinated_on,
            "veterinarian": vacc.veterinarian_name,
            "rabies_tag": vacc.rabies_tag_number,
        }
        if vacc
        else None,
    }


def receipt_documents_issue(
    *,
    receipt: Receipt,
    actor,
    tag: Tag | None = None,
    license: License | None = None,
    now: datetime | None = None,
    render_after_commit: bool = True,
):
    """Issue the Letter receipt and the 80 mm tag-and-receipt slip (LIC-06, REC-01).

    Both are issued here, in the use case's transaction: number, frozen data, who and
    when. Neither is laid out in it: the worker lays both out once the sale commits, and
    a print that comes first lays the one printed out on the spot, from the same frozen
    data (``notices.services.rendering_deferred``). The counter answers without waiting
    for WeasyPrint, and a sale rolled back leaves nothing to lay out.
    ``render_after_commit=False``: the caller queues them with papers of its own."""
    from notices.services import document_issue, documents_render_after_commit, rendering_deferred

    now = now or timezone.now()
    context = _receipt_context(receipt, tag=tag, license=license)
    owner_user = receipt.payer.user if receipt.payer else None
    title = _("Void receipt") if receipt.voids_id else _("Receipt")
    with rendering_deferred():
        documents = [
            document_issue(
                kind=kind,
                template=f"{kind}.html",
                context=context,
                now=now,
                jurisdiction=receipt.jurisdiction,
                actor=actor,
                title=title,
                number=str(receipt.number),
                subject=receipt,
                owner_user=owner_user,
            )
            for kind in RECEIPT_KINDS
        ]
    if render_after_commit:
        documents_render_after_commit(documents)
    return documents


def license_certificate_issue(
    *, license: License, actor, tag: Tag | None = None, now: datetime | None = None
):
    from notices.services import document_issue

    now = now or timezone.now()
    return document_issue(
        kind="license_certificate",
        template="license_certificate.html",
        now=now,
        context=_certificate_context(license, tag=tag, on=license.issued_on),
        jurisdiction=license.jurisdiction,
        actor=actor,
        title=_("Dog license"),
        number=license.number,
        subject=license,
        owner_user=license.owner.user,
    )


def issue_documents(result: IssueResult, *, actor, now: datetime | None = None) -> None:
    """The receipt, 80 mm slip and license certificate for an issue, transfer or duplicate.

    All three are issued here, in the use case's transaction (numbers, frozen data, who
    and when), and laid out by the worker after commit, or at their first print if that
    comes first: the counter answers without waiting for WeasyPrint."""
    from notices.services import documents_render_after_commit, rendering_deferred

    receipts = receipt_documents_issue(
        receipt=result.receipt,
        actor=actor,
        tag=result.tag,
        license=result.license,
        now=now,
        render_after_commit=False,
    )
    with rendering_deferred():
        certificate = license_certificate_issue(
            license=result.license, actor=actor, tag=result.tag, now=now
        )
    documents_render_after_commit([*receipts, certificate])  # one task for the three


def documents_for(obj) -> dict:
    """{kind: IssuedDocument} archived for a receipt or license, newest per kind."""
    from django.contrib.contenttypes.models import ContentType

    from notices.models import IssuedDocument

    docs = IssuedDocument.objects.filter(
        subject_type=ContentType.objects.get_for_model(obj),
        subject_id=obj.pk,
        voids__isnull=True,  # a void record is shown as the original's void, not a print
    ).order_by("issued_at", "pk")
    return {d.kind: d for d in docs}


@dataclass
class LicensePapers:
    """What a license page shows of its paper trail."""

    receipts: list  # every receipt that touched the license, oldest first
    documents: dict  # {kind: IssuedDocument} of the license itself, as documents_for


def license_papers(license) -> LicensePapers:
    """Every receipt that touched a dog license (its issue or renewal, a transfer, a
    duplicate tag, and the void of any of them), each with ``print`` (its archived receipt
    PDF, or None), and the license's own documents: three queries whatever the count."""
    from django.contrib.contenttypes.models import ContentType
    from django.db.models import Prefetch, Q

    from licensing.models import ReceiptLine
    from notices.models import IssuedDocument

    receipts = list(
        Receipt.objects.filter(regarding=license)
        .select_related("voids", "voided_by")
        .prefetch_related(Prefetch("lines", queryset=ReceiptLine.objects.order_by("position")))
        .order_by("number")
    )
    receipt_type = ContentType.objects.get_for_model(Receipt)
    license_type = ContentType.objects.get_for_model(license)
    docs = IssuedDocument.objects.filter(
        Q(subject_type=receipt_type, subject_id__in=[r.pk for r in receipts], kind="receipt")
        | Q(subject_type=license_type, subject_id=license.pk),
        voids__isnull=True,  # a void record is shown as the original's void, not a print
    ).order_by("issued_at", "pk")
    # The page links to each and says whether it is still being prepared: not its frozen
    # data (``snapshot``) or anything else of it.
    docs = docs.only("kind", "subject_type_id", "subject_id", "sha256", "issued_at")
    prints, documents = {}, {}
    for doc in docs:
        if doc.subject_type_id == receipt_type.pk:
            prints[doc.subject_id] = doc
        else:
            documents[doc.kind] = doc
    for receipt in receipts:
        receipt.print = prints.get(receipt.pk)
    return LicensePapers(receipts=receipts, documents=documents)


# --- Voiding ----------------------------------------------------------------------------


def documents_void(obj, *, actor, reason: str, now: datetime | None = None) -> list:
    """Void every archived document of a receipt or license that is not void yet."""
    from notices.models import IssuedDocument
    from notices.services import document_void

    docs = list(documents_for(obj).values())
    already = set(IssuedDocument.objects.filter(voids__in=docs).values_list("voids_id", flat=True))
    return [
        document_void(document=d, actor=actor, reason=reason, now=now)
        for d in docs
        if d.pk not in already
    ]
