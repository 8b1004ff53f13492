"""Licenses sold at the clinic: the services.

A block of the city's tags moves to a clinic and keeps its numbers (REC-02, NB Sec.
6-63); the clinic sells through the counter's own ``license_issue`` (the same checks,
RAB-01..05 from its own certificate, LIC-04) and takes the city's next receipt number,
so counter and clinic sales interleave with no gap (REC-01, NB Sec. 6-61); a tag of
another clinic or a lost tag is refused (LIC-14); unsold tags come back to stock, lost
ones never sell; nothing is deleted or rewritten.
"""

from datetime import date

import pytest
import time_machine
from django.db import IntegrityError, connection, transaction

from clinics.models import (
    ClinicMember,
    ClinicSale,
    ConsignedTag,
    HoldingStatus,
    ReconciliationKind,
    SubmissionStatus,
)
from clinics.services import certificates
from clinics.services.consignment import tags_reconcile
from clinics.services.sales import clinic_sale
from kernel.kept import RecordKept
from kernel.models import NumberSeries
from licensing.models import (
    LicenseStatus,
    Receipt,
    ReceiptMethod,
    Tag,
    TagStatus,
)
from licensing.services.closeouts import closeout_open_summary
from licensing.services.licenses import license_issue
from licensing.services.voids import receipt_void
from notices.models import IssuedDocument
from notices.services import document_pdf
from ordinance.models import Event
from ordinance.refusals import Refused
from tests.clinics.consign_helpers import NOW, TODAY, at, block, sellable_dog, stock
from tests.clinics.helpers import cleaned, make_clinic, make_vet
from tests.licensing.factories import AnimalFactory, RabiesVaccinationFactory
from tests.pdf import pdf_text


@pytest.fixture(autouse=True)
def _setup(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    with time_machine.travel(NOW, tick=False):
        yield


@pytest.fixture
def clinic(north_branch):
    return make_clinic([north_branch])


@pytest.fixture
def vet(clinic):
    return make_vet(clinic)


@pytest.fixture
def tags(north_branch, clerk):
    return stock(north_branch, clerk)


def _next_receipt(city) -> int:
    series = NumberSeries.objects.filter(jurisdiction=city, series="receipt").first()
    return series.next_number if series else 1


def _counter_dog(city, name):
    dog = AnimalFactory(jurisdiction=city, name=name)
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))
    return dog


def _counter_sale(city, clerk, name):
    dog = _counter_dog(city, name)
    return license_issue(animal=dog, owner=dog.owner, actor=clerk, on=TODAY, method="cash")


# --- The block ------------------------------------------------------------------------


def test_a_block_moves_tags_to_the_clinic_keeping_their_numbers(north_branch, clerk, clinic, tags):
    issued = block(clinic, north_branch, clerk, 41, 50, note="Spring vaccination clinic")
    moved = Tag.objects.filter(jurisdiction=north_branch, number__range=(41, 50))
    assert {t.status for t in moved} == {TagStatus.CONSIGNED}
    assert sorted(t.number for t in moved) == list(range(41, 51))  # REC-02: same numbers
    assert list(issued.holdings.values_list("tag__number", flat=True)) == list(range(41, 51))
    assert {h.status for h in issued.holdings.all()} == {HoldingStatus.HELD}
    # Each tag's history says where it went; one event for the block.
    latest = Tag.history.filter(number=41).latest("history_date")
    assert latest.status == TagStatus.CONSIGNED and latest.history_user == clerk
    assert clinic.name in latest.history_change_reason
    assert Event.objects.filter(action="clinics.consignment.issued").count() == 1
    # The counter's next free tag skips the clinic's (LIC-08).
    result = _counter_sale(north_branch, clerk, "Counter dog")
    assert result.tag.number == 1


def test_the_counter_refuses_a_tag_typed_from_a_clinics_block(north_branch, clerk, clinic, tags):
    block(clinic, north_branch, clerk, 41, 50)
    dog = _counter_dog(north_branch, "Typed")
    with pytest.raises(Refused) as refused:
        license_issue(
            animal=dog, owner=dog.owner, actor=clerk, on=TODAY, method="cash", tag_number=45
        )
    (check,) = refused.value.checks
    assert check.field == "tag_number" and "not an available tag" in check.message
    assert Tag.objects.get(jurisdiction=north_branch, number=45).status == TagStatus.CONSIGNED


