"""Renewal notices by mail: from the expiring-licenses report, one
notice per owner with every expiring license, its renewal fee and deadline with their
sections and how to renew; mailing labels for the same owners; which notices were
printed, once per owner, license and term; scoped to the clerk's cities."""

import csv
import io
from datetime import date

import pytest
from django.urls import reverse
from django.utils import timezone

from licensing.models import License, RenewalNotice
from licensing.services.assessment import renewal_fee_lines
from licensing.services.renewal_notices import renewal_batch, renewal_notices_record
from ordinance.models import Event
from ordinance.rules import rule_in_force
from tests.licensing.factories import AnimalFactory, OwnerFactory
from tests.licensing.license_factories import LicenseFactory
from tests.licensing.test_reports_views import table_of
from tests.pdf import pdf_reader, pdf_text

pytestmark = pytest.mark.clock("2026-12-02T10:00")
RANGE = {"start": "2026-12-01", "end": "2026-12-31"}
NOTICES = "licensing:report_expiring_notices"
LABELS = "licensing:report_expiring_labels"
ACTION = "licensing.license.renewal_notice_printed"


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.SITE_URL = "https://animals.example.gov"


def _licensed(city, clerk, owner, *names):
    """A license for each of the owner's animals, all kept at one premises."""
    premises = owner.licenses.first().animal.premises if owner.licenses.exists() else None
    licenses = []
    for name in names:
        extra = {"premises": premises} if premises else {}
        animal = AnimalFactory(jurisdiction=city, owner=owner, name=name, **extra)
        premises = animal.premises
        licenses.append(LicenseFactory(jurisdiction=city, issued_by=clerk, animal=animal))
    return licenses


@pytest.fixture
def expiring(north_branch, glencoe, clerk):
    """Ann Berg has two dogs, Carl Dahl one, Nora Nohome one (and no street address); a
    Glencoe owner has one, which a North Branch clerk never sees."""
    ann = OwnerFactory(
        jurisdiction=north_branch,
        first_name="Ann",
        last_name="Berg",
        address_line="12 Elm Street",
        unit="Apt 3",
        city="North Branch",
        postal_code="55056",
        email="ann@example.org",
    )
    carl = OwnerFactory(
        jurisdiction=north_branch,
        first_name="Carl",
        last_name="Dahl",
        address_line="40 Oak Avenue",
        city="North Branch",
        postal_code="55056",
    )
    nora = OwnerFactory(
        jurisdiction=north_branch, first_name="Nora", last_name="Nohome", address_line=""
    )
    gus = OwnerFactory(jurisdiction=glencoe, first_name="Gus", last_name="Glencoe")
    return {
        "ann": _licensed(north_branch, clerk, ann, "Rex", "Molly"),
        "carl": _licensed(north_branch, clerk, carl, "Pip"),
        "nora": _licensed(north_branch, clerk, nora, "Zed"),
        "gus": _licensed(glencoe, clerk, gus, "Zzglfido"),
    }


def _print(client, **extra):
    response = client.post(reverse(NOTICES), {**RANGE, "which": "unsent", **extra})
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"] == "application/pdf"
    return response.content


def test_one_notice_per_owner_lists_both_animals_with_fee_deadline_and_sections(
    expiring, north_branch, clerk, client_as
):
    """LIC-07 deadline with its section; FEE-01 fee with its authority (the counter's
    own fee for the next term); the portal's address and the counter."""
    pdf = _print(client_as(clerk))
    text = pdf_text(pdf)
    fee = renewal_fee_lines(north_branch, term_start=date(2027, 1, 1))[0]
    expiry = rule_in_force(north_branch, "license_expiry", on=date(2026, 12, 31))
    assert text.count("LICENSE RENEWAL NOTICE") == 2  # Ann and Carl; Nora is skipped
    assert len(pdf_reader(pdf).pages) == 3  # two letters and the clerk's page
    ann = text[text.index("Ann Berg") : text.index("Carl Dahl")]
    assert "12 Elm Street Apt 3" in ann and "North Branch, MN 55056" in ann
    for name, lic in zip(("Rex", "Molly"), expiring["ann"], strict=True):
        assert name in ann and lic.number in ann
    assert "Dec 31, 2026" in ann and expiry.citation in ann
    assert f"${fee.amount:.2f}" in ann and fee.authority in ann
    assert f"${fee.amount * 2:.2f}" in ann  # the total of the two renewals
    assert "https://animals.example.gov/my/animals/" in ann
    assert north_branch.name in ann and "to City Hall" in ann
    assert "Pip" in text and "Zzglfido" not in text and "Gus Glencoe" not in text
    assert "Nora Nohome No mailing address" in text  # skipped, with the reason


