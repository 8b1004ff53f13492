"""demo_data's licensing: tag stock, two seasons of licences, counter stories, kennels.

The whole command is loaded once for this module on a fixed day (June 15, 2026), inside a
transaction that is rolled back at the end; each test runs in a savepoint within it.
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

from licensing.demo_licences import TAG_VENDOR, TAGS_PER_YEAR
from licensing.models import (
    Animal,
    AnimalStatus,
    KennelAnimal,
    KennelDecision,
    KennelLicence,
    KennelStatus,
    Licence,
    LicenceStatus,
    Ownership,
    RabiesVaccination,
    Receipt,
    ReceiptLine,
    Species,
    Tag,
    TagStatus,
    TagStock,
)
from licensing.services.kennels import steps_outstanding
from notices.models import IssuedDocument
from notices.services import document_pdf
from ordinance import deadlines
from ordinance.calendar import add_calendar_days, add_months
from ordinance.models import Event, Jurisdiction
from ordinance.rules import get_rule
from tests.pdf import pdf_text

NOW = datetime(2026, 6, 15, 12, 0, tzinfo=ZoneInfo("America/Chicago"))
TODAY = NOW.date()
THIS_YEAR, LAST_YEAR = TODAY.year, TODAY.year - 1


def run(*args) -> str:
    out = StringIO()
    call_command("demo_data", *args, stdout=out)
    return out.getvalue()


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    """The full demo_data as of TODAY, loaded once and rolled back after the module."""
    with django_db_blocker.unblock(), time_machine.travel(NOW, tick=False):
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
    models = (Licence, Tag, TagStock, Receipt, ReceiptLine, KennelLicence, KennelDecision,
              KennelAnimal, RabiesVaccination, Ownership, IssuedDocument, Event)
    return {m.__name__: m.objects.count() for m in models} | {
        "Licence history": Licence.history.count(), "Tag history": Tag.history.count()}


def test_running_it_again_adds_nothing(demo, db):
    before = table_counts()
    output = run()
    assert "north-branch: demo licensing already loaded" in output
    assert "glencoe: demo licensing already loaded" in output
    assert table_counts() == before


def test_it_reports_what_it_loaded(demo):
    assert "north-branch:" in demo and " licences" in demo and "1 kennels" in demo
    assert "0 refused" in demo  # every planned licence passed the services' checks
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
    """Household dogs past the licence age and acquired by today (LIC-01, LIC-03)."""
    months = get_rule(nb, "license_age_months", on=TODAY).value
    return [d for d in Animal.objects.filter(jurisdiction=nb, species=Species.DOG,
                                             status=AnimalStatus.ALIVE)
            if add_months(d.date_of_birth, months) < TODAY and d.acquired_on <= TODAY]


def test_most_dogs_old_enough_are_licensed_this_year_and_some_are_not(nb):
    dogs = licensable_dogs(nb)
    licensed = set(Licence.objects.filter(jurisdiction=nb, status=LicenceStatus.ACTIVE,
                                          expires_on__year=THIS_YEAR)
                   .values_list("animal_id", flat=True))
    share = sum(d.pk in licensed for d in dogs) / len(dogs)
    assert 0.7 < share < 0.97, share
    assert not Licence.objects.exclude(jurisdiction=nb).exists()  # Glencoe licenses no dogs


def test_last_years_licences_expired_and_a_few_dogs_have_only_those(nb):
    last_year = Licence.objects.filter(jurisdiction=nb, expires_on__year=LAST_YEAR)
    assert last_year.count() > 50
    assert set(last_year.values_list("status", flat=True)) == {LicenceStatus.EXPIRED}  # LIC-07
    renewed = Licence.objects.filter(renewal_of__in=last_year).count()
    lapsed = last_year.exclude(animal__licences__expires_on__year=THIS_YEAR).count()
    assert renewed > 30 and 3 <= lapsed < last_year.count() / 2
    assert Event.objects.filter(action="licensing.licence.expired").exists()


def test_licences_are_issued_over_the_season_some_late_with_the_penalty(nb):
    window = get_rule(nb, "renewal_window_days_after_term_start", on=TODAY).value
    this_year = Licence.objects.filter(jurisdiction=nb, expires_on__year=THIS_YEAR)
    months = Counter(lic.issued_on.month for lic in this_year)
    assert months[1] > months[2] > 0 and months[3] > 0
    assert sum(months[m] for m in (1, 2, 3)) > 0.8 * this_year.count()
    late = this_year.filter(late_penalty=True)
    assert 0.1 * this_year.count() < late.count() < 0.5 * this_year.count()
    penalised = set(ReceiptLine.objects.filter(code="late_penalty", amount__gt=0)
                    .values_list("receipt__licences", flat=True))
    assert penalised == set(Licence.objects.filter(late_penalty=True).values_list("pk", flat=True))
    for licence in late:  # FEE-03: only after the penalty-free window (or the grace days)
        assert licence.issued_on > add_calendar_days(licence.term_start, window)


def test_every_licence_had_a_rabies_certificate_in_the_window(nb):
    months = get_rule(nb, "rabies_cert_max_months_before_expiry", on=TODAY).value
    for licence in Licence.objects.filter(jurisdiction=nb).select_related("vaccination"):
        given = licence.vaccination.vaccinated_on  # LIC-05, LIC-15
        assert add_months(licence.expires_on, -months) <= given <= licence.issued_on


def test_payments_are_a_mix_of_cash_cheque_and_card(nb):
    methods = Counter(Receipt.objects.filter(jurisdiction=nb).values_list("method", flat=True))
    assert set(methods) == {"cash", "cheque", "card"}
    assert all(n > 20 for n in methods.values())


def test_receipts_are_numbered_without_gaps_in_date_order_per_city(nb, gl):
    for city in (nb, gl):
        receipts = list(Receipt.objects.filter(jurisdiction=city).order_by("number"))
        assert [r.number for r in receipts] == list(range(1, len(receipts) + 1))
        issued = [r.issued_at for r in receipts]
        assert issued == sorted(issued) and issued[-1] <= NOW
    assert Receipt.objects.filter(jurisdiction=gl).count() == 2


def test_every_active_licence_wears_one_tag_of_its_year(nb):
    active = Licence.objects.filter(jurisdiction=nb, status=LicenceStatus.ACTIVE)
    tags = Counter(Tag.objects.filter(licence__in=active, status=TagStatus.ISSUED)
                   .values_list("licence_id", flat=True))
    assert set(tags) == set(active.values_list("pk", flat=True))
    assert set(tags.values()) == {1}
    assert not Tag.objects.filter(licence__in=active, status=TagStatus.ISSUED).exclude(
        year=THIS_YEAR).exists()
    latest = Tag.objects.filter(year=THIS_YEAR).exclude(status=TagStatus.AVAILABLE).aggregate(
        Max("number"))["number__max"]
    assert latest == Tag.objects.filter(year=THIS_YEAR).exclude(
        status=TagStatus.AVAILABLE).count()  # handed out from the bottom of the stock


def test_one_tag_was_lost_and_replaced_by_a_duplicate(nb):
    lost = Tag.objects.get(jurisdiction=nb, status=TagStatus.LOST)  # LIC-10
    duplicate = lost.licence.tags.get(status=TagStatus.ISSUED)
    assert duplicate.number != lost.number and duplicate.issued_on > lost.issued_on
    assert ReceiptLine.objects.filter(code="duplicate_tag").count() == 1


def test_one_licence_was_transferred_to_a_new_owner(nb):
    event = Event.objects.get(action="licensing.licence.transferred")  # LIC-12
    licence = Licence.objects.get(pk=event.subject_id)
    assert licence.owner.pk == event.data["to_owner"] == licence.animal.owner_id
    ownerships = list(licence.animal.ownerships.order_by("started_on"))
    assert [o.owner_id for o in ownerships] == [event.data["from_owner"], event.data["to_owner"]]
    assert ownerships[0].ended_on == ownerships[1].started_on
    assert ReceiptLine.objects.filter(code="transfer").count() == 1


def test_one_receipt_was_voided_and_the_owner_paid_again(nb):
    void = Receipt.objects.get(jurisdiction=nb, voids__isnull=False)  # LIC-06
    original = void.voids
    assert original.method == "cheque" and void.total == -original.total
    licence = original.licences.get()
    assert licence.status == LicenceStatus.VOID
    assert licence.tags.get().status == TagStatus.VOID
    again = Licence.objects.get(animal=licence.animal, expires_on=licence.expires_on,
                                status=LicenceStatus.ACTIVE)
    assert again.receipt.method == "cash" and again.receipt.number > void.number


def test_the_demo_residents_dog_is_licensed_with_its_documents(nb):
    juniper = Animal.objects.get(owner__user__username="resident", species=Species.DOG)
    licence = Licence.objects.get(animal=juniper, status=LicenceStatus.ACTIVE)
    assert licence.owner.user.username == "resident" and licence.expires_on.year == THIS_YEAR
    assert licence in Licence.objects.filter(owner__user__username="resident")
    documents = IssuedDocument.objects.filter(owner_user__username="resident")
    assert {d.kind for d in documents} == {"receipt", "receipt_80mm", "licence_certificate"}
    assert {str(licence.receipt.number), licence.number} <= {d.number for d in documents}


def test_every_licence_and_receipt_has_its_documents_laid_out_at_first_print(demo, db):
    """Issued through the services (REC-01, LIC-06); rendering_deferred keeps demo_data
    fast: the PDF is laid out from the frozen snapshot when first printed."""
    certified = set(IssuedDocument.objects.filter(kind="licence_certificate")
                    .values_list("subject_id", flat=True))
    assert certified == set(Licence.objects.values_list("pk", flat=True))
    for kind in ("receipt", "receipt_80mm"):
        printed = set(IssuedDocument.objects.filter(kind=kind, voids__isnull=True)
                      .values_list("subject_id", flat=True))
        assert printed == set(Receipt.objects.values_list("pk", flat=True))
    assert IssuedDocument.objects.filter(kind="kennel_licence").exists()
    pending = IssuedDocument.objects.filter(sha256="", kind="licence_certificate").first()
    assert pending is not None and not pending.file
    data = document_pdf(pending)
    assert pending.number in pdf_text(data)
    assert document_pdf(IssuedDocument.objects.get(pk=pending.pk)) == data


def test_north_branch_has_an_active_boarding_kennel_with_its_decisions_and_dogs(nb):
    kennel = KennelLicence.objects.get(jurisdiction=nb)
    assert kennel.status == KennelStatus.ACTIVE and kennel.is_current(TODAY)
    assert kennel.expires_on == date(THIS_YEAR, 12, 31) and kennel.cup_reference  # KEN-05
    steps = get_rule(nb, "kennel_review_steps", on=TODAY).value
    decisions = list(kennel.decisions.order_by("decided_on"))
    assert [d.step for d in decisions] == steps  # KEN-04
    assert all(d.outcome in ("approved", "conditions") for d in decisions)
    assert kennel.conditions and kennel.receipt.total > 0
    dogs = [m.animal for m in kennel.kennel_animals.select_related("animal")]
    assert len(dogs) >= 4  # KEN-03: a commercial kennel of four or more dogs
    assert all(d.licences.filter(status=LicenceStatus.ACTIVE).exists() for d in dogs)
    assert all(d.premises_id == kennel.premises_id for d in dogs)


def test_glencoe_has_one_application_under_review_and_one_denial_open_to_appeal(gl):
    review = KennelLicence.objects.get(jurisdiction=gl, status=KennelStatus.UNDER_REVIEW)
    administrator, planning, *_ = get_rule(gl, "kennel_review_steps", on=TODAY).value
    assert [d.step for d in review.decisions.all()] == [administrator]
    assert planning in steps_outstanding(review, on=TODAY)  # KEN-04: Planning Division
    assert review.receipt is not None  # 701 Subd. 4(C): fee with the application
    denied = KennelLicence.objects.get(jurisdiction=gl, status=KennelStatus.DENIED)
    assert denied.denial_notified_on <= TODAY < denied.appeal_deadline  # KEN-07
    upcoming = deadlines.upcoming(jurisdiction_ids=[gl.pk], today=TODAY)
    assert any(d.due == denied.appeal_deadline and "appeal" in d.what for d in upcoming)


def test_nothing_is_dated_after_today(demo, db):
    assert not Licence.objects.filter(issued_on__gt=TODAY).exists()
    assert not Receipt.objects.filter(issued_at__gt=NOW).exists()
    assert not RabiesVaccination.objects.filter(vaccinated_on__gt=TODAY).exists()
    assert not KennelDecision.objects.filter(decided_on__gt=TODAY).exists()


def test_vaccinations_stay_mostly_current_with_some_lapsed(demo, db):
    total = RabiesVaccination.objects.count()
    current = RabiesVaccination.objects.filter(next_due_on__gte=TODAY).count()
    assert 0.5 * total < current < 0.95 * total


def test_no_animal_has_two_certificates_of_the_same_day(demo, db):
    twice = (RabiesVaccination.objects.values("animal", "vaccinated_on")
             .annotate(n=Count("pk")).filter(n__gt=1))
    assert not twice.exists()


def test_size_adds_that_many_animals_once(demo, db):
    before = Animal.objects.count()
    output = run("--size", "1500")
    assert Animal.objects.count() == before + 1500
    assert "bulk: 1500 animals added" in output
    run("--size", "1500")
    assert Animal.objects.count() == before + 1500
