"""The city's tags at a clinic: a block issued to the clinic, and the
unsold tags that come back or were lost before sale.

The tags are the city's register (REC-02, NB Sec. 6-63): they move, never renumbered.
A block takes tags the counter still has in stock (``Tag.move_many``: available ->
at a clinic, with each tag's history); a return puts unsold ones back in stock under
their own numbers; a loss marks them lost, never to be sold or reissued (LIC-14). Each
act records who, when and why (a row with its history, and an event).
"""

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from simple_history.utils import bulk_create_with_history

from kernel.checks import refuse_unless_serves
from licensing.models import Species, Tag
from licensing.services.assessment import licensing_status
from licensing.services.tags import MAX_TAGS_PER_BATCH
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import rule_citation

from ..models import ConsignedTag, ConsignmentBlock, ReconciliationKind, TagReconciliation

CONSIGNMENT = gettext_lazy("Tags for the clinic")


def _refused(jurisdiction, message: str, *, rule: str = "REC-02", field: str = "") -> Refused:
    return Refused.because(CONSIGNMENT, message, rule_citation(jurisdiction, rule), field=field)


def _check_clinic(clinic, jurisdiction, *, on) -> None:
    if not clinic.is_active or not clinic.jurisdictions.filter(pk=jurisdiction.pk).exists():
        raise _refused(
            jurisdiction,
            _("%(clinic)s is not an active clinic serving %(city)s.")
            % {"clinic": clinic.name, "city": jurisdiction.short_name},
            field="clinic",
        )
    licensing = licensing_status(jurisdiction=jurisdiction, species=Species.DOG, on=on)
    if licensing.blocks:  # LIC-01: a city without dog licenses has nothing to sell
        raise Refused([licensing])


def _range_checked(jurisdiction, first: int, last: int) -> None:
    if last < first:
        raise _refused(
            jurisdiction, _("The last number must not be below the first."), field="last_number"
        )
    if last - first + 1 > MAX_TAGS_PER_BATCH:
        raise _refused(
            jurisdiction,
            _("Issue at most %(n)s tags at a time.") % {"n": MAX_TAGS_PER_BATCH},
            field="last_number",
        )


@refusing(CONSIGNMENT)
def consignment_issue(
    *,
    clinic,
    jurisdiction,
    year: int,
    first_number: int,
    last_number: int,
    actor,
    note: str = "",
    now: datetime | None = None,
) -> ConsignmentBlock:
    """Move tags ``first_number``..``last_number`` of ``year`` from the city's stock to the
    clinic. Every one must be in stock (not issued, lost or at another clinic)."""
    now = now or timezone.now()
    on = timezone.localdate(now)
    refuse_unless_serves(actor, jurisdiction)
    _check_clinic(clinic, jurisdiction, on=on)
    _range_checked(jurisdiction, first_number, last_number)
    with transaction.atomic():
        tags = list(
            Tag.objects.select_for_update()
            .filter(jurisdiction=jurisdiction, year=year, number__range=(first_number, last_number))
            .order_by("number")
        )
        _all_in_register(jurisdiction, tags, year, first_number, last_number)
        for tag in tags:
            tag.jurisdiction = jurisdiction  # the refusal's citation reads it: no query
        Tag.move_many(tags, move="consigned", holder=clinic.name, actor=actor, on=on, at=now)
        block = ConsignmentBlock.objects.create(
            clinic=clinic,
            jurisdiction=jurisdiction,
            year=year,
            first_number=first_number,
            last_number=last_number,
            issued_by=actor,
            issued_at=now,
            note=note,
        )
        bulk_create_with_history(
            [ConsignedTag(block=block, tag=tag) for tag in tags],
            ConsignedTag,
            default_user=actor,
            default_date=now,
        )
        Event.record(
            "clinics.consignment.issued",
            block,
            actor=actor,
            at=now,
            summary=f"Tags {first_number}-{last_number} ({year}) to {clinic.name}",
            data={"clinic": clinic.pk, "year": year, "first": first_number, "last": last_number},
        )
    return block


