"""Tests written to kill surviving mutants of ``make mutate`` (tests/README.md).

Each test pins a behaviour a mutant changed without any other test noticing; the rule ID
it protects is in its docstring or comment. Dates and times are explicit, so the tests
hold whatever the clock says.
"""

from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.db import transaction

from licensing.models import (
    KennelLicense,
    KennelStatus,
    License,
    LicenseStatus,
    Species,
    Tag,
    TagStatus,
    TagStock,
)
from licensing.services import tags as tags_service
from licensing.services import voids as voids_service
from licensing.services.expiry import CHANGE_REASON, kennel_licenses_expire, licenses_expire
from licensing.services.licenses import license_issue
from licensing.services.limits import is_adult, passes_age, premises_limit_check
from licensing.services.numbering import tag_claim
from licensing.services.receipts import FeeLine, receipt_create
from licensing.services.tags import tag_stock_receive
from licensing.services.voids import receipt_void
from licensing.sweeps import _citation
from ordinance.models import Event
from ordinance.refusals import Refused
from tests.licensing.factories import (
    AnimalFactory,
    OwnerFactory,
    PremisesFactory,
    RabiesVaccinationFactory,
)
from tests.licensing.license_factories import LicenseFactory, TagStockFactory

CHICAGO = ZoneInfo("America/Chicago")
RECEIVED = date(2026, 11, 2)


def receive(city, clerk, first, last, *, year=2026):
    return tag_stock_receive(
        jurisdiction=city,
        year=year,
        first_number=first,
        last_number=last,
        received_on=RECEIVED,
        vendor="Minnesota Tag & Stamp",
        actor=clerk,
    )


def refusal(excinfo):
    [check] = excinfo.value.reasons
    return check.label, check.status, check.message


# --- licensing/services/tags.py: tag_stock_receive (LIC-08, REC-02) --------------------


def test_a_batch_of_exactly_the_screen_limit_is_received_and_one_more_is_refused(
    north_branch, clerk, monkeypatch
):
    # The batch cap is a screen safeguard (MAX_TAGS_PER_BATCH), counted inclusively:
    # tags 1..5 are five tags. A smaller cap keeps the test fast; the arithmetic is the same.
    monkeypatch.setattr(tags_service, "MAX_TAGS_PER_BATCH", 5)
    with pytest.raises(Refused) as excinfo:
        receive(north_branch, clerk, 101, 106)
    assert refusal(excinfo) == ("Tag stock", "fail", "Enter at most 5 tags at a time.")
    assert not Tag.objects.filter(jurisdiction=north_branch).exists()
    receive(north_branch, clerk, 101, 105)
    receive(north_branch, clerk, 201, 204)
    assert Tag.objects.filter(jurisdiction=north_branch).count() == 9


def test_only_the_same_citys_same_year_numbers_in_the_range_clash(north_branch, glencoe, clerk):
    # LIC-08, REC-02: a tag number is unique per city and year. Glencoe's tag 7, North
    # Branch's 2025 tag 7 and North Branch's 2026 tag 60 do not stop 2026 tags 1..10.
    TagStockFactory(
        jurisdiction=glencoe, recorded_by=clerk, year=2026, first_number=1, last_number=10
    )
    TagStockFactory(
        jurisdiction=north_branch, recorded_by=clerk, year=2025, first_number=1, last_number=10
    )
    TagStockFactory(
        jurisdiction=north_branch, recorded_by=clerk, year=2026, first_number=60, last_number=61
    )
    receive(north_branch, clerk, 1, 10)
    with pytest.raises(Refused) as excinfo:
        receive(north_branch, clerk, 10, 12)
    assert refusal(excinfo) == ("Tag stock", "fail", "Tag 10 of 2026 is already in stock.")


def test_received_stock_records_the_vendor_and_an_event_by_the_clerk(north_branch, clerk):
    stock = receive(north_branch, clerk, 1, 3)
    stock = TagStock.objects.get(pk=stock.pk)
    assert (stock.vendor, stock.recorded_by, stock.received_on) == (
        "Minnesota Tag & Stamp",
        clerk,
        RECEIVED,
    )
    [event] = Event.objects.filter(action="licensing.tag_stock.received")
    assert (event.subject_id, event.actor, event.jurisdiction) == (
        str(stock.pk),
        clerk,
        north_branch,
    )
    assert event.summary == "2026 tags 1–3"


