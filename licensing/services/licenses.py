"""Dog licenses at the counter: issue, transfer, address change, close, exemptions.

Rules (rules.md): LIC-01..08, LIC-10..15, FEE-01/03..05, REC-01/02, KEN-01. Gates are
enforced here, not only on the page: ``license_issue`` re-runs the assessment
(``services.assessment.license_assess``) inside its transaction and refuses with the
reasons and their citations.

Only these use cases live here; import everything else from the module that defines it
(assessment, receipts, voids, tags, documents; ``Check``/``Refused`` from
``ordinance.refusals``).
"""

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l

from kernel.numbers import year_number
from licensing.models import (
    Animal,
    ExemptionKind,
    License,
    LicenseExemption,
    LicenseStatus,
    Ownership,
    TagStatus,
)
from licensing.services.assessment import license_assess
from licensing.services.documents import IssueResult, issue_documents
from licensing.services.limits import premises_limit_check
from licensing.services.numbering import DOG_LICENSES, TagSource, tag_claim
from licensing.services.receipts import fee_line, receipt_create
from licensing.services.registry import owner_premises
from licensing.services.tags import issue_tag
from ordinance.calendar import add_calendar_days
from ordinance.fees import fee_amount
from ordinance.models import Event
from ordinance.refusals import Check, Refused, refusing
from ordinance.rules import rule_citation, rule_in_force


@refusing()
def license_issue(
    *,
    animal: Animal,
    owner,
    actor,
    on: date,
    method: str,
    reference: str = "",
    tendered: Decimal | None = None,
    tag_number: int | None = None,
    subject_on: date | None = None,
    vaccination=None,
    applied_on: date | None = None,
    term_year: int | None = None,
    tag_source: TagSource | None = None,
    now: datetime | None = None,
) -> IssueResult:
    """Issue (or renew) a dog license, its metal tag and a numbered receipt, or Refused.

    ``on`` is the issue (payment) date; ``applied_on``, when an online application came in
    earlier, decides the term and the late penalty (NB Sec. 6-65(c), LIC-13).
    ``term_year`` is the clerk's choice among the terms offered that day (the current or,
    once sales are open, the next: ``terms.license_terms``); None takes the default.

    A clinic selling on consignment comes through here too, with the
    same checks and the city's receipt series: ``tag_source`` is the tags it holds,
    ``method`` is ``ReceiptMethod.CLINIC`` and ``vaccination`` its own certificate's.

    One transaction: the animal row is locked (no double license from two windows), the
    checks are re-run, then license number, tag and receipt number are allocated.
    """
    now = now or timezone.now()
    with transaction.atomic():
        animal = (
            Animal.objects.select_for_update(of=("self",))
            .select_related("jurisdiction", "premises")
            .get(pk=animal.pk)
        )
        a = license_assess(
            animal=animal,
            owner=owner,
            on=on,
            subject_on=subject_on,
            vaccination=vaccination,
            applied_on=applied_on,
            term_year=term_year,
        )
        if not a.can_issue:
            raise Refused(a.refusals)
        tag = tag_claim(
            jurisdiction=animal.jurisdiction,
            year=a.expires_on.year,
            number=tag_number,
            source=tag_source,
        )
        receipt = receipt_create(
            jurisdiction=animal.jurisdiction,
            payer=owner,
            lines=a.fee_lines,
            method=method,
            reference=reference,
            tendered=tendered,
            actor=actor,
            now=now,
        )
        license = _license_record(animal, owner, a, receipt=receipt, actor=actor, on=on)
        issue_tag(tag, license=license, on=on, actor=actor, at=now)
        result = IssueResult(license=license, receipt=receipt, tag=tag)
        _issue_recorded(result, late_penalty=a.late_penalty, actor=actor, now=now)
        # REC-01, LIC-06, LIC-08: receipt, tag slip and certificate in the same use case,
        # so no caller can leave a license without its documents.
        issue_documents(result, actor=actor, now=now)
    return result


def _license_record(animal: Animal, owner, a, *, receipt, actor, on: date) -> License:
    """The license the assessment ``a`` allows, numbered in its year's series, renewing
    the animal's last one that stands, listed on its receipt."""
    previous = animal.licenses.exclude(status=LicenseStatus.VOID).order_by("-term_start").first()
    license = License.objects.create(
        jurisdiction=animal.jurisdiction,
        animal=animal,
        owner=owner,
        term_start=a.term_start,
        number=year_number(animal.jurisdiction, DOG_LICENSES, a.expires_on.year),
        expires_on=a.expires_on,
        issued_on=on,
        issued_by=actor,
        receipt=receipt,
        vaccination=a.vaccination,
        late_penalty=a.late_penalty,
        became_subject_on=a.became_subject_on,
        renewal_of=previous,
    )
    receipt.regarding.add(license)  # listed on the license page
    return license