def test_a_block_is_refused_unless_every_tag_is_in_stock(
    north_branch, clerk, clinic, tags, administrator
):
    _counter_sale(north_branch, clerk, "Has tag one")  # tag 1 is issued
    other = make_clinic([north_branch], name="Other Clinic", license_number="MN-7")
    block(other, north_branch, clerk, 20, 25)
    for first, last, words in (
        (1, 5, "is issued"),
        (24, 30, "is at a clinic"),
        (45, 55, "Tag 51 of 2026 is not in the city's tag stock"),
    ):
        with pytest.raises(Refused) as refused:
            block(clinic, north_branch, clerk, first, last)
        assert words in str(refused.value), (first, last, str(refused.value))
        assert "North Branch Sec. 6-63" in str(refused.value)  # REC-02
    assert not clinic.consignments.exists()
    assert Tag.objects.filter(status=TagStatus.CONSIGNED).count() == 6  # the other's only
    with pytest.raises(Refused, match="must not be below"):
        block(clinic, north_branch, administrator, 30, 29)


def test_a_block_is_refused_for_another_citys_staff_and_a_city_without_licenses(
    north_branch, glencoe, clerk, glencoe_clerk, clinic, tags
):
    with pytest.raises(Refused, match="You do not serve"):
        block(clinic, north_branch, glencoe_clerk, 41, 50)
    stock(glencoe, glencoe_clerk)
    gl_clinic = make_clinic([glencoe], name="Glencoe Clinic", license_number="MN-9")
    with pytest.raises(Refused) as refused:
        block(gl_clinic, glencoe, glencoe_clerk, 1, 5)
    assert "does not issue dog licenses" in str(refused.value)
    with pytest.raises(Refused, match="not an active clinic serving"):
        block(gl_clinic, north_branch, clerk, 41, 50)
    assert not Tag.objects.filter(status=TagStatus.CONSIGNED).exists()


# --- The sale -------------------------------------------------------------------------


def test_the_clinic_sells_with_its_tag_its_certificate_and_the_citys_next_receipt(
    north_branch, clerk, clinic, vet, tags
):
    block(clinic, north_branch, clerk, 41, 50)
    dog, certificate = sellable_dog(north_branch, clinic, vet)
    number = _next_receipt(north_branch)
    sale = clinic_sale(clinic=clinic, certificate=certificate, actor=vet)
    license, receipt = sale.license, sale.receipt
    assert receipt.number == number
    assert (receipt.method, receipt.reference) == (ReceiptMethod.CLINIC, clinic.name)
    assert receipt.amount_tendered is None  # no payment details of the clinic's kept
    assert license.animal == dog and license.status == LicenseStatus.ACTIVE
    assert license.vaccination == certificate.vaccination  # RAB-05: its own certificate
    assert license.issued_by == vet and receipt.issued_by == vet
    tag = sale.holding.tag
    assert (tag.number, tag.status, tag.license) == (41, TagStatus.ISSUED, license)
    assert sale.holding.status == HoldingStatus.SOLD and sale.holding.closed_at == NOW
    # The counter's fee lines, each with its authority.
    assert [ln.code for ln in receipt.lines.all()][0] == "dog_license"
    assert all(ln.authority for ln in receipt.lines.all())
    # The city's receipt, issued at the sale and archived; it says who collected it.
    document = IssuedDocument.objects.get(kind="receipt", number=str(receipt.number))
    text = pdf_text(document_pdf(document))
    assert f"Receipt {receipt.number}" in text and "Clinic-collected" in text
    assert "Tag number: 41, year 2026" in text
    assert Event.objects.filter(action="clinics.sale.recorded").count() == 1


def test_counter_and_clinic_sales_interleave_with_no_gap(north_branch, clerk, clinic, vet, tags):
    """REC-01: one series; a refused clinic sale uses no number."""
    block(clinic, north_branch, clerk, 41, 50)
    first = _next_receipt(north_branch)
    numbers = [_counter_sale(north_branch, clerk, "Counter one").receipt.number]
    _dog, cert = sellable_dog(north_branch, clinic, vet, name="Clover", chip="985112007700001")
    numbers.append(clinic_sale(clinic=clinic, certificate=cert, actor=vet).receipt.number)
    _dog, cert2 = sellable_dog(north_branch, clinic, vet, name="Daisy", chip="985112007700002")
    with pytest.raises(Refused):
        clinic_sale(clinic=clinic, certificate=cert2, actor=vet, tag_number=3)  # not its tag
    numbers.append(_counter_sale(north_branch, clerk, "Counter two").receipt.number)
    numbers.append(clinic_sale(clinic=clinic, certificate=cert2, actor=vet).receipt.number)
    numbers.append(_counter_sale(north_branch, clerk, "Counter three").receipt.number)
    assert numbers == list(range(first, first + 5))
    assert list(
        Receipt.objects.filter(jurisdiction=north_branch)
        .order_by("number")
        .values_list("number", "method")
    ) == [
        (first, "cash"),
        (first + 1, "clinic"),
        (first + 2, "cash"),
        (first + 3, "clinic"),
        (first + 4, "cash"),
    ]