def test_the_labels_pdf_has_the_same_owners_addresses(expiring, clerk, client_as):
    response = client_as(clerk).get(reverse(LABELS), {**RANGE, "which": "unsent"})
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content)
    assert "Ann Berg 12 Elm Street Apt 3 North Branch, MN 55056" in text
    assert "Carl Dahl 40 Oak Avenue North Branch, MN 55056" in text
    assert "Nora Nohome: No mailing address" in text
    assert "Gus Glencoe" not in text
    assert not RenewalNotice.objects.exists()  # labels record nothing


def test_printing_records_each_owner_license_and_term_once(expiring, clerk, client_as):
    client = client_as(clerk)
    _print(client)
    rows = RenewalNotice.objects.order_by("license__number")
    assert [(r.license.animal.name, r.owner.name, r.term_start) for r in rows] == sorted(
        [
            ("Rex", "Ann Berg", date(2027, 1, 1)),
            ("Molly", "Ann Berg", date(2027, 1, 1)),
            ("Pip", "Carl Dahl", date(2027, 1, 1)),
        ],
        key=lambda r: License.objects.get(animal__name=r[0]).number,
    )
    assert {r.printed_by for r in rows} == {clerk}
    assert Event.objects.filter(action=ACTION).count() == 3
    # Again, not yet sent: nobody is left (Nora has no address and is not recorded).
    assert "0 notices printed." in pdf_text(_print(client))
    # The same batch again, and every notice again: both print, neither records anew.
    assert pdf_text(_print(client, which="today")).count("LICENSE RENEWAL NOTICE") == 2
    assert pdf_text(_print(client, which="all")).count("LICENSE RENEWAL NOTICE") == 2
    assert RenewalNotice.objects.count() == 3
    assert Event.objects.filter(action=ACTION).count() == 3
    # A license added to Ann later brings her back, with all three of her animals.
    first = expiring["ann"][0]
    _licensed(first.jurisdiction, clerk, first.owner, "Bo")
    text = pdf_text(_print(client))
    assert text.count("LICENSE RENEWAL NOTICE") == 1
    assert all(name in text for name in ("Rex", "Molly", "Bo"))
    assert RenewalNotice.objects.count() == 4


def test_the_report_shows_address_email_and_when_the_notice_was_printed(expiring, clerk, client_as):
    client = client_as(clerk)
    _print(client)
    header, rows = table_of(client.get(reverse("licensing:report_expiring"), RANGE))
    assert header[-3:] == ["Mailing address", "E-mail", "Renewal notice"]
    by_animal = {row[2]: row for row in rows}
    assert by_animal["Rex"][-3:] == [
        "12 Elm Street Apt 3, North Branch, MN 55056",
        "ann@example.org",
        "Notice printed Dec 2, 2026",
    ]
    assert by_animal["Zed"][-3] == "No mailing address: no notice can be mailed"
    assert by_animal["Zed"][-1] == ""
    data = list(
        csv.DictReader(
            io.StringIO(
                client.get(
                    reverse("licensing:report_expiring"), {**RANGE, "format": "csv"}
                ).content.decode()
            )
        )
    )
    rex = next(row for row in data if row["animal"] == "Rex")
    assert rex["address"] == "12 Elm Street Apt 3, North Branch, MN 55056"
    assert rex["email"] == "ann@example.org" and rex["notice_printed"] == "2026-12-02"


