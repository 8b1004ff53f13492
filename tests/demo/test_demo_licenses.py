"""demo_data's licensing: tag stock, two seasons of licenses, counter stories, kennels.

The whole command is loaded once for this module on a fixed day (June 15, 2026), inside a
transaction that is rolled back at the end; each test runs in a savepoint within it.

The windows are written out as dates, worked out by hand from North Branch's ordinance
for that day, not recomputed with the code under test (ordinance.calendar, rule_in_force): a
wrong window in the code fails here. The command always runs at the fixed moment, so the
module passes under any --clock.
"""

from collections import Counter
from datetime import date, datetime
from io import StringIO
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.management import call_command
from django.db import transaction
from django.db.models import Count, Max

from demo.licensing import TAG_VENDOR, TAGS_PER_YEAR
from impound.models import LostMatch, LostReport
from licensing.models import (
    Animal,
    AnimalStatus,
    KennelAnimal,
    KennelDecision,
    KennelLicense,
    KennelStatus,
    License,
    LicenseStatus,
    Ownership,
    RabiesVaccination,
    Receipt,
    ReceiptLine,
    Species,
    Tag,
    TagStatus,
    TagStock,
)
from licensing.services.kennels.applications import steps_outstanding
from notices.models import IssuedDocument
from notices.services import document_pdf
from ordinance import deadlines
from ordinance.models import Event, Jurisdiction
from tests.pdf import pdf_text

NOW = datetime(2026, 6, 15, 12, 0, tzinfo=ZoneInfo("America/Chicago"))  # a Monday
TODAY = date(2026, 6, 15)
THIS_YEAR, LAST_YEAR = 2026, 2025

# NB Sec. 6-62 (LIC-07, DEF-21): a license runs for the calendar year and expires Dec 31.
TERMS = {
    LAST_YEAR: (date(2025, 1, 1), date(2025, 12, 31)),
    THIS_YEAR: (date(2026, 1, 1), date(2026, 12, 31)),
}
# NB Sec. 6-65(c) (LIC-13): applications "30 days prior to" the Jan 1 term start are for
# that term, so the window for 2026 opens Dec 2, 2025 (Jan 1 less 30 days).
RENEWAL_OPENS = {LAST_YEAR: date(2024, 12, 2), THIS_YEAR: date(2025, 12, 2)}
# NB Sec. 6-65(c) (LIC-13, FEE-03): no penalty "30 days after the start of the licensing
# term": Jan 2 .. Jan 31 is free; the penalty applies from Feb 1.
PENALTY_FROM = {LAST_YEAR: date(2025, 2, 1), THIS_YEAR: date(2026, 2, 1)}
# NB Sec. 6-61 (LIC-05, LIC-15): a rabies shot "not more than 24 months prior to the
# expiration date": on or after Dec 31, 2023 for a Dec 31, 2025 expiry.
RABIES_FROM = {date(2025, 12, 31): date(2023, 12, 31), date(2026, 12, 31): date(2024, 12, 31)}
# NB Sec. 6-60 (LIC-01): a dog "over six months old" on June 15, 2026 was born before
# Dec 15, 2025 (born Dec 15 it is exactly six months old: not over).
BORN_BEFORE = date(2025, 12, 15)
# NB Sec. 6-65(c) new-subject grace (LIC-13): a dog born by June 30, 2025 was over six
# months old on Dec 31, 2025 (June 30 + 6 months = Dec 30), so it was subject before the
# 2026 term started and has no grace days; born July 1 it turned six months on Jan 1.
SUBJECT_BEFORE_TERM_IF_BORN_BY = {LAST_YEAR: date(2024, 6, 30), THIS_YEAR: date(2025, 6, 30)}
# NB Sec. 6-65(a), (b) (KEN-04); Glencoe 701 Subd. 4(D) (KEN-04), from the profiles.
NB_KENNEL_STEPS = [
    "CUP approved by Council",
    "Zoning and CUP conditions met",
    "Minn. Stat. 347.30-347.40 complied with",
]
GL_KENNEL_STEPS = [
    "City Administrator review",
    "Planning Division zoning referral",
    "Issue or deny",
]


