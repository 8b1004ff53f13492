"""Dates read one way: "Dec 31, 2026" on pages, in e-mails and in
PDFs, "Dec 31, 2026, 2:05 p.m." for a moment; CSV exports stay ISO (2026-12-31)."""

import csv
import io
from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils.formats import date_format

from licensing.sweeps import sweep_renewal_reminders
from notices.services import document_issue, document_pdf
from tests.conftest import make_user
from tests.licensing.license_factories import LicenseFactory
from tests.notices.conftest import receipt_context
from tests.pdf import pdf_text

CHICAGO = ZoneInfo("America/Chicago")
OLD_STYLES = ("December 31, 2026", "Dec. 31, 2026", "12/31/2026")

pytestmark = pytest.mark.django_db


@pytest.fixture
def rex(north_branch):
    issuer = make_user("issuer", "clerk", [north_branch])
    return LicenseFactory(
        jurisdiction=north_branch, issued_by=issuer, animal__name="Rex", number="2026-0101"
    )


def test_the_format_module_sets_one_way_for_dates_and_moments():
    moment = datetime(2026, 12, 31, 14, 5, tzinfo=CHICAGO)
    assert date_format(date(2026, 12, 31)) == "Dec 31, 2026"
    assert date_format(moment, "DATETIME_FORMAT") == "Dec 31, 2026, 2:05 p.m."
    assert date_format(date(2026, 12, 31), "SHORT_DATE_FORMAT") == "Dec 31, 2026"
    rendered = Template("{{ d }} · {{ d|date }}").render(Context({"d": date(2026, 12, 31)}))
    assert rendered == "Dec 31, 2026 · Dec 31, 2026"


def test_a_page_shows_the_expiry_as_dec_31_2026(rex, client_as, clerk):
    page = client_as(clerk).get(reverse("licensing:license_detail", args=[rex.pk]))
    html = page.content.decode()
    assert page.status_code == 200 and "Dec 31, 2026" in html
    assert not any(old in html for old in OLD_STYLES)


def test_an_email_shows_the_expiry_as_dec_31_2026(
    rex, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        sweep_renewal_reminders(now=datetime(2026, 12, 2, 6, 0, tzinfo=CHICAGO))
    (mail,) = mailoutbox
    assert "Dec 31, 2026" in mail.subject and "Dec 31, 2026" in mail.body
    assert not any(old in mail.subject + mail.body for old in OLD_STYLES)


def test_a_pdf_shows_when_it_was_issued_as_dec_31_2026(north_branch, clerk, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    doc = document_issue(
        kind="receipt",
        template="sample_receipt.html",
        context=receipt_context(),
        jurisdiction=north_branch,
        actor=clerk,
        title="Receipt",
        number="NB-2026-00031",
        now=datetime(2026, 12, 31, 14, 5, tzinfo=CHICAGO),
    )
    text = pdf_text(document_pdf(doc))
    assert "Issued Dec 31, 2026, 2:05 p.m." in text
    assert not any(old in text for old in OLD_STYLES)


def test_a_csv_export_keeps_iso_dates(rex, client_as, clerk):
    response = client_as(clerk).get(
        reverse("licensing:report_expiring"),
        {"start": "2026-12-01", "end": "2026-12-31", "format": "csv"},
    )
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:2] == ["license", "expires_on"]
    assert ["2026-0101", "2026-12-31"] == rows[1][:2]
