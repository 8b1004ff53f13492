"""The REAL sweep registry: ``deadlines.sweep_all`` and ``manage.py sweep`` run every app's
registered sweep (style.md: one beat schedule, every job runnable by hand with --dry-run).

No registry is replaced here. A row is set up due for each registered sweep:
- a dog license past its December 31 expiry (LIC-07, NB Sec. 6-62);
- a kennel license past its expiry (KEN-05, NB Sec. 6-65(b));
- a kennel denial whose appeal deadline passed unappealed (KEN-07, Glencoe 701 Subd. 4(E));
- an impound hold that ended unclaimed (IMP-04, Glencoe 701 Subd. 13);
- a sterilization agreement past its due date (IMP-12, Glencoe 701 Subd. 26);
- a dangerous dog past its compliance deadline (DD-21, Glencoe 701 Subd. 15(K)(1)) and a
  dangerous-dog registration not renewed (DD-15, Glencoe 701 Subd. 15(G)(2));
- a notice of intent not contested within 14 days of receipt (DD-09, Glencoe 701 Subd. 15(J));
- a dangerous dog's sterilization order past due (DD-17, Minn. Stat. 347.52(d));
- a seized dangerous dog the pound disposed of after the reclaim period (DD-23);
- a rabies vaccination due again within the reminder lead days (RAB-03);
- a rabies quarantine past its end (RAB-13, North Branch Sec. 6-98);
- an exposed dog's observation past its end (RAB-27, Glencoe 701 Subd. 22(B));
- a license whose renewal window opened (LIC-13): in a third city on North
  Branch's ordinance whose licenses expire February 2 (so its window opens January 4);
- a citation past its appearance date with no outcome (REC-14): flagged once;
- a resident's lost-pet report past its open period (a program setting);
- a lost-pet report within the reminder days of its end, not yet reminded (the
  one past its end was reminded before it ended);
with a row not yet due beside each. A sweep registered later must add its row here: the
first test fails until it does.
"""

from datetime import date, datetime
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.management import call_command

from licensing.models import KennelLicense, KennelStatus, License, LicenseStatus
from ordinance import deadlines
from ordinance.models import Event
from tests.conftest import make_user
from tests.licensing.factories import OwnerFactory, PremisesFactory
from tests.licensing.license_factories import LicenseFactory

CHICAGO = ZoneInfo("America/Chicago")
NOW = datetime(2027, 1, 4, 10, 0, tzinfo=CHICAGO)  # a Monday after the Dec 31 expiry

SWEEPS = {
    "licensing.licenses_expire": "dog licenses expire",
    "licensing.kennel_licenses_expire": "kennel licenses expire",
    "licensing.kennel_denials_final": "kennel denials become final",
    "impound.holds_end": "impound holds end",
    "impound.sterilization_overdue": "sterilization agreements overdue",
    "dangerous_dogs.compliance_overdue": "dangerous-dog compliance overdue",
    "dangerous_dogs.registration_lapsed": "dangerous-dog registrations lapsed",
    "dangerous_dogs.contest_default": "dangerous-dog contest periods end",
    "dangerous_dogs.sterilization_overdue": "dangerous-dog sterilization overdue",
    "dangerous_dogs.seizure_disposed": "seized dangerous dogs disposed of",
    "rabies.vaccination_reminders": "rabies vaccination reminders",
    "rabies.quarantine_ended": "rabies quarantines end",
    "rabies.exposure_periods": "exposure periods end",
    "licensing.renewal_reminders": "renewal reminders",
    "citations.outcome_overdue": "citations past their appearance date with no outcome",
    "permits.temporary_expire": "temporary wild-animal permits expire",
    "permits.horse_expire": "horse permits expire",
    "permits.horse_reminders": "horse permit renewal reminders",
    "records.exports_expire": "data export archives past their retention period",
    "impound.lost_reports_expire": "lost-pet reports expire",
    "impound.lost_reports_remind": "lost-pet report reminders",
}


