"""What the owner of a dangerous dog tells the authority (Glencoe 701 Subd. 15(G); C32-C34).

- Death, or transfer to another jurisdiction (DD-16, C32): written notice within
  ``dd_death_transfer_notice_days`` of the event; the due date is stored with its section
  and a later notice is flagged ``late``. The authority may ask for an affidavit under
  oath (requested, then its upload recorded). The case closes: *dog died* or *moved out
  of the city*.
- Sale (DD-19, C33): the buyer's name, address and telephone, and that the buyer was told
  the dog is dangerous. A buyer in the city takes the case over (the clerk picks the
  buyer's Owner record); a buyer elsewhere closes it as moved out. The ordinance sets no
  deadline for a sale notice (Appendix D G24): none is stored.
- Lease disclosure (DD-18, C34): recorded; the case does not change.

All of these concern a designation in force (declared, registered or seized).
"""

from dataclasses import dataclass
from datetime import date, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from dangerous_dogs.models import (
    CaseStatus,
    DesignationCase,
    OwnerReport,
    ReportKind,
)
from kernel.checks import refuse_if_future, refuse_unless_serves
from licensing.models import Owner
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import rule_citation

from .common import deadline, locked, procedure_or_refuse

CLOSING_KINDS = {ReportKind.DEATH: CaseStatus.DECEASED, ReportKind.TRANSFER: CaseStatus.TRANSFERRED}
RULE_IDS = {
    ReportKind.DEATH: "DD-16",
    ReportKind.TRANSFER: "DD-16",
    ReportKind.SALE: "DD-19",
    ReportKind.LEASE: "DD-18",
}


def report_citation(jurisdiction, kind: str) -> str:
    return rule_citation(jurisdiction, RULE_IDS[kind])


def sale_deadline_note(jurisdiction) -> str:
    """Appendix D G24: why a sale notice has no due date."""
    return _("The ordinance sets no deadline for notice of a sale (%(section)s).") % {
        "section": report_citation(jurisdiction, ReportKind.SALE)
    }


def _require(values: dict, citation: str) -> None:
    missing = [
        Refused.because(label, message, citation, field=field).checks[0]
        for field, (value, label, message) in values.items()
        if not (value.strip() if isinstance(value, str) else value)
    ]
    if missing:
        raise Refused(missing)


def _in_force(case: DesignationCase, citation: str) -> None:
    if not case.in_force:
        raise Refused.because(
            _("Dangerous-dog case"),
            _("Case %(n)s is %(status)s: the owner's reports concern a designation in force.")
            % {"n": case.number, "status": case.get_status_display().lower()},
            citation,
        )


@dataclass(frozen=True)
class ReportFacts:
    """What the owner's written report says (the form's cleaned data): the event and the
    day the notice came, and for a sale or a lease the other party."""

    kind: str
    event_on: date
    notified_on: date
    circumstances: str = ""
    party_name: str = ""
    party_address: str = ""
    party_phone: str = ""
    buyer_informed: bool = False
    buyer_in_city: bool = False
    buyer: Owner | None = None
    lease_term: str = ""


