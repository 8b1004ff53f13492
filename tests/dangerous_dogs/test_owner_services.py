"""Owner's reports and the sterilization order (DD-16..DD-19, DD-17; MN-07; C32-C34, C37)."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from dangerous_dogs.later_sweeps import sweep_sterilization_overdue
from dangerous_dogs.models import CaseStatus, ReportKind
from dangerous_dogs.services.owner_reports import (
    ReportFacts,
    affidavit_receive,
    affidavit_request,
    report_record,
)
from dangerous_dogs.services.sterilization import sterilization_done, sterilization_order
from notices.services import document_pdf
from ordinance.models import Event
from ordinance.refusals import Refused
from tests.impound.helpers import PDF
from tests.licensing.factories import OwnerFactory
from tests.pdf import pdf_text

from .helpers import declared

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-12-01T10:00")]
CENTRAL = ZoneInfo("America/Chicago")


def record_report(*, case, actor, **facts):
    return report_record(case=case, report=ReportFacts(**facts), actor=actor)


def _death(case, officer, notified_on, event_on=date(2026, 10, 1)):
    return record_report(
        case=case,
        kind=ReportKind.DEATH,
        event_on=event_on,
        notified_on=notified_on,
        actor=officer,
        circumstances="Died of old age; cremated",
    )


def test_a_death_notice_on_the_30th_day_is_on_time_and_closes_the_case(glencoe, officer):
    case = declared(glencoe, officer, on=date(2026, 6, 1))
    report = _death(case, officer, date(2026, 10, 31))
    assert report.due_on == date(2026, 10, 31) and not report.late
    assert report.citation == "Glencoe 701 Subd. 15(G)(3)"
    case.refresh_from_db()
    assert case.status == CaseStatus.DECEASED and case.closed_on == date(2026, 12, 1)
    case.animal.refresh_from_db()
    assert not case.animal.is_alive()  # the registry says so too


def test_a_death_notice_on_the_31st_day_is_flagged_late(glencoe, officer):
    case = declared(glencoe, officer, on=date(2026, 6, 1))
    report = _death(case, officer, date(2026, 11, 1))
    assert report.late
    assert "late" in Event.objects.filter(action="dangerous_dogs.report.recorded").get().summary


def test_a_transfer_closes_the_case_and_the_affidavit_is_requested_then_uploaded(glencoe, officer):
    case = declared(glencoe, officer, on=date(2026, 6, 1), status=CaseStatus.REGISTERED)
    report = record_report(
        case=case,
        kind=ReportKind.TRANSFER,
        event_on=date(2026, 11, 20),
        notified_on=date(2026, 11, 25),
        party_name="Sam Far",
        actor=officer,
    )
    case.refresh_from_db()
    assert case.status == CaseStatus.TRANSFERRED
    with pytest.raises(Refused, match="Request the affidavit first"):
        affidavit_receive(report=report, received_on=date(2026, 11, 30), file=None, actor=officer)
    affidavit_request(report=report, on=date(2026, 11, 26), actor=officer)
    with pytest.raises(Refused, match="Already requested"):
        affidavit_request(report=report, on=date(2026, 11, 27), actor=officer)
    upload = SimpleUploadedFile("affidavit.pdf", PDF, content_type="application/pdf")
    report = affidavit_receive(
        report=report, received_on=date(2026, 11, 30), file=upload, actor=officer
    )
    assert report.affidavit_received_on == date(2026, 11, 30) and report.affidavit.name


def test_no_report_for_a_case_not_in_force_and_no_notice_before_the_event(glencoe, officer):
    from .helpers import make_case

    with pytest.raises(Refused, match="designation in force"):
        _death(make_case(glencoe, officer), officer, date(2026, 10, 2))
    case = declared(glencoe, officer, on=date(2026, 6, 1))
    with pytest.raises(Refused) as err:
        _death(case, officer, date(2026, 9, 30))
    assert err.value.reasons[0].field == "notified_on"


def test_a_sale_to_a_city_owner_moves_the_case_to_the_buyer(glencoe, officer):
    case = declared(glencoe, officer, on=date(2026, 6, 1))
    seller = case.owner
    buyer = OwnerFactory(jurisdiction=glencoe)
    report = record_report(
        case=case,
        kind=ReportKind.SALE,
        event_on=date(2026, 11, 20),
        notified_on=date(2026, 11, 28),
        buyer_in_city=True,
        buyer=buyer,
        buyer_informed=True,
        party_phone="320-555-0101",
        actor=officer,
    )
    case.refresh_from_db()
    assert case.status == CaseStatus.DECLARED and case.owner == buyer
    assert report.due_on is None and not report.late
    assert report.party_name == buyer.name and report.citation == "Glencoe 701 Subd. 15(G)(6)"
    event = Event.objects.get(action="dangerous_dogs.case.owner_changed")
    assert event.data["old_owner"] == seller.pk and event.data["new_owner"] == buyer.pk


def test_a_sale_out_of_the_city_closes_the_case_and_the_buyer_must_be_told(
    glencoe, north_branch, officer
):
    case = declared(glencoe, officer, on=date(2026, 6, 1))
    values = dict(
        case=case,
        kind=ReportKind.SALE,
        event_on=date(2026, 11, 20),
        notified_on=date(2026, 11, 28),
        party_name="Lee Away",
        party_address="1 Main St, Hutchinson, MN",
        party_phone="320-555-0199",
        actor=officer,
    )
    with pytest.raises(Refused) as err:
        record_report(**values)
    assert [c.field for c in err.value.reasons] == ["buyer_informed"]
    with pytest.raises(Refused, match="choose the buyer"):
        record_report(**values, buyer_informed=True, buyer_in_city=True)
    other_city = OwnerFactory(jurisdiction=north_branch)
    with pytest.raises(Refused, match="not an owner"):
        record_report(**values, buyer_informed=True, buyer_in_city=True, buyer=other_city)
    record_report(**values, buyer_informed=True)
    case.refresh_from_db()
    assert case.status == CaseStatus.TRANSFERRED


def test_a_lease_disclosure_is_recorded_without_a_state_change(glencoe, officer):
    case = declared(glencoe, officer, on=date(2026, 6, 1))
    with pytest.raises(Refused) as err:
        record_report(
            case=case,
            kind=ReportKind.LEASE,
            event_on=date(2026, 11, 1),
            notified_on=date(2026, 11, 2),
            actor=officer,
        )
    assert {c.field for c in err.value.reasons} == {"party_name", "party_address", "lease_term"}
    report = record_report(
        case=case,
        kind=ReportKind.LEASE,
        event_on=date(2026, 11, 1),
        notified_on=date(2026, 11, 2),
        party_name="Pat Landlord",
        party_address="14 Oak St, Glencoe",
        lease_term="12 months from Nov 1, 2026",
        actor=officer,
    )
    case.refresh_from_db()
    assert case.status == CaseStatus.DECLARED and report.citation == "Glencoe 701 Subd. 15(G)(5)"


# --- Sterilization -------------------------------------------------------------------------


def test_the_statutes_30_days_govern_where_glencoe_is_blank_and_the_pdf_says_so(glencoe, officer):
    case = declared(glencoe, officer, on=date(2026, 11, 10))
    order = sterilization_order(case=case, ordered_on=date(2026, 11, 12), actor=officer)
    assert order.due_on == date(2026, 12, 10)
    assert order.due_citation == "Minn. Stat. 347.52(d)"
    event = Event.objects.get(action="dangerous_dogs.sterilization.ordered")
    assert "leaves it blank (Glencoe 701 Subd. 15(G)(4))" in event.data["why"]
    text = " ".join(pdf_text(document_pdf(order.document)).split())
    assert case.animal.name in text and "Minn. Stat. 347.52(d)" in text
    assert "owner's expense" in text
    assert any(d in text for d in ("Dec 10, 2026", "Dec 10, 2026", "2026-12-10"))
    assert "may seize the dog and have it sterilized" in text
    with pytest.raises(Refused, match="not yet done"):
        sterilization_order(case=case, ordered_on=date(2026, 11, 13), actor=officer)


def test_no_order_for_a_potentially_dangerous_dog(glencoe, officer):
    case = declared(glencoe, officer, on=date(2026, 11, 10), designation="potentially")
    with pytest.raises(Refused, match="dangerous dog whose designation is in force"):
        sterilization_order(case=case, ordered_on=date(2026, 11, 12), actor=officer)


def test_sterilization_done_is_recorded_once(glencoe, officer):
    case = declared(glencoe, officer, on=date(2026, 11, 10))
    order = sterilization_order(case=case, ordered_on=date(2026, 11, 12), actor=officer)
    with pytest.raises(Refused) as err:
        sterilization_done(order=order, done_on=date(2026, 11, 20), veterinarian=" ", actor=officer)
    assert err.value.reasons[0].field == "veterinarian"
    sterilization_done(
        order=order,
        done_on=date(2026, 11, 20),
        veterinarian="Dr. Vet",
        by_authority=True,
        actor=officer,
    )
    with pytest.raises(Refused, match="Already recorded"):
        sterilization_done(order=order, done_on=date(2026, 11, 21), veterinarian="X", actor=officer)


def test_the_overdue_sweep_flags_once_and_catches_up_after_downtime(glencoe, officer, time_machine):
    case = declared(glencoe, officer, on=date(2026, 11, 10))
    order = sterilization_order(case=case, ordered_on=date(2026, 11, 12), actor=officer)
    on_due_day = datetime(2026, 12, 10, 23, 0, tzinfo=CENTRAL)
    assert sweep_sterilization_overdue(now=on_due_day).applied == 0
    # Down for a week: the next run catches up once.
    later = datetime(2026, 12, 17, 6, 0, tzinfo=CENTRAL)
    assert sweep_sterilization_overdue(now=later).applied == 1
    assert sweep_sterilization_overdue(now=later).applied == 0
    case.refresh_from_db()
    order.refresh_from_db()
    assert "Sterilization overdue since" in case.attention
    assert case.attention_citation == "Minn. Stat. 347.52(d)"
    assert order.overdue_flagged_on == date(2026, 12, 17)
    assert Event.objects.filter(action="dangerous_dogs.sterilization.overdue").count() == 1


def test_upcoming_shows_sterilization_due(glencoe, officer):
    from dangerous_dogs.later_sweeps import upcoming_sterilization_due

    case = declared(glencoe, officer, on=date(2026, 11, 10))
    sterilization_order(case=case, ordered_on=date(2026, 11, 12), actor=officer)
    rows = list(
        upcoming_sterilization_due(
            jurisdiction_ids=[glencoe.pk], start=date(2026, 12, 1), end=date(2026, 12, 31)
        )
    )
    assert [(r.due, r.what, r.citation) for r in rows] == [
        (date(2026, 12, 10), "Sterilization due", "Minn. Stat. 347.52(d)")
    ]