def run(*args) -> str:
    """demo_data at the fixed moment, whatever --clock the run has."""
    out = StringIO()
    with time_machine.travel(NOW, tick=False):
        call_command("demo_data", *args, stdout=out)
    return out.getvalue()


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """The full demo_data as of TODAY, loaded once and rolled back after the module."""
    with django_db_blocker.unblock():
        with transaction.atomic():
            output = run()
            yield output
            transaction.set_rollback(True)


@pytest.fixture
def nb(demo, db):
    return Jurisdiction.objects.get(slug="north-branch")


@pytest.fixture
def gl(demo, db):
    return Jurisdiction.objects.get(slug="glencoe")


def table_counts() -> dict:
    models = (
        License,
        Tag,
        TagStock,
        Receipt,
        ReceiptLine,
        KennelLicense,
        KennelDecision,
        KennelAnimal,
        RabiesVaccination,
        Ownership,
        IssuedDocument,
        Event,
        LostReport,
        LostMatch,
    )
    return {m.__name__: m.objects.count() for m in models} | {
        "License history": License.history.count(),
        "Tag history": Tag.history.count(),
    }


def test_running_it_again_adds_nothing(demo, db):
    before = table_counts()
    output = run()
    assert "north-branch: demo licensing already loaded" in output
    assert "glencoe: demo licensing already loaded" in output
    assert "lost-pet report" not in output  # the resident's reports are there
    assert table_counts() == before
    assert (before["LostReport"], before["LostMatch"]) == (2, 1)


def test_it_reports_what_it_loaded(demo):
    assert "north-branch:" in demo and " licenses" in demo and "1 kennels" in demo
    assert "glencoe: 1 lost-pet report(s) from the demo resident" in demo
    assert "0 refused" in demo  # every planned license passed the services' checks
    assert "glencoe: 2 kennel receipts, 2 kennels" in demo


def test_north_branch_has_last_this_and_next_years_tag_stock(nb):
    stock = TagStock.objects.filter(jurisdiction=nb).order_by("year")
    assert [s.year for s in stock] == [LAST_YEAR, THIS_YEAR, THIS_YEAR + 1]
    assert all(s.vendor == TAG_VENDOR and s.size == TAGS_PER_YEAR for s in stock)
    assert all(s.received_on <= TODAY and s.received_on.year == s.year - 1 for s in stock)
    assert Tag.objects.filter(jurisdiction=nb).count() == 3 * TAGS_PER_YEAR
    assert not Tag.objects.filter(year=THIS_YEAR + 1).exclude(status=TagStatus.AVAILABLE).exists()
    assert not TagStock.objects.exclude(jurisdiction=nb).exists()  # Glencoe has no tags (LIC-16)


def licensable_dogs(nb):
    """Household dogs past the license age and acquired by today (LIC-01, LIC-03)."""
    return list(
        Animal.objects.filter(
            jurisdiction=nb,
            species=Species.DOG,
            status=AnimalStatus.ALIVE,
            date_of_birth__lt=BORN_BEFORE,
            acquired_on__lte=TODAY,
        )
    )


def test_most_dogs_old_enough_are_licensed_this_year_and_some_are_not(nb):
    dogs = licensable_dogs(nb)
    licensed = set(
        License.objects.filter(
            jurisdiction=nb, status=LicenseStatus.ACTIVE, expires_on__year=THIS_YEAR
        ).values_list("animal_id", flat=True)
    )
    share = sum(d.pk in licensed for d in dogs) / len(dogs)
    assert 0.7 < share < 0.97, share
    assert not License.objects.exclude(jurisdiction=nb).exists()  # Glencoe licenses no dogs


