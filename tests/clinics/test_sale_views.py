"""Licenses sold at the clinic: the pages, by role.

The clinic sells through its page (the checks and fee lines with their sections; the
fee confirmed as collected, no payment details) and downloads the city's receipt; the
clerk issues a block and records returns and losses; the statement and the balances
open for those who may read them, with their CSV. A clinic's person gets 403 on the
city's pages, 404 on another clinic's records; another city's clerk 404; a clerk 403
on the clinic's own pages. Every page stays within the query budget with 300+ rows,
and bad input is refused beside its field, never a 500.
"""

import csv
import io

import pytest
import time_machine
from django.urls import reverse

from base.roles import ADMINISTRATOR
from clinics.models import ClinicSale, ConsignmentBlock, HoldingStatus, TagReconciliation
from clinics.services.sales import clinic_sale
from kernel.models import NumberSeries
from licensing.models import Tag, TagStatus
from tests.clinics.consign_helpers import NOW, block, bulk_sales, sellable_dog, stock
from tests.clinics.helpers import make_clinic, make_vet
from tests.conftest import make_user
from tests.pdf import pdf_text

QUERY_BUDGET = 10
MANY = 320


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
def the_block(north_branch, clerk, clinic):
    stock(north_branch, clerk)
    return block(clinic, north_branch, clerk, 41, 50)


@pytest.fixture
def certificate(north_branch, clinic, vet):
    return sellable_dog(north_branch, clinic, vet)[1]


def _statement_url(name, clinic, city, month=3):
    return reverse(name, args=[clinic.pk, city.pk, 2026, month])


def test_the_clinic_sells_a_license_through_its_pages(
    client, north_branch, clinic, vet, the_block, certificate
):
    client.force_login(vet)
    listing = client.get(reverse("clinics:sale_list")).content.decode()
    assert "2026: tags 41–50 (10 tags)" in listing
    assert reverse("clinics:sale_new", args=[certificate.pk]) in listing
    url = reverse("clinics:sale_new", args=[certificate.pk])
    page = client.get(url).content.decode()
    assert "Rabies vaccination" in page and "North Branch Sec. 6-61" in page  # the checks
    assert "Fees to collect for the city" in page and "Res." in page  # FEE-01 authority
    assert "card" not in page.lower()  # no payment details asked
    # Not confirmed as collected: refused beside the field, nothing sold.
    response = client.post(url, {"tag_number": ""})
    assert response.status_code == 400
    assert "Collect the fee first, then confirm it here." in response.content.decode()
    assert not ClinicSale.objects.exists()
    # A tag it does not hold: refused beside the tag number, with its section.
    response = client.post(url, {"tag_number": "7", "collected": "on"})
    assert response.status_code == 400
    text = response.content.decode()
    assert "Tag 7 of 2026 is not an unsold tag held by Lakes Veterinary Clinic." in text
    assert "North Branch Sec. 6-64" in text
    series = NumberSeries.objects.filter(jurisdiction=north_branch, series="receipt").first()
    number = series.next_number if series else 1  # the city's series, whatever came before
    response = client.post(url, {"tag_number": "44", "collected": "on"})
    sale = ClinicSale.objects.get()
    assert response.status_code == 302 and response.url == reverse(
        "clinics:sale_detail", args=[sale.pk]
    )
    assert sale.receipt.number == number and sale.holding.tag.number == 44
    detail = client.get(response.url).content.decode()
    assert f'id="receipt-number">{number}<' in detail and "Clinic-collected" in detail
    pdf = client.get(reverse("clinics:sale_receipt", args=[sale.pk]))
    assert pdf["Content-Type"] == "application/pdf"
    text = pdf_text(b"".join(pdf.streaming_content) if pdf.streaming else pdf.content)
    assert f"Receipt {number}" in text and "Tag number: 44, year 2026" in text
    # The statement lists it; its CSV too.
    statement = client.get(_statement_url("clinics:statement", clinic, north_branch))
    assert statement.status_code == 200 and str(number) in statement.content.decode()
    rows = list(
        csv.DictReader(
            io.StringIO(
                client.get(
                    _statement_url("clinics:statement_csv", clinic, north_branch)
                ).content.decode()
            )
        )
    )
    assert [r["receipt"] for r in rows if r["kind"] == "sale"] == [str(number)]
    pdf = client.get(_statement_url("clinics:statement_pdf", clinic, north_branch))
    assert "41–43, 45–50" in pdf_text(pdf.content)