def _kennel(jurisdiction, number, **fields):
    return KennelLicense.objects.create(
        jurisdiction=jurisdiction,
        owner=OwnerFactory(jurisdiction=jurisdiction),
        premises=PremisesFactory(jurisdiction=jurisdiction),
        number=number,
        applied_on=date(2026, 1, 5),
        **fields,
    )


@pytest.fixture
def rows(north_branch, glencoe):
    issuer = make_user("issuer", "clerk", [north_branch])
    return (
        _impound_rows(glencoe)
        | _dd_rows(glencoe)
        | _dangerous_dog_rows(glencoe)
        | _dd_sterilization_rows(glencoe)
        | _vaccination_reminder_rows(north_branch)
        | _quarantine_rows(north_branch)
        | _exposure_rows(glencoe)
        | _renewal_reminder_rows(issuer)
        | _citation_rows(north_branch)
        | _permit_rows(glencoe)
        | _export_rows(north_branch, issuer)
        | _lost_report_rows(glencoe)
        | {
            # No e-mail address: the renewal window open on New Year's Eve reminds no one.
            "license_due": LicenseFactory(
                jurisdiction=north_branch,
                issued_by=issuer,
                number="2026-0001",
                animal__owner__email="",
            ),
            "license_later": LicenseFactory(
                jurisdiction=north_branch,
                issued_by=issuer,
                number="2027-0001",
                term_start=date(2027, 1, 1),
                expires_on=date(2027, 12, 31),
            ),
            "kennel_due": _kennel(
                north_branch,
                "K-2026-1",
                status=KennelStatus.ACTIVE,
                issued_on=date(2026, 1, 20),
                expires_on=date(2026, 12, 31),
            ),
            "kennel_later": _kennel(
                north_branch,
                "K-2027-1",
                status=KennelStatus.ACTIVE,
                issued_on=date(2027, 1, 2),
                expires_on=date(2027, 12, 31),
            ),
            "denial_due": _kennel(
                glencoe,
                "G-1",
                status=KennelStatus.DENIED,
                denial_notified_on=date(2026, 12, 23),
                appeal_deadline=date(2027, 1, 2),
            ),
            "denial_open": _kennel(
                glencoe,
                "G-2",
                status=KennelStatus.DENIED,
                denial_notified_on=date(2026, 12, 28),
                appeal_deadline=date(2027, 1, 7),
            ),
        }
    )


def _impound_rows(glencoe):
    """A stray taken in Wednesday, December 23, 2026: five business days (Christmas off)
    end Thursday, December 31; a second taken in on New Year's Eve is still held on the
    4th; an adopter's sterilization due December 31 and one due later."""
    from impound.models import SterilizationAgreement
    from tests.impound.factories import make_pound
    from tests.impound.helpers import at, take_in

    pound = make_pound(glencoe)
    officer = make_user("pound_officer", "officer", [glencoe])
    due = take_in(glencoe, pound, officer, at(2026, 12, 23, 10), "dog_at_large")
    later = take_in(glencoe, pound, officer, at(2026, 12, 31, 10), "dog_at_large")
    adopted = take_in(glencoe, pound, officer, at(2026, 11, 2, 10), "dog_at_large")
    adopted_later = take_in(glencoe, pound, officer, at(2026, 11, 3, 10), "dog_at_large")

    def agreement(case, due_on):
        case.close(
            "adopted", on=date(2026, 12, 1), at=at(2026, 12, 1, 10), actor=officer, note="Adopted"
        )
        return SterilizationAgreement.objects.create(
            case=case,
            jurisdiction=glencoe,
            adopter_name="Ada Adopter",
            adopter_address="5 Pine St, Glencoe",
            adopted_on=date(2026, 12, 1),
            due_on=due_on,
            due_citation="Glencoe 701 Subd. 26",
            due_basis="30 days after adoption",
            recorded_by=officer,
        )

    return {
        "hold_due": due,
        "hold_later": later,
        "sterilization_due": agreement(adopted, date(2026, 12, 31)),
        "sterilization_later": agreement(adopted_later, date(2027, 1, 20)),
    }