def test_a_tag_of_another_clinics_block_is_refused(north_branch, clerk, clinic, vet, tags):
    other = make_clinic([north_branch], name="Other Clinic", license_number="MN-7")
    block(clinic, north_branch, clerk, 41, 45)
    block(other, north_branch, clerk, 46, 50)
    _dog, cert = sellable_dog(north_branch, clinic, vet)
    number = _next_receipt(north_branch)
    with pytest.raises(Refused) as refused:
        clinic_sale(clinic=clinic, certificate=cert, actor=vet, tag_number=47)
    (check,) = refused.value.checks
    assert check.field == "tag_number"
    assert check.message == ("Tag 47 of 2026 is not an unsold tag held by Lakes Veterinary Clinic.")
    assert check.citation == "North Branch Sec. 6-64"  # LIC-14
    assert _next_receipt(north_branch) == number and not ClinicSale.objects.exists()
    assert Tag.objects.get(number=47).status == TagStatus.CONSIGNED
    sale = clinic_sale(clinic=clinic, certificate=cert, actor=vet, tag_number=44)
    assert sale.holding.tag.number == 44 and sale.receipt.number == number


def test_a_clinic_with_no_tags_left_is_told_to_ask_the_city(north_branch, clerk, clinic, vet, tags):
    block(clinic, north_branch, clerk, 41, 41)
    _d, first = sellable_dog(north_branch, clinic, vet)
    clinic_sale(clinic=clinic, certificate=first, actor=vet)
    _d, second = sellable_dog(north_branch, clinic, vet, name="Daisy", chip="985112007700002")
    with pytest.raises(Refused, match="holds no unsold 2026 tags; ask the city for more"):
        clinic_sale(clinic=clinic, certificate=second, actor=vet)


def test_a_lost_tag_cannot_be_sold_nor_issued_at_the_counter(
    north_branch, clerk, clinic, vet, tags
):
    the_block = block(clinic, north_branch, clerk, 41, 50)
    record = tags_reconcile(
        block=the_block,
        kind=ReconciliationKind.LOST,
        first_number=45,
        last_number=45,
        reason="Dropped at the clinic's front desk",
        actor=clerk,
    )
    assert record.recorded_by == clerk and record.count == 1
    assert Tag.objects.get(number=45).status == TagStatus.LOST  # LIC-14: never reissued
    holding = ConsignedTag.objects.get(tag__number=45)
    assert (holding.status, holding.reconciliation) == (HoldingStatus.LOST, record)
    _dog, cert = sellable_dog(north_branch, clinic, vet)
    with pytest.raises(Refused, match="Tag 45 of 2026 is not an unsold tag held by"):
        clinic_sale(clinic=clinic, certificate=cert, actor=vet, tag_number=45)
    dog = _counter_dog(north_branch, "At the counter")
    with pytest.raises(Refused):
        license_issue(
            animal=dog, owner=dog.owner, actor=clerk, on=TODAY, method="cash", tag_number=45
        )
    with pytest.raises(Refused, match="is lost: only unsold tags"):
        tags_reconcile(
            block=the_block,
            kind=ReconciliationKind.RETURNED,
            first_number=44,
            last_number=46,
            reason="Back",
            actor=clerk,
        )


