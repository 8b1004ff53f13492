"""A license sold at the clinic.

The clinic sells through the counter's own ``license_issue``: the same checks with their
sections (LIC-01..05, KEN-01, RAB-01..05), the same fee lines, the city's gap-free
receipt series (REC-01: the receipt is the city's, numbered at the sale, interleaved
with the counter's), the tag drawn from the tags the clinic holds (REC-02: never
renumbered; a tag of another clinic, of the city's shelf or lost is refused), and the
rabies vaccination of the clinic's own certificate (RAB-05: given by one of its
licensed veterinarians). The money is collected by the clinic: the receipt says so and
keeps no card data. The sale row ties license, receipt, tag and certificate to the
clinic for its monthly statement.
"""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from licensing.models import Animal, ReceiptMethod, Tag, TagStatus
from licensing.services.assessment import license_assess
from licensing.services.licenses import license_issue
from licensing.services.numbering import TagSource
from licensing.services.standing import standing_prefetch
from ordinance.models import Event
from ordinance.refusals import Refused

from ..models import (
    RECORDED_STATUSES,
    CertificateSubmission,
    ClinicMember,
    ClinicSale,
    ConsignedTag,
    HoldingStatus,
)

SALE = gettext_lazy("Sale")


def held_tags(clinic) -> TagSource:
    """The tags ``clinic`` holds unsold: what its sales draw from."""
    tags = Tag.objects.filter(
        status=TagStatus.CONSIGNED,
        consignments__status=HoldingStatus.HELD,
        consignments__block__clinic=clinic,
    )
    return TagSource(tags=tags, holder=clinic.name)


def _check_member(clinic, actor) -> None:
    """Only the clinic's own active people sell for it (deny by default)."""
    if not ClinicMember.objects.filter(
        user=actor, clinic=clinic, deactivated_at__isnull=True, clinic__is_active=True
    ).exists():
        raise Refused.because(
            SALE, _("Only the active people of %(clinic)s sell its licenses.") % {"clinic": clinic}
        )


def sale_animal(certificate: CertificateSubmission) -> Animal:
    """The certificate's animal read as the counter reads it for its checks."""
    return (
        standing_prefetch(Animal.objects)
        .select_related("jurisdiction", "owner", "premises")
        .get(pk=certificate.animal_id)
    )


def _check_certificate(clinic, certificate: CertificateSubmission) -> None:
    """RAB-05, LIC-04: the sale's rabies certificate is one of this clinic's, recorded as
    the animal's vaccination (matched, confirmed or registered)."""
    if certificate.clinic_id != clinic.pk:
        raise Refused.because(
            SALE, _("This certificate was sent by another clinic."), field="certificate"
        )
    if certificate.status not in RECORDED_STATUSES or certificate.vaccination_id is None:
        raise Refused.because(
            SALE,
            _(
                "This certificate is not recorded for an animal yet: the clerk matches it "
                "first. A license is sold on a certificate the city has recorded."
            ),
        )


def sale_assess(*, certificate: CertificateSubmission, animal: Animal, on, term_year=None):
    """What the sale page shows before the sale: the counter's own assessment, with the
    vaccination of the clinic's certificate (``license_assess``)."""
    return license_assess(
        animal=animal,
        owner=animal.owner,
        on=on,
        vaccination=certificate.vaccination,
        term_year=term_year,
    )


def clinic_sale(
    *,
    clinic,
    certificate: CertificateSubmission,
    actor,
    tag_number: int | None = None,
    term_year: int | None = None,
    now: datetime | None = None,
) -> ClinicSale:
    """Sell the license of ``certificate``'s animal at the clinic, or Refused (nothing is
    recorded then, and no receipt number is used)."""
    now = now or timezone.now()
    _check_member(clinic, actor)
    _check_certificate(clinic, certificate)
    with transaction.atomic():
        animal = certificate.animal
        result = license_issue(
            animal=animal,
            owner=animal.owner,
            actor=actor,
            on=timezone.localdate(now),
            method=ReceiptMethod.CLINIC,
            reference=clinic.name[:40],
            vaccination=certificate.vaccination,
            tag_number=tag_number,
            term_year=term_year,
            tag_source=held_tags(clinic),
            now=now,
        )
        holding = ConsignedTag.objects.select_for_update().get(
            tag=result.tag, status=HoldingStatus.HELD, block__clinic=clinic
        )
        holding.closed_at = now
        holding.apply(
            "sell",
            actor=actor,
            at=now,
            summary=f"Tag {result.tag.number} ({result.tag.year}) sold by {clinic.name}",
            fields=["closed_at"],
        )
        sale = ClinicSale.objects.create(
            clinic=clinic,
            jurisdiction=animal.jurisdiction,
            holding=holding,
            license=result.license,
            receipt=result.receipt,
            certificate=certificate,
            sold_by=actor,
            sold_at=now,
        )
        Event.record(
            "clinics.sale.recorded",
            sale,
            actor=actor,
            at=now,
            summary=(
                f"License {result.license.number}, tag {result.tag.number} ({result.tag.year}),"
                f" receipt {result.receipt.number}: collected by {clinic.name}"
            ),
            data={
                "license": result.license.pk,
                "receipt": result.receipt.number,
                "tag": result.tag.number,
                "total": str(result.receipt.total),
            },
        )
    return sale
