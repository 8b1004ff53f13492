"""Every receipt in reach: the license page lists every receipt that
touched the license (issue, renewal, duplicate tag, transfer, void), each linked to its
page and its printed PDF, and every "receipt N issued" message links to the receipt."""

from datetime import date

import pytest
import time_machine
from django.urls import reverse

from licensing.models import Receipt
from licensing.services.documents import license_papers
from licensing.services.licenses import license_issue, license_transfer
from licensing.services.tags import tag_replace_lost
from licensing.services.voids import receipt_void
from tests.licensing.factories import AnimalFactory, OwnerFactory, RabiesVaccinationFactory
from tests.licensing.license_factories import TagStockFactory

NOW = "2026-01-15 10:00 -06:00"
TODAY = date(2026, 1, 15)

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-01-15T10:00")]


@pytest.fixture
def issued(north_branch, clerk):
    TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2026, last_number=20)
    dog = AnimalFactory(jurisdiction=north_branch, name="Biscuit")
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))
    return license_issue(animal=dog, owner=dog.owner, actor=clerk, on=TODAY, method="cash")


def test_the_service_lists_issue_duplicate_tag_transfer_and_void_in_order(
    issued, clerk, north_branch
):
    license = issued.license
    duplicate = tag_replace_lost(license=license, actor=clerk, on=TODAY, method="cash")
    new_owner = OwnerFactory(jurisdiction=north_branch)
    transfer = license_transfer(
        license=license,
        new_owner=new_owner,
        actor=clerk,
        on=TODAY,
        method="check",
        reference="1234",
    )
    void = receipt_void(receipt=duplicate.receipt, actor=clerk, reason="Wrong fee")
    receipts = license_papers(license).receipts
    assert [r.number for r in receipts] == [
        issued.receipt.number,
        duplicate.receipt.number,
        transfer.receipt.number,
        void.number,
    ]
    by_number = {r.number: r for r in receipts}
    # Each is printed at issue (REC-01), the void too.
    assert all(r.print is not None and r.print.kind == "receipt" for r in receipts)
    assert by_number[void.number].voids == duplicate.receipt
    # A void of a transfer or duplicate tag leaves the license standing: only the
    # receipt that issued it voids it (LIC-06).
    license.refresh_from_db()
    assert license.status == "active"


def test_another_license_s_receipts_are_not_listed(issued, clerk, north_branch):
    other_dog = AnimalFactory(jurisdiction=north_branch)
    RabiesVaccinationFactory(animal=other_dog, vaccinated_on=date(2025, 6, 1))
    other = license_issue(
        animal=other_dog, owner=other_dog.owner, actor=clerk, on=TODAY, method="cash"
    )
    assert [r.number for r in license_papers(issued.license).receipts] == [issued.receipt.number]
    assert [r.number for r in license_papers(other.license).receipts] == [other.receipt.number]


def test_the_license_page_links_each_receipt_and_its_pdf(
    issued, clerk, client_as, django_assert_max_num_queries
):
    license = issued.license
    client = client_as(clerk)
    for _ in range(3):
        tag_replace_lost(license=license, actor=clerk, on=TODAY, method="cash")
    url = reverse("licensing:license_detail", args=[license.pk])
    client.get(url)  # the menu's cached rule read is warm, as on any page after the first
    with django_assert_max_num_queries(10):
        page = client.get(url).content.decode()
    receipts = list(Receipt.objects.filter(regarding=license))
    assert len(receipts) == 4
    for receipt in receipts:
        assert reverse("licensing:receipt_detail", args=[receipt.pk]) in page
    prints = [r.print for r in license_papers(license).receipts]
    for document in prints:
        assert reverse("notices:document_pdf", args=[document.pk]) in page
    from ordinance.fees import fee_amount

    duplicate = fee_amount(license.jurisdiction, "duplicate_tag", on=TODAY).description
    assert page.count(duplicate) >= 3  # what each duplicate-tag receipt was for


@pytest.mark.parametrize("action", ["duplicate_tag", "transfer"])
def test_the_confirmation_message_links_to_the_new_receipt(
    action, issued, clerk, client_as, north_branch
):
    license = issued.license
    client = client_as(clerk)
    if action == "duplicate_tag":
        url = reverse("licensing:license_duplicate_tag", args=[license.pk])
        data = {"method": "cash", "amount_tendered": "50.00"}
    else:
        url = reverse("licensing:license_transfer", args=[license.pk])
        data = {
            "new_owner": OwnerFactory(jurisdiction=north_branch).pk,
            "method": "cash",
            "amount_tendered": "50.00",
        }
    response = client.post(url, data, follow=True)
    assert response.status_code == 200
    receipt = Receipt.objects.filter(regarding=license).order_by("-number").first()
    assert receipt.number != issued.receipt.number
    page = response.content.decode()
    link = reverse("licensing:receipt_detail", args=[receipt.pk])
    assert f'<a href="{link}">' in page
    assert f"print receipt {receipt.number}" in page
    # The receipt page links back to the license it concerns.
    receipt_page = client.get(link).content.decode()
    assert reverse("licensing:license_detail", args=[license.pk]) in receipt_page


def test_the_message_escapes_what_it_quotes(issued, clerk, client_as, north_branch):
    """The message is marked safe for its link only: a name in it is still escaped."""
    owner = OwnerFactory(jurisdiction=north_branch, last_name="<b>Bold</b>")
    url = reverse("licensing:license_transfer", args=[issued.license.pk])
    with time_machine.travel(NOW, tick=False):
        page = (
            client_as(clerk)
            .post(
                url,
                {"new_owner": owner.pk, "method": "cash", "amount_tendered": "5.00"},
                follow=True,
            )
            .content.decode()
        )
    assert "<b>Bold</b>" not in page


# --- The fee before the payment ---------------------------------------


@pytest.mark.parametrize(
    ("url_name", "code"),
    [
        ("licensing:license_duplicate_tag", "duplicate_tag"),
        ("licensing:license_transfer", "transfer"),
    ],
)
def test_the_action_page_shows_the_fee_and_its_section_before_the_payment(
    url_name, code, issued, clerk, client_as, north_branch
):
    from ordinance.fees import fee_amount

    fee = fee_amount(north_branch, code, on=TODAY)
    page = client_as(clerk).get(reverse(url_name, args=[issued.license.pk])).content.decode()
    table = page[page.index("Fee to take") :]
    assert fee.description in table and fee.authority in table and f"${fee.amount}" in table
    # The fee comes before the form that takes the payment.
    assert page.index("Fee to take") < page.index('name="method"')


def test_a_blank_fee_says_so_before_the_payment_instead_of_a_table(
    issued, clerk, administrator, client_as, north_branch
):
    from ordinance.amendments import rule_amend

    rule_amend(
        jurisdiction=north_branch,
        key="duplicate_tag_fee",
        value=None,
        effective_from=date(2026, 1, 1),
        ordinance_ref="Test: fee under review",
        actor=administrator,
    )
    url = reverse("licensing:license_duplicate_tag", args=[issued.license.pk])
    page = client_as(clerk).get(url).content.decode()
    assert "Fee to take" not in page
    warning = page[page.index('class="alert alert-warning" role="note"') :]
    assert "is not set" in warning[:400] and "Sec. 6-63" in warning[:400]