# --- licensing/services/numbering.py: tag_claim (LIC-08, LIC-14) ------------------------


def test_a_city_never_claims_another_citys_tag(north_branch, glencoe, clerk):
    # Tag stock is each city's own (LIC-08): Glencoe's 2026 tags are not North Branch's.
    TagStockFactory(
        jurisdiction=glencoe, recorded_by=clerk, year=2026, first_number=1, last_number=10
    )
    with pytest.raises(Refused, match="^No 2026 tags are left in stock; enter the new"):
        tag_claim(jurisdiction=north_branch, year=2026)
    with pytest.raises(Refused) as excinfo:
        tag_claim(jurisdiction=north_branch, year=2026, number=3)
    [check] = excinfo.value.checks
    assert check.message == "Tag 3 of 2026 is not an available tag of this city's stock."
    assert tag_claim(jurisdiction=glencoe, year=2026).number == 1


# --- licensing/services/expiry.py (KEN-05) ---------------------------------------------


def test_a_dry_run_of_the_kennel_expiry_counts_and_changes_nothing(north_branch):
    # KEN-05 / style.md: every job has --dry-run that reports and changes nothing.
    kennel = KennelLicense.objects.create(
        jurisdiction=north_branch,
        owner=OwnerFactory(jurisdiction=north_branch),
        number="K-DRY",
        premises=PremisesFactory(jurisdiction=north_branch),
        status=KennelStatus.ACTIVE,
        applied_on=date(2026, 1, 5),
        issued_on=date(2026, 1, 20),
        expires_on=date(2026, 12, 31),
    )
    result = kennel_licenses_expire(now=datetime(2027, 1, 1, 0, 5, tzinfo=CHICAGO), dry_run=True)
    assert (result.due, result.applied, result.dry_run) == (1, 1, True)
    kennel.refresh_from_db()
    assert kennel.status == KennelStatus.ACTIVE
    assert not Event.objects.filter(action="licensing.kennel.expired").exists()


@pytest.mark.clock("2026-11-15T10:00")
def test_the_expiry_history_row_carries_the_day_and_reason_the_license_row_gets(
    north_branch, clerk
):
    # LIC-07: the bulk expiry writes the history row itself; it must say what the UPDATE
    # set on the license (status_changed_on January 1, the automatic reason).
    license = LicenseFactory(jurisdiction=north_branch, issued_by=clerk)
    licenses_expire(now=datetime(2027, 1, 1, 0, 5, tzinfo=CHICAGO))
    license.refresh_from_db()
    [row] = License.history.filter(id=license.pk, history_change_reason=CHANGE_REASON)
    assert (license.status, license.status_changed_on) == (LicenseStatus.EXPIRED, date(2027, 1, 1))
    assert (row.status, row.status_changed_on, row.status_reason) == (
        LicenseStatus.EXPIRED,
        date(2027, 1, 1),
        CHANGE_REASON,
    )


@pytest.mark.clock("2026-11-15T10:00")
def test_the_expiry_reports_its_name_and_one_summary_event_at_the_sweep_time(north_branch, clerk):
    # LIC-07: one Event per city with the count, dated when the sweep ran.
    LicenseFactory(jurisdiction=north_branch, issued_by=clerk)
    swept_at = datetime(2027, 1, 1, 0, 5, tzinfo=CHICAGO)
    result = licenses_expire(now=swept_at)
    assert str(result) == "dog licenses expire: 1 due, applied 1"
    [event] = Event.objects.filter(action="licensing.license.expired")
    assert (event.at, event.jurisdiction, event.data) == (
        swept_at,
        north_branch,
        {"count": 1, "expired_before": "2027-01-01"},
    )
    assert event.summary == "1 dog licenses expired (automatic)"


# --- licensing/sweeps.py: the citation shown next to an upcoming deadline --------------