def _dd_rows(glencoe):
    """A dangerous dog whose compliance deadline passed on New Year's Day and one still
    within its period; a registration to renew by January 2 and one renewed later. The
    sweeps flag a person and leave the status as it is."""
    from dangerous_dogs.models import CaseStatus as DDStatus
    from dangerous_dogs.models import Registration
    from tests.dangerous_dogs.helpers import declared, make_case

    officer = make_user("dd_officer", "officer", [glencoe])
    registered = [
        make_case(glencoe, officer, status=DDStatus.REGISTERED, declared_designation="dangerous")
        for _ in range(2)
    ]
    for case, expires_on in zip(registered, (date(2027, 1, 2), date(2027, 6, 1)), strict=True):
        Registration.objects.create(
            case=case,
            jurisdiction=glencoe,
            number=f"{case.number}-R1",
            owner=case.owner,
            issued_on=date(2026, 1, 2),
            expires_on=expires_on,
            renewal_citation="Glencoe 701 Subd. 15(G)(2)",
            fee="250.00",
            issued_by=officer,
        )
    return {
        "dd_overdue": declared(
            glencoe, officer, on=date(2026, 12, 15), received_on=date(2026, 12, 18)
        ),
        "dd_within": declared(
            glencoe, officer, on=date(2026, 12, 28), received_on=date(2026, 12, 30)
        ),
        "dd_lapsed": registered[0],
        "dd_registered": registered[1],
        **_dd_seized(glencoe, officer),
    }


def _dd_seized(glencoe, officer):
    """Two seized dangerous dogs: one the pound euthanized on Saturday, January 2 after
    the reclaim period (the case closes from the 3rd), one still held."""
    from impound.models import CaseStatus as ImpoundStatus
    from tests.dangerous_dogs.helpers import make_case
    from tests.impound.factories import make_pound
    from tests.impound.helpers import at, take_in

    pound = make_pound(glencoe, name="Seizure Pound")
    disposed = take_in(glencoe, pound, officer, at(2026, 12, 20, 10), "dog_at_large")
    disposed.close(
        ImpoundStatus.EUTHANIZED,
        on=date(2027, 1, 2),
        at=at(2027, 1, 2, 10),
        actor=officer,
        note="Not reclaimed",
    )
    held = take_in(glencoe, pound, officer, at(2027, 1, 2, 10), "dog_at_large")
    return {
        "dd_seized_disposed": make_case(glencoe, officer, status="seized", impound_case=disposed),
        "dd_seized_held": make_case(glencoe, officer, status="seized", impound_case=held),
    }


def _dangerous_dog_rows(glencoe):
    """Notices of intent received December 19 (contest by January 2: default on the 3rd)
    and December 27 (contest by January 10)."""
    from tests.dangerous_dogs.helpers import make_case

    officer = make_user("dd_notice_officer", "officer", [glencoe])

    def served(received_on, contest_by):
        return make_case(
            glencoe,
            officer,
            status="notice_served",
            notice_received_on=received_on,
            contest_deadline=contest_by,
            contest_citation="Glencoe 701 Subd. 15(B), (J)",
        )

    return {
        "contest_due": served(date(2026, 12, 19), date(2027, 1, 2)),
        "contest_open": served(date(2026, 12, 27), date(2027, 1, 10)),
    }


class _Flagged:
    """A dangerous dog's sterilization order seen as a row with a status: the sweep flags
    the case once (the order keeps the date it was flagged)."""

    def __init__(self, order):
        self.order = order

    def refresh_from_db(self):
        self.order.refresh_from_db()

    @property
    def status(self):
        return "flagged" if self.order.overdue_flagged_on else "open"