def _all_in_register(jurisdiction, tags, year, first, last) -> None:
    """REC-02: a block is made of tags the city entered; a missing number is named."""
    present = {t.number for t in tags}
    missing = next((n for n in range(first, last + 1) if n not in present), None)
    if missing is not None:
        raise _refused(
            jurisdiction,
            _("Tag %(n)s of %(y)s is not in the city's tag stock.") % {"n": missing, "y": year},
            field="first_number",
        )


# The holdings' transition each kind of reconciliation applies (ConsignedTag.TRANSITIONS).
MOVES = {
    ReconciliationKind.RETURNED: "return",
    ReconciliationKind.LOST: "lose",
}


@refusing(CONSIGNMENT)
def tags_reconcile(
    *,
    block: ConsignmentBlock,
    kind: str,
    first_number: int,
    last_number: int,
    reason: str,
    actor,
    now: datetime | None = None,
) -> TagReconciliation:
    """Tags ``first_number``..``last_number`` of the block came back unsold ("returned":
    back in the city's stock, same numbers) or were lost at the clinic ("lost": never
    sold or reissued, LIC-14). Only tags the clinic still holds; the reason is required."""
    now = now or timezone.now()
    jurisdiction = block.jurisdiction
    refuse_unless_serves(actor, jurisdiction)
    reason = (reason or "").strip()
    if kind not in MOVES:
        raise _refused(jurisdiction, _("Choose returned or lost."), field="kind")
    if not reason:
        raise _refused(jurisdiction, _("Say why."), field="reason")
    _range_checked(jurisdiction, first_number, last_number)
    if first_number < block.first_number or last_number > block.last_number:
        raise _refused(
            jurisdiction,
            _("This block holds tags %(first)s to %(last)s.")
            % {"first": block.first_number, "last": block.last_number},
            field="first_number",
        )
    with transaction.atomic():
        holdings = _held(block, first_number, last_number, MOVES[kind])
        record = TagReconciliation.objects.create(
            block=block,
            kind=kind,
            first_number=first_number,
            last_number=last_number,
            reason=reason,
            recorded_by=actor,
            recorded_at=now,
        )
        on = timezone.localdate(now)
        Tag.move_many(
            [h.tag for h in holdings],
            move=str(kind),
            holder=block.clinic.name,
            actor=actor,
            on=on,
            at=now,
            reason=reason,
        )
        _holdings_move(holdings, MOVES[kind], record=record, actor=actor, now=now)
        Event.record(
            f"clinics.consignment.{kind}",
            record,
            actor=actor,
            jurisdiction=jurisdiction,
            at=now,
            summary=f"Tags {record.numbers} ({block.year}) of {block.clinic.name}: {reason}",
            data={"block": block.pk, "first": first_number, "last": last_number},
        )
    return record


def _holdings_move(holdings, transition: str, *, record, actor, now) -> None:
    """Apply ``transition`` to the locked holdings in one UPDATE (with their events and
    history rows)."""
    pks = [h.pk for h in holdings]
    ConsignedTag.apply_all(
        ConsignedTag.objects.filter(pk__in=pks),
        transition,
        at=now,
        actor=actor,
        summary=f"{record}: {record.reason}",
        closed_at=now,
        reconciliation=record,
    )


def _held(block, first: int, last: int, transition: str) -> list[ConsignedTag]:
    """The block's holdings in the range, locked with their tags; refused unless the
    clinic still holds every one (a sold, returned or lost tag is named)."""
    holdings = list(
        ConsignedTag.objects.select_for_update(of=("self", "tag"))
        .select_related("tag")
        .filter(block=block, tag__number__range=(first, last))
        .order_by("tag__number")
    )
    gone = next((h for h in holdings if not h.may(transition)), None)
    if gone is not None:
        raise _refused(
            block.jurisdiction,
            _(
                "Tag %(n)s of %(y)s is %(status)s: only unsold tags the clinic holds are "
                "returned or lost."
            )
            % {"n": gone.tag.number, "y": block.year, "status": gone.get_status_display().lower()},
            field="first_number",
        )
    for holding in holdings:
        holding.tag.jurisdiction = block.jurisdiction
    return holdings