def test_an_upcoming_deadline_shows_no_citation_where_the_rule_is_absent_or_not_in_force(
    north_branch,
):
    # Upcoming deadlines cite the rule in force (LIC-07, KEN-05); none when the city's
    # ordinance has no such rule, or no value was in force yet (before its adoption).
    assert _citation(north_branch, "license_expiry", date(2026, 12, 31)) == "North Branch Sec. 6-62"
    assert _citation(north_branch, "no_such_rule", date(2026, 12, 31)) == ""
    assert _citation(north_branch, "license_expiry", date(2000, 12, 31)) == ""


# --- licensing/services/receipts.py: receipt_void (LIC-06, REC-01, LIC-14) ------------------

VOIDED_AT = datetime(2026, 1, 16, 9, 30, tzinfo=CHICAGO)


def issued(city, clerk):
    TagStockFactory(jurisdiction=city, recorded_by=clerk, year=2026, last_number=10)
    dog = AnimalFactory(jurisdiction=city)
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))
    return license_issue(
        animal=dog,
        owner=dog.owner,
        actor=clerk,
        on=date(2026, 1, 15),
        method="cash",
        now=datetime(2026, 1, 15, 10, 0, tzinfo=CHICAGO),
    )


def test_a_void_receipt_mirrors_the_original_and_voids_its_license_and_tag_that_day(
    north_branch, clerk
):
    # LIC-06: a void is a new receipt with negative lines pointing at the original, for the
    # same payer; the license it paid for is void from that day, its tag too (LIC-14).
    result = issued(north_branch, clerk)
    void = receipt_void(receipt=result.receipt, actor=clerk, reason="Entered twice", now=VOIDED_AT)
    original_line = result.receipt.lines.get()
    line = void.lines.get()
    assert (line.description, line.amount) == (
        f"Void: {original_line.description}",
        -original_line.amount,
    )
    assert (void.payer, void.voids, void.void_reason) == (
        result.receipt.payer,
        result.receipt,
        "Entered twice",
    )
    license = License.objects.get(pk=result.license.pk)
    tag = Tag.objects.get(pk=result.tag.pk)
    assert (license.status, license.status_changed_on) == (LicenseStatus.VOID, date(2026, 1, 16))
    assert (tag.status, tag.status_changed_on) == (TagStatus.VOID, date(2026, 1, 16))
    [event] = Event.objects.filter(action="licensing.license.voided")
    assert (event.subject_id, event.actor, event.at, event.summary, event.data) == (
        str(license.pk),
        clerk,
        VOIDED_AT,
        "Entered twice",
        {"void_receipt": void.number},
    )


def test_a_receipt_records_the_payment_its_lines_in_order_and_an_event(north_branch, clerk):
    # LIC-06, REC-01: the numbered receipt shows how and by whom it was paid, its lines in
    # the order charged, and the payer as they were; a void keeps that snapshot even after
    # the owner's record changes.
    payer = OwnerFactory(jurisdiction=north_branch)
    lines = [
        FeeLine("dog_license", "Dog license", Decimal("18.00"), "Res. 2025-41"),
        FeeLine("late_penalty", "Late penalty", Decimal("4.50"), "Sec. 6-65(c)"),
    ]
    with transaction.atomic():
        receipt = receipt_create(
            jurisdiction=north_branch,
            payer=payer,
            lines=lines,
            method="check",
            reference="Check 1042",
            actor=clerk,
            now=VOIDED_AT,
        )
    receipt.refresh_from_db()
    assert (receipt.method, receipt.reference, receipt.void_reason, str(receipt.total)) == (
        "check",
        "Check 1042",
        "",
        "22.50",
    )
    assert list(receipt.lines.order_by("position").values_list("position", "code")) == [
        (0, "dog_license"),
        (1, "late_penalty"),
    ]
    [event] = Event.objects.filter(action="licensing.receipt.issued")
    assert (event.subject_id, event.actor, event.at, event.summary, event.data) == (
        str(receipt.pk),
        clerk,
        VOIDED_AT,
        f"Receipt {receipt.number}: 22.50",
        {"number": receipt.number, "total": "22.50"},
    )
    snapshot = (receipt.payer_name, receipt.payer_address)
    assert snapshot == (payer.name, payer.address) and all(snapshot)
    payer.last_name, payer.address_line = "Renamed", "1 Moved Street"
    payer.save()
    void = receipt_void(receipt=receipt, actor=clerk, reason="Wrong dog", now=VOIDED_AT)
    assert (void.payer_name, void.payer_address, void.void_reason) == (*snapshot, "Wrong dog")