def _issue_recorded(result: IssueResult, *, late_penalty: bool, actor, now: datetime) -> None:
    license, receipt, tag = result.license, result.receipt, result.tag
    Event.record(
        "licensing.license.issued",
        license,
        actor=actor,
        at=now,
        summary=f"License {license.number}, tag {tag.number} ({tag.year})",
        data={
            "receipt": receipt.number,
            "tag": tag.number,
            "year": tag.year,
            "late_penalty": late_penalty,
            "total": str(receipt.total),
        },
    )


# --- Transfer, address change, closing -----------------------------------------------


@refusing()
def license_transfer(
    *,
    license: License,
    new_owner,
    actor,
    on: date,
    method: str,
    reference: str = "",
    tendered: Decimal | None = None,
    now: datetime | None = None,
) -> IssueResult:
    """LIC-12: the new owner takes over the license (same number and expiry) for the fee."""
    now = now or timezone.now()
    with transaction.atomic():
        license = (
            License.objects.select_for_update(of=("self",))
            .select_related("animal")
            .get(pk=license.pk)
        )
        _transfer_checked(license, new_owner, on=on)
        fee = fee_amount(license.jurisdiction, "transfer", on=on)  # LIC-12
        premises = owner_premises(new_owner)
        limit = premises_limit_check(premises=premises, on=on, adding=license.animal)
        if not limit.ok:
            raise Refused([Check(_("Animal limit"), "fail", limit.message, limit.citation)])
        previous_owner = license.owner
        _owner_changed(license, new_owner, premises, on=on)
        receipt = receipt_create(
            jurisdiction=license.jurisdiction,
            payer=new_owner,
            method=method,
            reference=reference,
            tendered=tendered,
            actor=actor,
            now=now,
            lines=[fee_line(fee)],
            regarding=[license],
        )
        Event.record(
            "licensing.license.transferred",
            license,
            actor=actor,
            at=now,
            summary=f"{previous_owner.name} → {new_owner.name}",
            data={
                "from_owner": previous_owner.pk,
                "to_owner": new_owner.pk,
                "receipt": receipt.number,
            },
        )
        tag = license.tags.filter(status=TagStatus.ISSUED).first()
        result = IssueResult(license=license, receipt=receipt, tag=tag)
        # LIC-12: the new owner's receipt and a certificate in their name.
        issue_documents(result, actor=actor, now=now)
    return result


def _transfer_checked(license: License, new_owner, *, on: date) -> None:
    """LIC-12: a current license, to another owner of its city."""
    if not license.is_current(on):
        raise Refused.because(
            _("License"),
            _("The license is not current."),
            rule_citation(license.jurisdiction, "LIC-12"),
        )
    if new_owner.pk == license.owner_id or new_owner.jurisdiction_id != license.jurisdiction_id:
        raise Refused.because(
            _("New owner"),
            _("Choose a different owner in the same city."),
            rule_citation(license.jurisdiction, "LIC-12"),
            field="new_owner",
        )


def _owner_changed(license: License, new_owner, premises, *, on: date) -> None:
    """The animal's ownership passes to ``new_owner`` at ``premises`` on ``on``, and the
    license with it."""
    animal = license.animal
    # Row by row, not .update(): simple-history records each change (REC-18).
    for current in Ownership.objects.filter(animal=animal, ended_on__isnull=True):
        current.ended_on = on
        current.save(update_fields=["ended_on"])
    Ownership.objects.create(
        animal=animal,
        owner=new_owner,
        premises=premises,
        started_on=on,
        note=_("License %(n)s transferred") % {"n": license.number},
    )
    animal.owner, animal.premises = new_owner, premises
    animal.save(update_fields=["owner", "premises"])
    license.owner = new_owner
    license.save(update_fields=["owner"])


@dataclass
class AddressChange:
    late: bool
    due_on: date
    citation: str
    closed: bool


def address_change_timing(jurisdiction, *, moved_on: date, reported_on: date) -> AddressChange:
    """LIC-11: the day a move must be reported by, and whether ``reported_on`` is late.
    The one answer for the counter and the resident's report."""
    rule = rule_in_force(jurisdiction, "address_change_notice_days", on=reported_on)
    due_on = add_calendar_days(moved_on, rule.value)
    return AddressChange(
        late=reported_on > due_on, due_on=due_on, citation=rule.citation, closed=False
    )


@dataclass(frozen=True)
class NewAddress:
    """Where the owner moved within the city (blank city or ZIP: the owner's stays)."""

    address_line: str = ""
    unit: str = ""
    city: str = ""
    postal_code: str = ""

    @classmethod
    def of(cls, data: dict) -> "NewAddress":
        """The address fields of a form's cleaned data or a resident's report."""
        return cls(**{name: data.get(name) or "" for name in cls.__dataclass_fields__})