def test_unsold_tags_come_back_to_stock_under_their_numbers(north_branch, clerk, clinic, vet, tags):
    the_block = block(clinic, north_branch, clerk, 41, 50)
    _dog, cert = sellable_dog(north_branch, clinic, vet)
    clinic_sale(clinic=clinic, certificate=cert, actor=vet)  # tag 41
    with pytest.raises(Refused, match="Tag 41 of 2026 is sold"):
        tags_reconcile(
            block=the_block,
            kind=ReconciliationKind.RETURNED,
            first_number=41,
            last_number=50,
            reason="Season over",
            actor=clerk,
        )
    tags_reconcile(
        block=the_block,
        kind=ReconciliationKind.RETURNED,
        first_number=48,
        last_number=50,
        reason="Season over",
        actor=clerk,
    )
    back = Tag.objects.filter(number__range=(48, 50))
    assert {t.status for t in back} == {TagStatus.AVAILABLE}
    # Each holding moved by its transition: an event apiece and a history row as it stands.
    assert Event.objects.filter(action="clinics.holding.returned").count() == 3
    returned = ConsignedTag.objects.get(block=the_block, tag__number=48)
    assert returned.status == HoldingStatus.RETURNED and not returned.may("lose")
    assert returned.history.latest("history_id").status == HoldingStatus.RETURNED
    assert (
        Tag.history.filter(number=48, status=TagStatus.AVAILABLE)
        .latest("history_date")
        .history_change_reason.startswith("returned")
    )
    dog = _counter_dog(north_branch, "Takes 48")
    result = license_issue(
        animal=dog, owner=dog.owner, actor=clerk, on=TODAY, method="cash", tag_number=48
    )
    assert result.tag.number == 48 and result.tag.year == 2026  # REC-02: not renumbered
    # A returned tag may go out again, to another clinic, under the same number.
    other = make_clinic([north_branch], name="Other Clinic", license_number="MN-7")
    again = block(other, north_branch, clerk, 49, 50)
    assert again.holdings.count() == 2
    assert ConsignedTag.objects.filter(tag__number=49).count() == 2


def test_a_reconciliation_needs_a_reason_a_kind_and_the_blocks_range(
    north_branch, clerk, clinic, tags, glencoe_clerk
):
    the_block = block(clinic, north_branch, clerk, 41, 50)
    cases = [
        ({"reason": "  "}, "Say why."),
        ({"kind": "stolen"}, "Choose returned or lost."),
        ({"first_number": 40}, "This block holds tags 41 to 50."),
        ({"last_number": 51}, "This block holds tags 41 to 50."),
    ]
    for change, words in cases:
        args = {
            "block": the_block,
            "kind": ReconciliationKind.RETURNED,
            "first_number": 41,
            "last_number": 42,
            "reason": "Back",
            "actor": clerk,
            **change,
        }
        with pytest.raises(Refused, match=words):
            tags_reconcile(**args)
    with pytest.raises(Refused, match="You do not serve"):
        tags_reconcile(
            block=the_block,
            kind=ReconciliationKind.RETURNED,
            first_number=41,
            last_number=41,
            reason="Back",
            actor=glencoe_clerk,
        )
    assert not the_block.reconciliations.exists()
    assert set(Tag.objects.filter(number__gte=41).values_list("status", flat=True)) == {
        TagStatus.CONSIGNED
    }


def test_the_sale_runs_the_counters_checks_on_the_clinics_own_certificate(
    north_branch, clerk, clinic, vet, tags
):
    """NB Sec. 6-61 (LIC-05): the clinic's certificate is the one checked, even when an
    older one on file would also be refused or a newer one elsewhere would pass."""
    block(clinic, north_branch, clerk, 41, 50)
    dog, old = sellable_dog(north_branch, clinic, vet, vaccinated_on="2024-06-01")
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))  # the counter's
    number = _next_receipt(north_branch)
    with pytest.raises(Refused) as refused:
        clinic_sale(clinic=clinic, certificate=old, actor=vet)
    (check,) = refused.value.checks
    assert check.label == "Rabies vaccination" and check.citation.startswith("North Branch")
    assert _next_receipt(north_branch) == number
    # Already licensed for the term (LIC-14): refused as at the counter.
    _dog, fresh = sellable_dog(north_branch, clinic, vet, name="Twice", chip="985112007700009")
    clinic_sale(clinic=clinic, certificate=fresh, actor=vet)
    with pytest.raises(Refused, match="Already licensed for this term"):
        clinic_sale(clinic=clinic, certificate=fresh, actor=vet)


def test_only_the_clinics_own_recorded_certificate_and_people_sell(
    north_branch, clerk, clinic, vet, tags
):
    block(clinic, north_branch, clerk, 41, 50)
    queued = certificates.certificate_submit(
        clinic=clinic,
        jurisdiction=north_branch,
        actor=vet,
        **cleaned(clinic, owner_last_name="Nobody", vaccinated_on=str(TODAY)),
    )
    assert queued.status == SubmissionStatus.QUEUED
    with pytest.raises(Refused, match="not recorded for an animal yet"):
        clinic_sale(clinic=clinic, certificate=queued, actor=vet)
    other = make_clinic([north_branch], name="Other Clinic", license_number="MN-7")
    olga = make_vet(other, "olga")
    _dog, theirs = sellable_dog(
        north_branch, other, olga, veterinarian_license="MN-7", chip="985112007700003"
    )
    with pytest.raises(Refused, match="sent by another clinic"):
        clinic_sale(clinic=clinic, certificate=theirs, actor=vet)  # another clinic's
    with pytest.raises(Refused, match="Only the active people"):
        clinic_sale(clinic=other, certificate=theirs, actor=vet)  # not one of its people
    _dog, mine = sellable_dog(north_branch, clinic, vet)
    ClinicMember.objects.filter(user=vet).update(deactivated_at=NOW)
    with pytest.raises(Refused, match="Only the active people"):
        clinic_sale(clinic=clinic, certificate=mine, actor=vet)
    assert not ClinicSale.objects.exists()