def test_last_years_licenses_expired_and_a_few_dogs_have_only_those(nb):
    last_year = License.objects.filter(jurisdiction=nb, expires_on__year=LAST_YEAR)
    assert last_year.count() > 50
    assert set(last_year.values_list("status", flat=True)) == {LicenseStatus.EXPIRED}  # LIC-07
    renewed = License.objects.filter(renewal_of__in=last_year).count()
    lapsed = last_year.exclude(animal__licenses__expires_on__year=THIS_YEAR).count()
    assert renewed > 30 and 3 <= lapsed < last_year.count() / 2
    assert Event.objects.filter(action="licensing.license.expired").exists()


def test_every_license_runs_for_the_calendar_year_and_was_applied_for_in_its_window(nb):
    """LIC-07, LIC-13: term Jan 1 - Dec 31; from Dec 2 an application is for the next term."""
    for year, (term_start, expires_on) in TERMS.items():
        licenses = License.objects.filter(jurisdiction=nb, expires_on__year=year)
        assert licenses.count() > 50
        assert set(licenses.values_list("term_start", "expires_on")) == {(term_start, expires_on)}
        assert not licenses.filter(issued_on__lt=RENEWAL_OPENS[year]).exists()
        assert not licenses.filter(issued_on__gt=expires_on).exists()
    # Dec 2, 2025 on is the 2026 window: no 2025 license was issued then.
    assert not License.objects.filter(
        expires_on=date(2025, 12, 31), issued_on__gte=RENEWAL_OPENS[THIS_YEAR]
    ).exists()
    assert not License.objects.exclude(expires_on__in=[e for _s, e in TERMS.values()]).exists()


def test_licenses_are_issued_over_the_season_some_late_with_the_penalty(nb):
    this_year = License.objects.filter(jurisdiction=nb, expires_on__year=THIS_YEAR)
    months = Counter(lic.issued_on.month for lic in this_year)
    assert months[1] > months[2] > 0 and months[3] > 0
    assert sum(months[m] for m in (1, 2, 3)) > 0.8 * this_year.count()
    late = this_year.filter(late_penalty=True)
    assert 0.1 * this_year.count() < late.count() < 0.5 * this_year.count()
    penalised = set(
        ReceiptLine.objects.filter(code="late_penalty", amount__gt=0).values_list(
            "receipt__licenses", flat=True
        )
    )
    assert penalised == set(License.objects.filter(late_penalty=True).values_list("pk", flat=True))
    for year in TERMS:  # FEE-03: only after the penalty-free window (or the grace days)
        season = License.objects.filter(jurisdiction=nb, expires_on__year=year)
        assert not season.filter(late_penalty=True, issued_on__lt=PENALTY_FROM[year]).exists()
        # A dog subject before the term that came from Feb 1 paid the penalty (no grace).
        subject_before = season.filter(
            issued_on__gte=PENALTY_FROM[year],
            animal__date_of_birth__lte=SUBJECT_BEFORE_TERM_IF_BORN_BY[year],
            animal__acquired_on__lte=TERMS[year][0],
        )
        assert subject_before.exists()
        assert not subject_before.filter(late_penalty=False).exists()


def test_every_license_had_a_rabies_certificate_in_the_window(nb):
    licenses = License.objects.filter(jurisdiction=nb).select_related("vaccination")
    assert {lic.expires_on for lic in licenses} == set(RABIES_FROM)
    for license in licenses:
        given = license.vaccination.vaccinated_on  # LIC-05, LIC-15
        assert RABIES_FROM[license.expires_on] <= given <= license.issued_on


def test_payments_are_a_mix_of_cash_check_and_card(nb):
    methods = Counter(Receipt.objects.filter(jurisdiction=nb).values_list("method", flat=True))
    assert set(methods) == {"cash", "check", "card"}
    assert all(n > 20 for n in methods.values())


def test_receipts_are_numbered_without_gaps_in_date_order_per_city(nb, gl):
    for city in (nb, gl):
        receipts = list(Receipt.objects.filter(jurisdiction=city).order_by("number"))
        assert [r.number for r in receipts] == list(range(1, len(receipts) + 1))
        issued = [r.issued_at for r in receipts]
        assert issued == sorted(issued) and issued[-1] <= NOW
    assert Receipt.objects.filter(jurisdiction=gl).count() == 2