def test_the_void_is_recorded_by_the_clerk_at_that_moment_everywhere_it_reaches(
    north_branch, clerk, monkeypatch
):
    # REC-01: the receipt's event, its printed documents and any kennel application it
    # paid for are all voided by the same clerk at the same moment.
    calls = []

    def spy(name, real):
        def record(*args, **kwargs):
            calls.append(
                (name, args[0] if args else kwargs.get("receipt"), kwargs["actor"], kwargs["now"])
            )
            return real(*args, **kwargs)

        return record

    monkeypatch.setattr(
        voids_service, "documents_void", spy("documents", voids_service.documents_void)
    )
    monkeypatch.setattr(
        voids_service, "kennel_receipt_voided", spy("kennel", voids_service.kennel_receipt_voided)
    )
    result = issued(north_branch, clerk)
    void = receipt_void(receipt=result.receipt, actor=clerk, reason="Entered twice", now=VOIDED_AT)
    assert calls == [
        ("kennel", result.receipt, clerk, VOIDED_AT),
        ("documents", result.receipt, clerk, VOIDED_AT),
        ("documents", result.license, clerk, VOIDED_AT),
    ]
    [event] = Event.objects.filter(action="licensing.receipt.voided")
    assert (event.subject_id, event.actor, event.at, event.summary, event.data) == (
        str(result.receipt.pk),
        clerk,
        VOIDED_AT,
        "Entered twice",
        {"void_receipt": void.number},
    )


def test_a_receipt_is_voided_once_and_a_void_is_never_voided(north_branch, clerk):
    result = issued(north_branch, clerk)
    void = receipt_void(receipt=result.receipt, actor=clerk, reason="Entered twice", now=VOIDED_AT)
    for receipt in (result.receipt, void):
        with pytest.raises(Refused) as excinfo:
            receipt_void(receipt=receipt, actor=clerk, reason="Again", now=VOIDED_AT)
        assert refusal(excinfo) == (
            "Receipt",
            "fail",
            "This receipt is already voided or is itself a void.",
        )


def test_the_kennel_services_refusal_stops_the_void_as_a_kennel_check(
    north_branch, clerk, monkeypatch
):
    # KEN-08: the fee of an issued kennel license is not voided under it; receipt_void
    # shows the kennel service's reason as a failed "Kennel license" check.
    result = issued(north_branch, clerk)
    monkeypatch.setattr(
        voids_service,
        "kennel_receipt_void_refusal",
        lambda receipt: "Kennel license K-1 is issued.",
    )
    with pytest.raises(Refused) as excinfo:
        receipt_void(receipt=result.receipt, actor=clerk, reason="x", now=VOIDED_AT)
    assert refusal(excinfo) == ("Kennel license", "fail", "Kennel license K-1 is issued.")


# --- licensing/services/limits.py: premises_limit_check (KEN-01) ---------------------------

LIMITS_ON = date(2026, 3, 2)


def premises_with_dogs(city, n, **premises):
    place = PremisesFactory(jurisdiction=city, **premises)
    for _ in range(n):
        AnimalFactory(
            jurisdiction=city, premises=place, species=Species.DOG, date_of_birth=date(2020, 1, 1)
        )
    return place


def test_a_kennel_license_covers_only_its_own_premises(north_branch):
    # KEN-01: past the household limit a kennel license *for that premises* is needed.
    over = premises_with_dogs(north_branch, 4)
    KennelLicense.objects.create(
        jurisdiction=north_branch,
        owner=OwnerFactory(jurisdiction=north_branch),
        number="K-ELSEWHERE",
        premises=PremisesFactory(jurisdiction=north_branch),
        status=KennelStatus.ACTIVE,
        applied_on=date(2026, 1, 5),
        issued_on=date(2026, 1, 20),
        expires_on=date(2026, 12, 31),
    )
    check = premises_limit_check(premises=over, on=LIMITS_ON)
    assert (check.ok, check.kennel) == (False, None)