def _dd_sterilization_rows(glencoe):
    """Sterilization orders of dogs declared dangerous: one due December 31, one later
    (DD-17, Minn. Stat. 347.52(d))."""
    from dangerous_dogs.models import SterilizationOrder
    from tests.dangerous_dogs.helpers import declared

    officer = make_user("dd_sterilization_officer", "officer", [glencoe])

    def order(due_on):
        case = declared(glencoe, officer, on=date(2026, 12, 1))
        return _Flagged(
            SterilizationOrder.objects.create(
                case=case,
                ordered_on=date(2026, 12, 1),
                due_on=due_on,
                due_citation="Minn. Stat. 347.52(d)",
                recorded_by=officer,
            )
        )

    return {
        "dd_sterilization_due": order(date(2026, 12, 31)),
        "dd_sterilization_later": order(date(2027, 1, 20)),
    }


class _Reminded:
    """A vaccination seen as a row with a status: the sweep e-mails its owner once."""

    def __init__(self, vaccination):
        self.vaccination = vaccination

    def refresh_from_db(self):
        pass

    @property
    def status(self):
        from rabies.models import VaccinationReminder

        return (
            "reminded"
            if VaccinationReminder.objects.filter(vaccination=self.vaccination).exists()
            else "open"
        )


def _vaccination_reminder_rows(north_branch):
    """Rabies vaccinations due again February 2 (within the 30 lead days on January 4,
    not yet on New Year's Eve) and March 1, 2027 (RABIES_REMINDER_LEAD_DAYS)."""
    from tests.impound.helpers import owned_dog
    from tests.rabies.helpers import vaccinate

    return {
        "vaccination_due": _Reminded(vaccinate(owned_dog(north_branch), date(2026, 2, 2))),
        "vaccination_later": _Reminded(vaccinate(owned_dog(north_branch), date(2026, 3, 1))),
    }


class _RenewalReminded:
    """A license seen as a row with a status: the sweep e-mails its owner once a term."""

    def __init__(self, license):
        self.license = license

    def refresh_from_db(self):
        pass

    @property
    def status(self):
        from licensing.models import RenewalReminder

        return (
            "reminded" if RenewalReminder.objects.filter(license=self.license).exists() else "open"
        )


def _renewal_reminder_rows(issuer):
    """A city on North Branch's ordinance but with licenses expiring February 2 (amended):
    its renewal window for the term from February 3, 2027 opens 30 days before, on
    Monday, January 4 (LIC-13). One license ends then; one was renewed for that term."""
    from ordinance.amendments import load_profile, rule_amend
    from ordinance.kinds import MonthDay
    from ordinance.models import Jurisdiction

    city = Jurisdiction.objects.create(
        slug="harris", name="City of Harris", short_name="Harris", profile_key="north_branch"
    )
    load_profile(city)
    rule_amend(
        jurisdiction=city,
        key="license_expiry",
        value=MonthDay(2, 2),
        effective_from=date(2026, 1, 1),
        ordinance_ref="Ord. 2025-9",
    )
    issuer.jurisdictions.add(city)

    def license(number, term_start, expires_on):
        return LicenseFactory(
            jurisdiction=city,
            issued_by=issuer,
            number=number,
            term_start=term_start,
            expires_on=expires_on,
            issued_on=term_start,
        )

    return {
        "renewal_due": _RenewalReminded(license("H-2026-1", date(2026, 2, 3), date(2027, 2, 2))),
        "renewal_later": _RenewalReminded(license("H-2027-1", date(2027, 2, 3), date(2028, 2, 2))),
    }


