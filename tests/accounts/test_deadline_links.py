"""A deadline on the staff home page links only to a page the user's role may open:
the officer sees that dog licenses expire, without the link to the
clerk's report that would answer 403."""

from datetime import date

import pytest
from django.urls import reverse

from base.access import may_open
from tests.licensing.license_factories import LicenseFactory

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-12-28T10:00")]


def test_may_open_reads_the_view_s_roles(clerk, officer):
    report = reverse("licensing:report_expiring") + "?start=2026-12-31"
    assert may_open(clerk, report) and not may_open(officer, report)
    assert may_open(officer, reverse("licensing:search"))
    assert may_open(officer, reverse("accounts:login"))  # public
    assert not may_open(clerk, "/no/such/page/")


def test_the_officer_sees_the_deadline_without_a_link_the_clerk_with_it(
    client_as, clerk, officer, north_branch
):
    LicenseFactory(jurisdiction=north_branch, issued_by=clerk, expires_on=date(2026, 12, 31))
    report = reverse("licensing:report_expiring")
    clerk_page = client_as(clerk).get(reverse("accounts:staff_home")).content.decode()
    assert "dog license expires" in clerk_page and f'href="{report}?' in clerk_page
    officer_page = client_as(officer).get(reverse("accounts:staff_home")).content.decode()
    assert "dog license expires" in officer_page and report not in officer_page