def test_a_clinic_sees_only_its_own(client, north_branch, clinic, vet, the_block, certificate):
    sale = clinic_sale(clinic=clinic, certificate=certificate, actor=vet)
    other = make_clinic([north_branch], name="Other Clinic", license_number="MN-7")
    olga = make_vet(other, "olga")
    client.force_login(olga)
    for name, args in (
        ("clinics:sale_new", [certificate.pk]),
        ("clinics:sale_detail", [sale.pk]),
        ("clinics:sale_receipt", [sale.pk]),
        ("clinics:statement", [clinic.pk, north_branch.pk, 2026, 3]),
        ("clinics:statement_pdf", [clinic.pk, north_branch.pk, 2026, 3]),
        ("clinics:statement_csv", [clinic.pk, north_branch.pk, 2026, 3]),
    ):
        assert client.get(reverse(name, args=args)).status_code == 404, name
    assert "Lakes" not in client.get(reverse("clinics:sale_list")).content.decode()
    # Its own statement opens, with nothing of the other clinic's.
    own = client.get(reverse("clinics:statement", args=[other.pk, north_branch.pk, 2026, 3]))
    assert own.status_code == 200 and sale.license.number not in own.content.decode()
    assert "Clover" not in own.content.decode()
    # The city's pages are not a clinic's.
    for name, args in (
        ("clinics:consignment_list", []),
        ("clinics:block_detail", [the_block.pk]),
        ("clinics:balances", []),
        ("licensing:receipt_detail", [sale.receipt.pk]),
    ):
        assert client.get(reverse(name, args=args)).status_code == 403, name
    assert client.post(reverse("clinics:block_reconcile", args=[the_block.pk])).status_code == 403


def test_staff_roles_and_cities(
    client, north_branch, glencoe, clinic, vet, the_block, certificate, clerk, glencoe_clerk
):
    sale = clinic_sale(clinic=clinic, certificate=certificate, actor=vet)
    client.force_login(clerk)
    for name, args in (("clinics:sale_list", []), ("clinics:sale_detail", [sale.pk])):
        assert client.get(reverse(name, args=args)).status_code == 403, name
    statement = client.get(_statement_url("clinics:statement", clinic, north_branch))
    assert statement.status_code == 200
    client.force_login(glencoe_clerk)
    for name in ("clinics:statement", "clinics:statement_pdf", "clinics:statement_csv"):
        assert client.get(_statement_url(name, clinic, north_branch)).status_code == 404
    assert client.get(reverse("clinics:block_detail", args=[the_block.pk])).status_code == 404
    post = client.post(
        reverse("clinics:block_reconcile", args=[the_block.pk]),
        {"kind": "lost", "first_number": "41", "reason": "x"},
    )
    assert post.status_code == 404 and not TagReconciliation.objects.exists()
    listing = client.get(reverse("clinics:consignment_list")).content.decode()
    assert clinic.name not in listing  # not a clinic of Glencoe's, no block of Glencoe's
    balances = client.get(reverse("clinics:balances"), {"year": 2026, "format": "csv"})
    assert list(csv.reader(io.StringIO(balances.content.decode())))[1:] == []
    # A statement of a clinic that serves no such city, or of a month out of range.
    client.force_login(clerk)
    for args in ([clinic.pk, glencoe.pk, 2026, 3], [clinic.pk, north_branch.pk, 2026, 13]):
        assert client.get(reverse("clinics:statement", args=args)).status_code == 404


def test_the_clerk_issues_a_block_and_records_returns_and_losses(
    client, north_branch, glencoe, clerk, clinic
):
    stock(north_branch, clerk)
    client.force_login(clerk)
    url = reverse("clinics:consignment_list")
    page = client.get(url).content.decode()
    assert clinic.name in page and "Glencoe" not in page  # one city: no city choice
    response = client.post(
        url,
        {"clinic": clinic.pk, "year": "2026", "first_number": "41", "last_number": "60"},
    )
    assert response.status_code == 400  # 51-60 are not in stock: at the range
    assert "Tag 51 of 2026 is not in the city&#x27;s tag stock." in response.content.decode()
    assert not ConsignmentBlock.objects.exists()
    response = client.post(
        url,
        {
            "clinic": clinic.pk,
            "year": "2026",
            "first_number": "41",
            "last_number": "50",
            "note": "Spring",
        },
    )
    the_block = ConsignmentBlock.objects.get()
    assert response.status_code == 302 and response.url == reverse(
        "clinics:block_detail", args=[the_block.pk]
    )
    reconcile = reverse("clinics:block_reconcile", args=[the_block.pk])
    response = client.post(reconcile, {"kind": "lost", "first_number": "45", "reason": ""})
    assert response.status_code == 400 and "This field is required." in response.content.decode()
    client.post(reconcile, {"kind": "lost", "first_number": "45", "reason": "Dropped"})
    client.post(
        reconcile,
        {"kind": "returned", "first_number": "48", "last_number": "50", "reason": "Season over"},
    )
    response = client.post(reconcile, {"kind": "returned", "first_number": "45", "reason": "x"})
    assert response.status_code == 400 and "is lost: only unsold tags" in response.content.decode()
    detail = client.get(reverse("clinics:block_detail", args=[the_block.pk])).content.decode()
    assert "41–44, 46–47" in detail and "Dropped" in detail and "Season over" in detail
    assert Tag.objects.get(number=45).status == TagStatus.LOST
    assert Tag.objects.get(number=48).status == TagStatus.AVAILABLE
    assert [h.status for h in the_block.holdings.filter(tag__number__in=[45, 48])] == [
        HoldingStatus.LOST,
        HoldingStatus.RETURNED,
    ]


