"""People see the city's section, never a rules.md ID: the kennel pages, the
kennel form's help texts and the tag lookup cite the profile (``rule_citation``), and drop
the reference where the city's ordinance has no such section."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.urls import reverse

from licensing.forms.kennels import KennelApplyForm
from licensing.models import Tag, TagStatus
from licensing.services.kennels.applications import KennelRequest, kennel_apply, kennel_premises_for
from licensing.services.kennels.issuance import kennel_issue
from tests.conftest import make_user
from tests.licensing.factories import OwnerFactory
from tests.licensing.license_factories import LicenseFactory, TagStockFactory
from tests.licensing.test_receipt_void_kennel import approve, paid_application

CHICAGO = ZoneInfo("America/Chicago")


def body_of(client, url, **params):
    response = client.get(url, params)
    assert response.status_code == 200
    body = response.content.decode()
    assert "rules.md" not in body
    return body


def test_the_apply_page_cites_the_clerks_city(client_as, clerk, glencoe_clerk):
    body = body_of(client_as(clerk), reverse("licensing:kennel_apply"))
    assert "as the responsible person decides it (North Branch Sec. 6-65(a))." in body  # KEN-04
    assert "person decides the route (North Branch Sec. 6-65(a))." in body  # KEN-03
    assert "grace days of this date (North Branch Sec. 6-65(c))." in body  # LIC-13
    body = body_of(client_as(glencoe_clerk), reverse("licensing:kennel_apply"))
    assert "(Glencoe 701 Subd. 4(D))" in body and "(Glencoe 701 Subd. 4(B))" in body
    assert "grace days of this date." in body  # Glencoe has no late penalty: no section
    assert "()" not in body


def test_a_clerk_of_two_cities_sees_no_section_on_the_apply_page(client, north_branch, glencoe):
    both = make_user("bea", "clerk", [north_branch, glencoe])
    client.force_login(both)
    body = body_of(client, reverse("licensing:kennel_apply"))
    assert "person decides the route." in body and "North Branch Sec." not in body
    assert "Glencoe 701" not in body


def test_the_form_without_a_city_cites_nothing(clerk, glencoe):
    assert str(KennelApplyForm(user=clerk).fields["business_nature"].help_text).endswith(
        "decides the route."
    )
    form = KennelApplyForm(user=clerk, jurisdiction=glencoe)
    assert str(form.fields["business_nature"].help_text).endswith("(Glencoe 701 Subd. 4(B)).")


def test_the_detail_and_transfer_pages_cite_north_branch(client_as, clerk, north_branch):
    owner = OwnerFactory(jurisdiction=north_branch)
    pending = kennel_apply(
        owner=owner,
        premises=kennel_premises_for(owner),
        application=KennelRequest(
            business_nature="Boarding",
            dog_count=5,
            cat_count=0,
            cup_reference="CUP-1",
            became_subject_on=date(2026, 3, 1),
        ),
        actor=clerk,
        on=date(2026, 3, 2),
    )
    client = client_as(clerk)
    body = body_of(client, pending.get_absolute_url())
    assert "(late-penalty grace, North Branch Sec. 6-65(c))" in body
    kennel, _receipt = paid_application(north_branch, clerk)
    kennel = approve(kennel, clerk)
    kennel_issue(kennel=kennel, actor=clerk, now=datetime(2026, 3, 6, 10, tzinfo=CHICAGO))
    body = body_of(client, kennel.get_absolute_url())
    assert "Replace the fee payment (before voiding its receipt, North Branch Sec. 6-61, 6-62)" in (
        body
    )
    body = body_of(client, reverse("licensing:kennel_transfer", args=[kennel.pk]))
    assert "(North Branch Sec. 6-65(d))" in body  # LIC-12


def test_glencoe_kennel_pages_show_no_rule_ids(client_as, glencoe_clerk, glencoe):
    owner = OwnerFactory(jurisdiction=glencoe)
    kennel = kennel_apply(
        owner=owner,
        premises=kennel_premises_for(owner),
        application=KennelRequest(
            business_nature="Boarding", dog_count=5, cat_count=0, cup_reference="CUP-1"
        ),
        actor=glencoe_clerk,
        on=date(2026, 3, 2),
    )
    client = client_as(glencoe_clerk)
    body_of(client, kennel.get_absolute_url())
    body_of(client, reverse("licensing:kennel_list"))


def test_the_tag_lookup_cites_the_tags_city(client_as, clerk, north_branch):
    stock = TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, last_number=20)
    license = LicenseFactory(jurisdiction=north_branch, issued_by=clerk)
    Tag.objects.filter(stock=stock, number=7).update(
        status=TagStatus.LOST, license=license, status_changed_on=date(2026, 4, 2)
    )
    client = client_as(clerk)
    url = reverse("licensing:tag_lookup")
    body = body_of(client, url, number="7", year=str(stock.year))
    assert "reported lost on Apr 2, 2026" in body
    assert "(North Branch Sec. 6-63; North Branch Sec. 6-64)" in body  # LIC-10, LIC-14
    body = body_of(client, url, number="8", year=str(stock.year))
    assert "presumed unlicensed (North Branch Sec. 6-63) until a license is found." in body