def test_a_void_of_a_clinic_sale_voids_its_tag_and_stays_out_of_the_clerks_drawer(
    north_branch, clerk, clinic, vet, tags
):
    block(clinic, north_branch, clerk, 41, 50)
    _dog, cert = sellable_dog(north_branch, clinic, vet)
    sale = clinic_sale(clinic=clinic, certificate=cert, actor=vet)
    counter = _counter_sale(north_branch, clerk, "Counter one")
    void = receipt_void(receipt=sale.receipt, actor=clerk, reason="Sold to the wrong owner")
    assert void.method == ReceiptMethod.CLINIC and void.total == -sale.receipt.total
    sale.license.refresh_from_db()
    assert sale.license.status == LicenseStatus.VOID
    assert Tag.objects.get(number=41).status == TagStatus.VOID  # LIC-14: not back in stock
    # The clerk's close-out counts the drawer: the counter's receipt only.
    summary = closeout_open_summary(clerk=clerk, jurisdiction=north_branch, day=TODAY)
    assert [r.number for r in summary.receipts] == [counter.receipt.number]


def test_nothing_is_deleted_and_the_database_refuses_a_renumbering(
    north_branch, clerk, clinic, vet, tags
):
    the_block = block(clinic, north_branch, clerk, 41, 50)
    _dog, cert = sellable_dog(north_branch, clinic, vet)
    sale = clinic_sale(clinic=clinic, certificate=cert, actor=vet)
    for obj in (the_block, sale, sale.holding):
        with pytest.raises(RecordKept, match="never deleted"):
            obj.delete()
    if connection.vendor != "postgresql":
        pytest.skip("the triggers below are PostgreSQL's and SQLite's; checked on PostgreSQL")
    for rewrite in (
        lambda: Tag.objects.filter(number=42).update(number=999),
        lambda: type(the_block).objects.filter(pk=the_block.pk).update(first_number=1),
        lambda: ClinicSale.objects.filter(pk=sale.pk).update(sold_at=at(TODAY, 9)),
        lambda: ConsignedTag.objects.filter(pk=sale.holding.pk).update(tag_id=1),
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            rewrite()


def test_a_sale_after_hours_counts_on_its_local_day(north_branch, clerk, clinic, vet, tags):
    """The receipt and the sale carry the moment of the sale; 23:30 on March 31 in
    Chicago is still March (the statement's month, below)."""
    block(clinic, north_branch, clerk, 41, 50)
    _dog, cert = sellable_dog(north_branch, clinic, vet)
    late = at(date(2026, 3, 31), 23, 30)
    with time_machine.travel(late, tick=False):
        sale = clinic_sale(clinic=clinic, certificate=cert, actor=vet)
    assert sale.sold_at == late and sale.license.issued_on == date(2026, 3, 31)


def test_a_clinics_person_acts_for_the_cities_its_clinic_serves_only(
    north_branch, glencoe, clinic, vet, resident
):
    """base.agents: the city's receipt is issued by the clinic's person for a city its
    active clinic serves; for another city, or once deactivated, the document service
    refuses them as it refuses anyone who is not the city's."""
    from base import agents
    from notices.services import document_issue

    assert agents.acts_for(vet, north_branch.pk) and not agents.acts_for(vet, glencoe.pk)
    assert not agents.acts_for(resident, north_branch.pk)

    def issue(city):
        return document_issue(
            kind="notice",
            template="sample_notice.html",
            context={"paragraphs": ["A test."]},
            jurisdiction=city,
            actor=vet,
            title="Notice",
        )

    assert issue(north_branch).issued_by == vet
    with pytest.raises(Refused, match="You may not issue documents"):
        issue(glencoe)
    ClinicMember.objects.filter(user=vet).update(deactivated_at=NOW)
    assert not agents.acts_for(vet, north_branch.pk)
    with pytest.raises(Refused, match="You may not issue documents"):
        issue(north_branch)