def _quarantine_rows(north_branch):
    """Rabies quarantines (RAB-13, North Branch Sec. 6-98): one whose ten days ended
    Saturday, January 2 (over from the 3rd), one ending January 5."""
    from tests.rabies.helpers import make_quarantine

    officer = make_user("rab_officer", "officer", [north_branch])
    return {
        "quarantine_due": make_quarantine(
            north_branch, officer, starts_on=date(2026, 12, 23), ends_on=date(2027, 1, 2)
        ),
        "quarantine_later": make_quarantine(
            north_branch, officer, starts_on=date(2026, 12, 26), ends_on=date(2027, 1, 5)
        ),
    }


def _exposure_rows(glencoe):
    """A vaccinated dog's 45-day observation that ended on New Year's Day (Glencoe 701
    Subd. 22(B)) and an unvaccinated dog's quarantine still running (22(A))."""
    from rabies.models import ExposurePath, ExposureStatus
    from tests.rabies.helpers import make_exposure

    officer = make_user("exposure_officer", "officer", [glencoe])
    return {
        "exposure_due": make_exposure(
            glencoe,
            officer,
            status=ExposureStatus.OBSERVATION,
            exposed_on=date(2026, 11, 17),
            period_starts_on=date(2026, 11, 17),
            period_ends_on=date(2027, 1, 1),
        ),
        "exposure_running": make_exposure(
            glencoe,
            officer,
            path=ExposurePath.UNVACCINATED_DOG_CAT,
            status=ExposureStatus.QUARANTINE,
            exposed_on=date(2026, 11, 17),
            period_starts_on=date(2026, 11, 17),
            period_ends_on=date(2027, 5, 17),
        ),
    }


class _CitationFlagged:
    """A citation seen as a row with a status: flagged once its appearance date passed
    with no outcome (the sweep changes no status of its own)."""

    def __init__(self, citation):
        self.citation = citation

    def refresh_from_db(self):
        self.citation.refresh_from_db()

    @property
    def status(self):
        return "flagged" if self.citation.outcome_overdue_at else self.citation.status


def _citation_rows(north_branch):
    """Citations to appear January 2 and January 20, 2027, issued December 15."""
    from tests.citations.helpers import at, cite
    from tests.impound.helpers import owned_dog

    officer = make_user("citing-officer", "officer", [north_branch])
    when = at(2026, 12, 15, 10)
    return {
        name: _CitationFlagged(
            cite(north_branch, officer, owned_dog(north_branch), when=when, appear=day)
        )
        for name, day in (
            ("citation_due", date(2027, 1, 2)),
            ("citation_later", date(2027, 1, 20)),
        )
    }


def _permit_rows(glencoe):
    """Glencoe permits: a circus's temporary permit whose last day was New
    Year's Day and one running to the 10th (Subd. 32(A)); a horse permit expiring January 2
    and one on April 15 (702; rows made directly: any date stands in for April 15); a
    horse permit whose renewal reminder fell due January 3 and one due in March."""
    from permits.models import HorsePermit, TemporaryPermit
    from tests.permits.helpers import horse_fields, temporary_fields

    clerk = make_user("permit_clerk", "clerk", [glencoe])

    def temporary(number, ends_on):
        fields = temporary_fields(starts_on=date(2026, 12, 20), ends_on=ends_on)
        return TemporaryPermit.objects.create(
            jurisdiction=glencoe,
            number=number,
            status="issued",
            applied_on=date(2026, 12, 1),
            entered_by=clerk,
            max_days_citation="Glencoe 701 Subd. 32(A)",
            **fields,
        )

    def horse(number, expires_on, remind_on, sent):
        return HorsePermit.objects.create(
            jurisdiction=glencoe,
            number=number,
            status="issued",
            applied_on=date(2026, 5, 1),
            entered_by=clerk,
            issued_on=date(2026, 5, 1),
            expires_on=expires_on,
            remind_on=remind_on,
            reminder_sent_at=datetime(2026, 12, 1, tzinfo=CHICAGO) if sent else None,
            expiry_citation="Glencoe 702",
            **horse_fields(),
        )

    return {
        "temporary_due": temporary("T2026-001", date(2027, 1, 1)),
        "temporary_later": temporary("T2026-002", date(2027, 1, 10)),
        "horse_due": horse("H2026-001", date(2027, 1, 2), date(2026, 12, 3), True),
        "horse_later": horse("H2026-002", date(2027, 4, 15), date(2027, 3, 16), False),
        "horse_remind": horse("H2026-003", date(2027, 2, 2), date(2027, 1, 3), False),
    }