def test_the_refusal_states_each_citys_own_limits(north_branch, glencoe):
    # KEN-01: North Branch 3 adult dogs and 3 adult cats (Sec. 6-29); Glencoe 2 and 2 and
    # 4 in total (701 Subd. 4(A)).
    nb = premises_limit_check(premises=premises_with_dogs(north_branch, 4), on=LIMITS_ON)
    assert nb.message == (
        "4 adult dog(s) and 0 adult cat(s) at this premises exceed the limit of 3 adult dogs "
        "and 3 adult cats without a kennel license: a kennel license is needed first."
    )
    gl = premises_limit_check(
        premises=premises_with_dogs(glencoe, 3, postal_code="55336"), on=LIMITS_ON
    )
    assert gl.message == (
        "3 adult dog(s) and 0 adult cat(s) at this premises exceed the limit of 2 adult dogs "
        "and 2 adult cats, 4 in total without a kennel license: a kennel license is needed "
        "first."
    )


def test_a_dog_of_unknown_age_counts_as_an_adult(north_branch):
    # KEN-01 with DEF-01: an unknown birth date counts as past the age, and the clerk is
    # told how many ages were assumed.
    assert passes_age(None, months=6, comparison="gte", on=LIMITS_ON)
    place = premises_with_dogs(north_branch, 3)
    AnimalFactory(
        jurisdiction=north_branch, premises=place, species=Species.DOG, date_of_birth=None
    )
    check = premises_limit_check(premises=place, on=LIMITS_ON)
    assert (check.ok, check.counts["dog"], check.unknown_ages) == (False, 4, 1)


def test_the_limit_check_explains_itself_within_the_limit_and_under_a_kennel_license(
    north_branch,
):
    # KEN-01 (NB Sec. 6-29, "adult" from Sec. 6-28): the clerk reads the counts, the rule
    # and, past the limit, the kennel license that allows it.
    place = premises_with_dogs(north_branch, 3)
    check = premises_limit_check(premises=place, on=LIMITS_ON)
    assert check.message == (
        "3 adult dog(s) and 0 adult cat(s) at this premises: within the "
        "limit without a kennel license."
    )
    assert check.citation == 'North Branch Sec. 6-28 ("Adult animal"); North Branch Sec. 6-29'
    AnimalFactory(
        jurisdiction=north_branch,
        premises=place,
        species=Species.DOG,
        date_of_birth=date(2020, 1, 1),
    )
    KennelLicense.objects.create(
        jurisdiction=north_branch,
        owner=OwnerFactory(jurisdiction=north_branch),
        number="K-7",
        premises=place,
        status=KennelStatus.ACTIVE,
        applied_on=date(2026, 1, 5),
        issued_on=date(2026, 1, 20),
        expires_on=date(2026, 12, 31),
    )
    check = premises_limit_check(premises=place, on=LIMITS_ON)
    assert (check.ok, check.kennel.number) == (True, "K-7")
    assert check.message == (
        "Over the limit for a household, but the premises holds kennel license K-7."
    )


def test_is_adult_follows_each_citys_own_age_and_operator(north_branch, glencoe):
    # DEF-01 / KEN-01: North Branch counts a dog adult at 6 months ("gte", Sec. 6-28),
    # Glencoe only after 6 months ("gt", 701 Subd. 4(A)).
    def adult(city, on):
        dog = AnimalFactory.build(jurisdiction=city, date_of_birth=date(2025, 9, 2))
        return is_adult(dog, jurisdiction=city, on=on)

    assert (adult(north_branch, date(2026, 3, 1)), adult(north_branch, date(2026, 3, 2))) == (
        False,
        True,
    )
    assert (adult(glencoe, date(2026, 3, 2)), adult(glencoe, date(2026, 3, 3))) == (False, True)