@pytest.mark.parametrize(
    "data",
    [
        {"clinic": "99999999", "year": "2026", "first_number": "1", "last_number": "2"},
        {"clinic": "x\x00", "year": "-1", "first_number": "9" * 40, "last_number": "0"},
        {"year": "2026", "first_number": "5", "last_number": "4", "note": "n" * 201},
    ],
)
def test_bad_input_on_the_block_form_is_refused_beside_its_field(
    client, north_branch, clerk, clinic, data
):
    stock(north_branch, clerk)
    client.force_login(clerk)
    response = client.post(reverse("clinics:consignment_list"), data)
    assert response.status_code == 400 and "is-invalid" in response.content.decode()
    assert not ConsignmentBlock.objects.exists()


def test_bad_input_on_the_sale_and_reconcile_forms(
    client, north_branch, clinic, vet, clerk, the_block, certificate
):
    client.force_login(vet)
    url = reverse("clinics:sale_new", args=[certificate.pk])
    for data in (
        {"tag_number": "abc\x00", "collected": "on"},
        {"tag_number": "9" * 5000, "collected": "on"},
        {"tag_number": "-1", "collected": "on", "term_year": "1"},
    ):
        assert client.post(url, data).status_code == 400
    assert client.get(url, {"term_year": "9" * 5000}).status_code == 200
    client.force_login(clerk)
    reconcile = reverse("clinics:block_reconcile", args=[the_block.pk])
    for data in (
        {"kind": "stolen", "first_number": "41", "reason": "x"},
        {"kind": "lost", "first_number": "41", "last_number": "40", "reason": "x"},
        {"kind": "lost", "first_number": "41", "reason": "r\x00" + "e" * 300},
    ):
        assert client.post(reconcile, data).status_code == 400
    for query in ({"year": "x\x00"}, {"year": "99999"}, {"year": "2026", "format": "csv"}):
        assert client.get(reverse("clinics:balances"), query).status_code in (200, 400)
    assert not ClinicSale.objects.exists() and not TagReconciliation.objects.exists()


def test_the_pages_stay_within_the_query_budget_with_hundreds_of_sales(
    client, north_branch, glencoe, clinic, vet, clerk, certificate, django_assert_max_num_queries
):
    admin = make_user("gladys", ADMINISTRATOR, [north_branch, glencoe])
    the_block = bulk_sales(clinic, north_branch, clerk, MANY)
    sale = ClinicSale.objects.first()
    statement_args = [clinic.pk, north_branch.pk, 2026, 3]
    pages = {
        vet: [
            reverse("clinics:sale_list"),
            reverse("clinics:sale_new", args=[certificate.pk]),
            reverse("clinics:sale_detail", args=[sale.pk]),
        ],
        clerk: [
            reverse("clinics:consignment_list"),
            reverse("clinics:block_detail", args=[the_block.pk]),
            reverse("clinics:balances"),
            reverse("clinics:balances") + "?year=2026&format=csv",
        ],
        admin: [reverse("clinics:balances"), reverse("clinics:consignment_list")],
    }
    for name in ("clinics:statement", "clinics:statement_csv", "clinics:statement_pdf"):
        pages[vet].append(reverse(name, args=statement_args))
        pages[clerk].append(reverse(name, args=statement_args))
    for user, urls in pages.items():
        client.force_login(user)
        client.get(urls[0])  # the user's roles and cities come from the cache afterwards
        for url in urls:
            with django_assert_max_num_queries(QUERY_BUDGET):
                response = client.get(url)
            assert response.status_code == 200, url
    page = client.get(reverse("clinics:statement", args=statement_args)).content.decode()
    assert page.count("<tr>") > MANY  # every sale is on it
    assert "2026: tags 1321–1330 (10 tags)" in page  # the unsold rest of the block