def _export_rows(north_branch, requester):
    """Data exports: one whose retention ended on Saturday, January 2,
    and one kept until the 10th. Neither has its file here: the sweep removes what is
    there and marks the record."""
    from records.models import DataExport, ExportStatus

    def export(expires_at):
        made = DataExport.objects.create(
            requested_by=requester,
            status=ExportStatus.READY,
            requested_at=datetime(2026, 12, 30, 9, 0, tzinfo=CHICAGO),
            finished_at=datetime(2026, 12, 30, 9, 5, tzinfo=CHICAGO),
            expires_at=expires_at,
        )
        made.jurisdictions.set([north_branch])
        return made

    return {
        "export_due": export(datetime(2027, 1, 2, 9, 5, tzinfo=CHICAGO)),
        "export_later": export(datetime(2027, 1, 10, 9, 5, tzinfo=CHICAGO)),
    }


class _LostReminded:
    """A lost report seen as a row with a status: the sweep e-mails its resident once
    per open period (the report keeps the end it was reminded of)."""

    def __init__(self, report):
        self.report = report

    def refresh_from_db(self):
        self.report.refresh_from_db()

    @property
    def status(self):
        return "reminded" if self.report.reminder_sent_for_expiry else self.report.status


def _lost_report_rows(glencoe):
    """Lost-pet reports filed December 1 (open through New Year's Eve,
    the profile's 30 days: expired on the 4th; reminded on Christmas Eve, seven days
    before) and December 20 (open through January 19, reminded from the 12th); one filed
    December 10, open through January 9: its reminder fell due January 2."""
    from impound.models import LostReport
    from tests.impound.helpers import at
    from tests.impound.lost_helpers import report

    reporter = make_user("lost_reporter", "resident", email="lost@example.org")
    due = report(glencoe, reporter, when=at(2026, 12, 1, 9), species="cat")
    LostReport.objects.filter(pk=due.pk).update(reminder_sent_for_expiry=due.expires_on)
    return {
        "lost_due": due,
        "lost_later": report(glencoe, reporter, when=at(2026, 12, 20, 9), species="cat"),
        "lost_remind": _LostReminded(
            report(glencoe, reporter, when=at(2026, 12, 10, 9), species="cat")
        ),
    }


def statuses(rows):
    for row in rows.values():
        row.refresh_from_db()
    return {name: row.status for name, row in rows.items()}


BEFORE = {
    "license_due": LicenseStatus.ACTIVE,
    "license_later": LicenseStatus.ACTIVE,
    "kennel_due": KennelStatus.ACTIVE,
    "kennel_later": KennelStatus.ACTIVE,
    "denial_due": KennelStatus.DENIED,
    "denial_open": KennelStatus.DENIED,
    "hold_due": "held",
    "hold_later": "held",
    "sterilization_due": "pending",
    "sterilization_later": "pending",
    "dd_overdue": "declared",
    "dd_within": "declared",
    "dd_lapsed": "registered",
    "dd_registered": "registered",
    "contest_due": "notice_served",
    "contest_open": "notice_served",
    "dd_sterilization_due": "open",
    "dd_sterilization_later": "open",
    "dd_seized_disposed": "seized",
    "dd_seized_held": "seized",
    "vaccination_due": "open",
    "vaccination_later": "open",
    "quarantine_due": "home",
    "quarantine_later": "home",
    "exposure_due": "observation",
    "exposure_running": "quarantine",
    "renewal_due": "open",
    "renewal_later": "open",
    "citation_due": "issued",
    "citation_later": "issued",
    "temporary_due": "issued",
    "temporary_later": "issued",
    "horse_due": "issued",
    "horse_later": "issued",
    "horse_remind": "issued",
    "export_due": "ready",
    "export_later": "ready",
    "lost_due": "open",
    "lost_later": "open",
    "lost_remind": "open",
}
AFTER = BEFORE | {
    "vaccination_due": "reminded",
    "renewal_due": "reminded",
    "citation_due": "flagged",
    "exposure_due": "ended",
    "hold_due": "available",
    "sterilization_due": "overdue",
    "contest_due": "defaulted",
    "dd_sterilization_due": "flagged",
    "dd_seized_disposed": "destroyed",
    "quarantine_due": "ended",
    "license_due": LicenseStatus.EXPIRED,
    "kennel_due": KennelStatus.EXPIRED,
    "denial_due": KennelStatus.DENIED_FINAL,
    "temporary_due": "expired",
    "horse_due": "expired",
    "export_due": "expired",
    "lost_due": "expired",
    "lost_remind": "reminded",
}