@pytest.mark.parametrize("persona", ["officer", "resident"])
def test_only_counter_staff_print_notices_and_labels(expiring, client_as, request, persona):
    client = client_as(request.getfixturevalue(persona))
    assert client.post(reverse(NOTICES), {**RANGE, "which": "all"}).status_code == 403
    assert client.get(reverse(LABELS), {**RANGE, "which": "all"}).status_code == 403
    assert not RenewalNotice.objects.exists()


def test_the_other_citys_clerk_prints_only_its_own_owners(expiring, glencoe_clerk, client_as):
    client = client_as(glencoe_clerk)
    text = pdf_text(_print(client, which="all"))
    assert "Gus Glencoe" in text and "Ann Berg" not in text and "Carl Dahl" not in text
    labels = pdf_text(client.get(reverse(LABELS), {**RANGE, "which": "all"}).content)
    assert "Gus Glencoe" in labels and "Ann Berg" not in labels
    assert set(RenewalNotice.objects.values_list("owner__last_name", flat=True)) == {"Glencoe"}


def test_the_notices_page_refuses_a_get_and_bad_input_gets_a_message(clerk, client_as):
    client = client_as(clerk)
    assert client.get(reverse(NOTICES)).status_code == 405
    response = client.post(reverse(NOTICES), {**RANGE, "which": "everyone"})
    assert response.status_code == 400
    assert b"Select a valid choice" in response.content
    response = client.get(reverse(LABELS), {"start": "2026-12-31", "end": "2026-12-01"})
    assert response.status_code == 400
    assert b"The end date must not be before the start date." in response.content
    assert not RenewalNotice.objects.exists()


def test_the_report_page_stays_within_ten_queries_with_many_rows(
    north_branch, clerk, client_as, django_assert_max_num_queries
):
    for i in range(60):
        owner = OwnerFactory(jurisdiction=north_branch, last_name=f"Owner{i}")
        _licensed(north_branch, clerk, owner, f"Dog{i}a", f"Dog{i}b")
    client = client_as(clerk)
    _print(client)
    client.get(reverse("licensing:report_expiring"), RANGE)  # warm the menu's rule read
    with django_assert_max_num_queries(10):
        response = client.get(reverse("licensing:report_expiring"), RANGE)
    assert response.status_code == 200
    assert response.content.decode().count("Notice printed Dec 2, 2026") == 120


def test_a_fee_the_council_has_not_set_is_said_with_its_section(expiring, clerk, client_as):
    """FEE-01: no dog license fee in force for the renewal term; the notice says so, with
    the section, instead of a 500 or a made-up amount."""
    from ordinance.models import FeeScheduleEntry

    rows = FeeScheduleEntry.objects.filter(code="dog_license")
    rows._raw_delete(rows.db)  # issued fee rows are never deleted: only a test does this
    text = pdf_text(_print(client_as(clerk)))
    assert "fee for City of North Branch is not set (North Branch Sec. 6-62)" in text
    assert RenewalNotice.objects.count() == 3


def test_recording_a_batch_takes_the_same_queries_whatever_its_size(
    expiring, clerk, django_assert_max_num_queries
):
    """Set-based: one read, one insert of notices, one of Events."""
    city = expiring["ann"][0].jurisdiction
    for i in range(12):
        _licensed(city, clerk, OwnerFactory(jurisdiction=city, last_name=f"Many{i}"), f"Dog{i}")
    now = timezone.now()
    on = timezone.localdate(now)
    batch = renewal_batch(user=clerk, start=date(2026, 12, 1), end=date(2026, 12, 31), on=on)
    assert len(batch.notices) > 12
    with django_assert_max_num_queries(6):
        created = renewal_notices_record(batch, actor=clerk, now=now)
    assert created == RenewalNotice.objects.count() == Event.objects.filter(action=ACTION).count()
    assert renewal_notices_record(batch, actor=clerk, now=now) == 0