def test_every_active_license_wears_one_tag_of_its_year(nb):
    active = License.objects.filter(jurisdiction=nb, status=LicenseStatus.ACTIVE)
    tags = Counter(
        Tag.objects.filter(license__in=active, status=TagStatus.ISSUED).values_list(
            "license_id", flat=True
        )
    )
    assert set(tags) == set(active.values_list("pk", flat=True))
    assert set(tags.values()) == {1}
    assert (
        not Tag.objects.filter(license__in=active, status=TagStatus.ISSUED)
        .exclude(year=THIS_YEAR)
        .exists()
    )
    latest = (
        Tag.objects.filter(year=THIS_YEAR)
        .exclude(status=TagStatus.AVAILABLE)
        .aggregate(Max("number"))["number__max"]
    )
    assert (
        latest == Tag.objects.filter(year=THIS_YEAR).exclude(status=TagStatus.AVAILABLE).count()
    )  # handed out from the bottom of the stock


def test_one_tag_was_lost_and_replaced_by_a_duplicate(nb):
    lost = Tag.objects.get(jurisdiction=nb, status=TagStatus.LOST)  # LIC-10
    duplicate = lost.license.tags.get(status=TagStatus.ISSUED)
    assert duplicate.number != lost.number and duplicate.issued_on > lost.issued_on
    assert ReceiptLine.objects.filter(code="duplicate_tag").count() == 1


def test_one_license_was_transferred_to_a_new_owner(nb):
    event = Event.objects.get(action="licensing.license.transferred")  # LIC-12
    license = License.objects.get(pk=event.subject_id)
    assert license.owner.pk == event.data["to_owner"] == license.animal.owner_id
    ownerships = list(license.animal.ownerships.order_by("started_on"))
    assert [o.owner_id for o in ownerships] == [event.data["from_owner"], event.data["to_owner"]]
    assert ownerships[0].ended_on == ownerships[1].started_on
    assert ReceiptLine.objects.filter(code="transfer").count() == 1


def test_one_receipt_was_voided_and_the_owner_paid_again(nb):
    void = Receipt.objects.get(jurisdiction=nb, voids__isnull=False)  # LIC-06
    original = void.voids
    assert original.method == "check" and void.total == -original.total
    license = original.licenses.get()
    assert license.status == LicenseStatus.VOID
    assert license.tags.get().status == TagStatus.VOID
    again = License.objects.get(
        animal=license.animal, expires_on=license.expires_on, status=LicenseStatus.ACTIVE
    )
    assert again.receipt.method == "cash" and again.receipt.number > void.number


def test_the_demo_residents_dog_is_licensed_with_its_documents(nb):
    juniper = Animal.objects.get(owner__user__username="resident", species=Species.DOG)
    license = License.objects.get(animal=juniper, status=LicenseStatus.ACTIVE)
    assert license.owner.user.username == "resident"
    assert (license.term_start, license.expires_on) == (date(2026, 1, 1), date(2026, 12, 31))
    assert license in License.objects.filter(owner__user__username="resident")
    documents = IssuedDocument.objects.filter(owner_user__username="resident")
    assert {d.kind for d in documents} == {"receipt", "receipt_80mm", "license_certificate"}
    assert {str(license.receipt.number), license.number} <= {d.number for d in documents}