def by_name(results):
    return {r.name: (r.due, r.applied, r.dry_run) for r in results}


def test_every_app_registers_the_sweeps_this_file_sets_up_rows_for():
    assert set(deadlines.registered_sweeps()) == set(SWEEPS)


def test_sweep_all_applies_each_registered_sweep_once(rows):
    first = deadlines.sweep_all(now=NOW)
    assert by_name(first) == {name: (1, 1, False) for name in SWEEPS.values()}
    assert statuses(rows) == AFTER
    again = deadlines.sweep_all(now=NOW)
    assert by_name(again) == {name: (0, 0, False) for name in SWEEPS.values()}
    assert statuses(rows) == AFTER
    assert Event.objects.filter(action="licensing.kennel.denied_final").count() == 1
    assert rows["license_due"].status_changed_on == date(2027, 1, 4)


def test_sweep_all_catches_up_after_downtime(rows):
    """Nothing is due on New Year's Eve; down from then to the 4th, one run does all that
    fell due in between (the expiries of Jan 1, the denial final on Jan 3)."""
    assert by_name(deadlines.sweep_all(now=datetime(2026, 12, 31, 23, 30, tzinfo=CHICAGO))) == {
        name: (0, 0, False) for name in SWEEPS.values()
    }
    assert statuses(rows) == BEFORE
    deadlines.sweep_all(now=NOW)
    assert statuses(rows) == AFTER


def test_a_dry_run_counts_and_changes_nothing(rows):
    assert by_name(deadlines.sweep_all(now=NOW, dry_run=True)) == {
        name: (1, 1, True) for name in SWEEPS.values()
    }
    assert statuses(rows) == BEFORE
    assert not Event.objects.filter(
        action__in=[
            "licensing.license.expired",
            "licensing.kennel.expired",
            "licensing.kennel.denied_final",
        ]
    ).exists()


def run(*args):
    out = StringIO()
    with time_machine.travel(NOW, tick=False):
        call_command("sweep", *args, stdout=out)
    return out.getvalue().strip()


def test_manage_py_sweep_dry_run_prints_what_it_would_do_and_changes_nothing(rows):
    output = run("--dry-run")
    assert output.startswith("[dry run] ")
    for name in SWEEPS.values():
        assert f"{name}: 1 due, would apply 1" in output
    assert statuses(rows) == BEFORE
    assert License.objects.filter(status=LicenseStatus.EXPIRED).count() == 0


def test_manage_py_sweep_applies_then_finds_nothing_left(rows):
    output = run()
    assert not output.startswith("[dry run]")
    for name in SWEEPS.values():
        assert f"{name}: 1 due, applied 1" in output
    assert statuses(rows) == AFTER
    output = run()
    for name in SWEEPS.values():
        assert f"{name}: 0 due, applied 0" in output
    assert statuses(rows) == AFTER