@refusing()
def license_address_change(
    *,
    license: License,
    moved_on: date,
    reported_on: date,
    within_city: bool,
    address: NewAddress = NewAddress(),
    actor,
    now: datetime | None = None,
) -> AddressChange:
    """LIC-11: record a move; late when reported more than N days after it.

    A move out of the city closes the license (rules.md LIC-11: out-of-city moves are not
    covered by Sec. 6-61; treated as closing the license) and marks the animal moved out.
    """
    now = now or timezone.now()
    timing = address_change_timing(license.jurisdiction, moved_on=moved_on, reported_on=reported_on)
    late, due_on = timing.late, timing.due_on
    with transaction.atomic():
        license = (
            License.objects.select_for_update(of=("self",))
            .select_related("owner", "animal")
            .get(pk=license.pk)
        )
        data = {
            "moved_on": moved_on.isoformat(),
            "reported_on": reported_on.isoformat(),
            "due_on": due_on.isoformat(),
            "late": late,
            "within_city": within_city,
        }
        if within_city:
            owner = license.owner
            owner.address_line, owner.unit = address.address_line, address.unit
            owner.city = address.city or owner.city
            owner.postal_code = address.postal_code or owner.postal_code
            owner.save()
            animal = license.animal
            animal.premises = owner_premises(owner)
            animal.save(update_fields=["premises"])
            data["address"] = owner.address
        else:
            license.close(
                actor=actor,
                on=moved_on,
                reason=_("Moved out of the city"),
                at=now,
                data={"reason": "moved_away", "on": moved_on.isoformat()},
            )
            _animal_leaves(license.animal, "moved_away", actor=actor, on=moved_on, at=now)
        Event.record(
            "licensing.license.address_changed",
            license,
            actor=actor,
            at=now,
            summary=_("Reported late") if late else _("Reported in time"),
            data=data,
        )
    return AddressChange(late=late, due_on=due_on, citation=timing.citation, closed=not within_city)


def _animal_leaves(animal, reason: str, *, actor, on: date, at) -> None:
    """The animal's own transition, unless an earlier report already recorded it."""
    if reason == "deceased" and animal.may("die"):
        animal.mark_deceased(actor=actor, on=on, at=at)
    elif reason != "deceased" and animal.may("move_out"):
        animal.mark_moved_out(actor=actor, on=on, at=at)


@refusing()
def license_close(
    *, license: License, reason: str, on: date, actor, now: datetime | None = None
) -> License:
    """The dog died or moved away: close the license and record the animal's status."""
    now = now or timezone.now()
    with transaction.atomic():
        license = (
            License.objects.select_for_update(of=("self",))
            .select_related("animal")
            .get(pk=license.pk)
        )
        label = _("Animal died") if reason == "deceased" else _("Animal moved away")
        license.close(
            actor=actor, on=on, reason=label, at=now, data={"reason": reason, "on": on.isoformat()}
        )
        _animal_leaves(license.animal, reason, actor=actor, on=on, at=now)
    return license


def _exemption_refused(message: str, jurisdiction) -> Refused:
    """LIC-02, cited by the city's section for exemptions (none where there is no license)."""
    return Refused.because(_("Exemption"), message, rule_citation(jurisdiction, "LIC-02"))


@refusing(_l("Exemption"))
def exemption_record(
    *, animal: Animal, kind: str, starts_on: date, evidence: str, actor, ends_on: date | None = None
) -> LicenseExemption:
    """LIC-02: record an exemption with its evidence; the temporary stay ends by the profile.

    Refused for an unknown kind, an end before the start, or a visitor's stay in a city
    whose ordinance has no such exemption (Glencoe: no license at all) or none in force on
    the start date (before the ordinance's adoption): the section is named.
    """
    jurisdiction = animal.jurisdiction
    citation = ""
    if kind not in ExemptionKind.values:
        raise _exemption_refused(
            _("“%(kind)s” is not an exemption.") % {"kind": kind}, jurisdiction
        )
    if ends_on and ends_on < starts_on:
        raise _exemption_refused(_("The end date must not be before the start date."), jurisdiction)
    if kind == ExemptionKind.TEMPORARY_VISITOR:
        # NB Sec. 6-60; rules.md LIC-02: at most N days from arrival (blank: @refusing)
        rule = rule_in_force(jurisdiction, "temp_visitor_exemption_days", on=starts_on)
        limit = add_calendar_days(starts_on, rule.value)
        ends_on = min(ends_on, limit) if ends_on else limit
        citation = rule.citation
    exemption = LicenseExemption.objects.create(
        jurisdiction=jurisdiction,
        animal=animal,
        kind=kind,
        starts_on=starts_on,
        ends_on=ends_on,
        evidence=evidence,
        citation=citation,
        recorded_by=actor,
    )
    Event.record(
        "licensing.exemption.recorded",
        animal,
        actor=actor,
        summary=exemption.get_kind_display(),
        data={"exemption": exemption.pk},
    )
    return exemption