@refusing()
@transaction.atomic
def report_record(
    *, case: DesignationCase, report: ReportFacts, actor, now: datetime | None = None
) -> OwnerReport:
    """Record the owner's written report; a death, transfer or sale out of the city closes
    the case, a sale in the city moves it to the buyer."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    case = locked(case)
    refuse_unless_serves(actor, case.jurisdiction)
    procedure_or_refuse(case.jurisdiction, on=today)
    if report.kind not in ReportKind.values:
        raise Refused.because(_("Report"), _("Choose what the owner reports."), field="kind")
    citation = report_citation(case.jurisdiction, report.kind)
    _in_force(case, citation)
    _check_report_dates(case, report, today, citation)
    row = _report_row(case, report, citation, actor)
    row.save()
    _record_reported(case, row, actor=actor, now=now)
    buyer = report.buyer if report.buyer_in_city else None
    _consequence(case, row, buyer, actor=actor, now=now)
    return row


def _check_report_dates(case, report: ReportFacts, today: date, citation: str) -> None:
    refuse_if_future(report.event_on, _("Date"), field="event_on", today=today)
    refuse_if_future(report.notified_on, _("Notice received on"), field="notified_on", today=today)
    if report.notified_on < report.event_on:
        raise Refused.because(
            _("Notice received on"),
            _("The notice cannot come before the event it reports (%(date)s).")
            % {"date": date_format(report.event_on)},
            citation,
            field="notified_on",
        )
    if case.declared_on and report.event_on < case.declared_on:
        raise Refused.because(
            _("Date"),
            _("The date is before the declaration (%(date)s).")
            % {"date": date_format(case.declared_on)},
            citation,
            field="event_on",
        )


def _report_row(case, report: ReportFacts, citation: str, actor) -> OwnerReport:
    """The report as recorded: a death or transfer with its due date (and whether it
    came late), a sale with its buyer, a lease with the property and its term."""
    row = OwnerReport(
        case=case,
        kind=report.kind,
        event_on=report.event_on,
        notified_on=report.notified_on,
        citation=citation,
        circumstances=report.circumstances.strip(),
        party_name=report.party_name.strip(),
        party_address=report.party_address.strip(),
        party_phone=report.party_phone.strip(),
        recorded_by=actor,
    )
    if report.kind in CLOSING_KINDS:
        row.due_on, row.citation = deadline(
            case.jurisdiction, "dd_death_transfer_notice_days", report.event_on
        )
        row.late = report.notified_on > row.due_on
    elif report.kind == ReportKind.SALE:
        _sale(row, case, report.buyer, report.buyer_in_city, report.buyer_informed)
    else:
        row.lease_term = report.lease_term.strip()
        _lease(row)
    return row


def _lease(row: OwnerReport) -> None:
    _require(
        {
            "party_name": (row.party_name, _("Property owner"), _("Name the property owner.")),
            "party_address": (
                row.party_address,
                _("Property"),
                _("Give the address of the rented property."),
            ),
            "lease_term": (row.lease_term, _("Lease term"), _("Give the lease term.")),
        },
        row.citation,
    )


def _record_reported(case, row: OwnerReport, *, actor, now) -> None:
    summary = _("%(kind)s on %(date)s; written notice received %(notified)s") % {
        "kind": row.get_kind_display(),
        "date": date_format(row.event_on),
        "notified": date_format(row.notified_on),
    }
    if row.late:
        summary += _(" (late: due by %(due)s, %(section)s)") % {
            "due": date_format(row.due_on),
            "section": row.citation,
        }
    Event.record(
        "dangerous_dogs.report.recorded",
        case,
        actor=actor,
        at=now,
        summary=summary,
        data={"report": row.pk, "kind": row.kind, "late": row.late},
    )


def _sale(report, case, buyer, buyer_in_city, buyer_informed) -> None:
    citation = report.citation
    if buyer_in_city:
        if buyer is None:
            raise Refused.because(
                _("Buyer"),
                _("The buyer lives in the city: search the registry and choose the buyer."),
                citation,
                field="buyer",
            )
        if buyer.jurisdiction_id != case.jurisdiction_id:
            raise Refused.because(
                _("Buyer"),
                _("The buyer chosen is not an owner of %(city)s.") % {"city": case.jurisdiction},
                citation,
                field="buyer",
            )
        if buyer.pk == case.owner_id:
            raise Refused.because(
                _("Buyer"), _("The buyer is the present owner."), citation, field="buyer"
            )
        report.party_name = report.party_name or buyer.name
        report.party_address = report.party_address or buyer.address
        report.party_phone = report.party_phone or buyer.phone
    report.buyer_informed = bool(buyer_informed)
    _require(
        {
            "party_name": (report.party_name, _("Buyer"), _("Give the buyer's name.")),
            "party_address": (report.party_address, _("Address"), _("Give the buyer's address.")),
            "party_phone": (report.party_phone, _("Telephone"), _("Give the buyer's telephone.")),
            "buyer_informed": (
                report.buyer_informed,
                _("Buyer told"),
                _("The seller must tell the buyer the dog was identified as dangerous."),
            ),
        },
        citation,
    )


def _consequence(case, report, buyer, *, actor, now) -> None:
    today = timezone.localdate(now)
    if report.kind in CLOSING_KINDS or (report.kind == ReportKind.SALE and buyer is None):
        status = CLOSING_KINDS.get(report.kind, CaseStatus.TRANSFERRED)
        case.closed_on = today
        case.closing_note = str(
            _("%(kind)s on %(date)s")
            % {"kind": report.get_kind_display(), "date": date_format(report.event_on)}
        )[:300]
        case.apply(
            "close_by_report",
            to=status,
            actor=actor,
            at=now,
            summary=_("Closed: %(status)s (%(section)s)")
            % {"status": CaseStatus(status).label, "section": report.citation},
            citation=report.citation,
            data={"report": report.pk, "kind": report.kind},
            fields=["closed_on", "closing_note"],
        )
        if report.kind == ReportKind.DEATH and case.animal.is_alive():
            # One answer: the registry's dog is dead too (its licenses stay for the clerk).
            case.animal.mark_deceased(
                actor=actor,
                on=report.event_on,
                note=str(_("Reported dead to the animal control authority (%(section)s)"))
                % {"section": report.citation},
                at=now,
            )
    elif report.kind == ReportKind.SALE:
        old = case.owner
        case.owner = buyer
        case.save(update_fields=["owner"])
        Event.record(
            "dangerous_dogs.case.owner_changed",
            case,
            actor=actor,
            at=now,
            summary=_("Sold: the owner is now %(new)s (was %(old)s; %(section)s)")
            % {"new": buyer.name, "old": old.name, "section": report.citation},
            data={"report": report.pk, "old_owner": old.pk, "new_owner": buyer.pk},
        )


def _report_for_update(report: OwnerReport) -> OwnerReport:
    return (
        OwnerReport.objects.select_for_update(of=("self",))
        .select_related("case__jurisdiction")
        .get(pk=report.pk)
    )


def _affidavit_kind(report: OwnerReport) -> None:
    if report.kind not in CLOSING_KINDS:
        raise Refused.because(
            _("Affidavit"),
            _("An affidavit under oath is asked for a death or a transfer only."),
            report.citation,
        )


@refusing()
@transaction.atomic
def affidavit_request(
    *, report: OwnerReport, on: date, actor, now: datetime | None = None
) -> OwnerReport:
    """The authority asks the owner for the affidavit under oath (DD-16): once."""
    now = now or timezone.now()
    report = _report_for_update(report)
    refuse_unless_serves(actor, report.case.jurisdiction)
    _affidavit_kind(report)
    refuse_if_future(on, _("Requested on"), field="on", today=timezone.localdate(now))
    if report.affidavit_requested_on:
        raise Refused.because(
            _("Affidavit"),
            _("Already requested on %(date)s.")
            % {"date": date_format(report.affidavit_requested_on)},
            report.citation,
        )
    if on < report.notified_on:
        raise Refused.because(
            _("Requested on"),
            _("The request cannot come before the notice (%(date)s).")
            % {"date": date_format(report.notified_on)},
            report.citation,
            field="on",
        )
    report.affidavit_requested_on = on
    report.save(update_fields=["affidavit_requested_on"])
    Event.record(
        "dangerous_dogs.report.affidavit_requested",
        report.case,
        actor=actor,
        at=now,
        summary=_("Affidavit under oath requested on %(date)s (%(section)s)")
        % {"date": on, "section": report.citation},
        data={"report": report.pk},
    )
    return report


@refusing()
@transaction.atomic
def affidavit_receive(
    *, report: OwnerReport, received_on: date, file, actor, now: datetime | None = None
) -> OwnerReport:
    """The owner's affidavit arrived: its scan is kept (the form checks type and size)."""
    now = now or timezone.now()
    report = _report_for_update(report)
    refuse_unless_serves(actor, report.case.jurisdiction)
    _affidavit_kind(report)
    if not report.affidavit_requested_on:
        raise Refused.because(_("Affidavit"), _("Request the affidavit first."), report.citation)
    if report.affidavit_received_on:
        raise Refused.because(
            _("Affidavit"),
            _("Already received on %(date)s.")
            % {"date": date_format(report.affidavit_received_on)},
            report.citation,
        )
    refuse_if_future(
        received_on, _("Received on"), field="received_on", today=timezone.localdate(now)
    )
    if received_on < report.affidavit_requested_on:
        raise Refused.because(
            _("Received on"),
            _("It cannot arrive before it was requested (%(date)s).")
            % {"date": date_format(report.affidavit_requested_on)},
            report.citation,
            field="received_on",
        )
    if not file:
        raise Refused.because(
            _("Affidavit"), _("Upload the signed affidavit."), report.citation, field="file"
        )
    report.affidavit = file
    report.affidavit_received_on = received_on
    report.save(update_fields=["affidavit", "affidavit_received_on"])
    Event.record(
        "dangerous_dogs.report.affidavit_received",
        report.case,
        actor=actor,
        at=now,
        summary=_("Affidavit under oath received on %(date)s") % {"date": date_format(received_on)},
        data={"report": report.pk},
    )
    return report