def test_every_license_and_receipt_has_its_documents_laid_out_at_first_print(demo, db):
    """Issued through the services (REC-01, LIC-06); rendering_deferred keeps demo_data
    fast: the PDF is laid out from the frozen snapshot when first printed."""
    certified = set(
        IssuedDocument.objects.filter(kind="license_certificate").values_list(
            "subject_id", flat=True
        )
    )
    assert certified == set(License.objects.values_list("pk", flat=True))
    for kind in ("receipt", "receipt_80mm"):
        printed = set(
            IssuedDocument.objects.filter(kind=kind, voids__isnull=True).values_list(
                "subject_id", flat=True
            )
        )
        assert printed == set(Receipt.objects.values_list("pk", flat=True))
    assert IssuedDocument.objects.filter(kind="kennel_license").exists()
    pending = IssuedDocument.objects.filter(sha256="", kind="license_certificate").first()
    assert pending is not None and not pending.file
    data = document_pdf(pending)
    assert pending.number in pdf_text(data)
    assert document_pdf(IssuedDocument.objects.get(pk=pending.pk)) == data


def test_north_branch_has_an_active_boarding_kennel_with_its_decisions_and_dogs(nb):
    kennel = KennelLicense.objects.get(jurisdiction=nb)
    assert kennel.status == KennelStatus.ACTIVE and kennel.is_current(TODAY)
    assert kennel.expires_on == date(2026, 12, 31) and kennel.cup_reference  # KEN-05
    decisions = list(kennel.decisions.order_by("decided_on"))
    assert [d.step for d in decisions] == NB_KENNEL_STEPS  # KEN-04
    assert all(d.outcome in ("approved", "conditions") for d in decisions)
    assert kennel.conditions and kennel.receipt.total > 0
    dogs = [m.animal for m in kennel.kennel_animals.select_related("animal")]
    assert len(dogs) >= 4  # KEN-03: a commercial kennel of four or more dogs
    assert all(d.licenses.filter(status=LicenseStatus.ACTIVE).exists() for d in dogs)
    assert all(d.premises_id == kennel.premises_id for d in dogs)


def test_glencoe_has_one_application_under_review_and_one_denial_open_to_appeal(gl):
    review = KennelLicense.objects.get(jurisdiction=gl, status=KennelStatus.UNDER_REVIEW)
    administrator, planning, decide = GL_KENNEL_STEPS
    assert [d.step for d in review.decisions.all()] == [administrator]
    assert steps_outstanding(review, on=TODAY) == [planning, decide]  # KEN-04
    assert review.receipt is not None  # 701 Subd. 4(C): fee with the application
    denied = KennelLicense.objects.get(jurisdiction=gl, status=KennelStatus.DENIED)
    # The demo notifies the applicant on Friday June 12 (three days before Monday June 15);
    # 701 Subd. 4(E) (KEN-07): appeal "within ten days of notification": June 22.
    assert denied.denial_notified_on == date(2026, 6, 12)
    assert denied.appeal_deadline == date(2026, 6, 22)
    upcoming = deadlines.upcoming(jurisdiction_ids=[gl.pk], today=TODAY)
    assert any(d.due == date(2026, 6, 22) and "appeal" in d.what for d in upcoming)


def test_nothing_is_dated_after_today(demo, db):
    assert not License.objects.filter(issued_on__gt=TODAY).exists()
    assert not Receipt.objects.filter(issued_at__gt=NOW).exists()
    assert not RabiesVaccination.objects.filter(vaccinated_on__gt=TODAY).exists()
    assert not KennelDecision.objects.filter(decided_on__gt=TODAY).exists()


def test_vaccinations_stay_mostly_current_with_some_lapsed(demo, db):
    total = RabiesVaccination.objects.count()
    current = RabiesVaccination.objects.filter(next_due_on__gte=TODAY).count()
    assert 0.5 * total < current < 0.95 * total


def test_no_animal_has_two_certificates_of_the_same_day(demo, db):
    twice = (
        RabiesVaccination.objects.values("animal", "vaccinated_on")
        .annotate(n=Count("pk"))
        .filter(n__gt=1)
    )
    assert not twice.exists()


def test_size_adds_that_many_animals_once(demo, db):
    before = Animal.objects.count()
    output = run("--size", "1500")
    assert Animal.objects.count() == before + 1500
    assert "bulk: 1500 animals added" in output
    run("--size", "1500")
    assert Animal.objects.count() == before + 1500
