"""Voiding a receipt that paid a kennel license fee (LIC-06, REC-01, KEN-04, KEN-08).

Money and license never disagree: a voided fee receipt leaves an application needing the
fee again (issuance blocked, the page says so); the fee of an issued license cannot be
voided under it — the license is revoked first (KEN-08) or the fee is taken again first.
"""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from licensing.models import KennelDecision, KennelLicense, KennelStatus, Receipt
from licensing.services.kennels.applications import (
    KennelRequest,
    kennel_apply,
    kennel_decision_record,
    kennel_premises_for,
)
from licensing.services.kennels.common import DecidedBy
from licensing.services.kennels.issuance import kennel_issue
from licensing.services.kennels.payments import (
    kennel_fee_collect,
    kennel_fee_replace,
    kennel_fee_voided_reason,
)
from licensing.services.kennels.revocations import (
    kennel_revocation_decide,
    kennel_revocation_notice,
)
from licensing.services.voids import receipt_void
from ordinance.models import Event
from ordinance.refusals import Refused
from tests.licensing.factories import OwnerFactory

CHICAGO = ZoneInfo("America/Chicago")
NB_STEPS = [
    "CUP approved by Council",
    "Zoning and CUP conditions met",
    "Minn. Stat. 347.30-347.40 complied with",
]


def at(y, m, d, hh=10):
    return datetime(y, m, d, hh, 0, tzinfo=CHICAGO)


def application(jurisdiction, clerk, on=date(2026, 3, 2)):
    owner = OwnerFactory(jurisdiction=jurisdiction)
    return kennel_apply(
        owner=owner,
        premises=kennel_premises_for(owner),
        application=KennelRequest(
            business_nature="Boarding", dog_count=6, cat_count=0, cup_reference="CUP-1"
        ),
        actor=clerk,
        on=on,
    )


def approve(kennel, clerk, on=date(2026, 3, 5)):
    for step in NB_STEPS:
        kennel_decision_record(
            kennel=kennel,
            step=step,
            outcome=KennelDecision.Outcome.APPROVED,
            decided=DecidedBy(
                name="Jane Roe", capacity="City Council", on=on, reasons="Meets the requirements."
            ),
            actor=clerk,
        )
    kennel.refresh_from_db()
    return kennel


def paid_application(north_branch, clerk):
    kennel = application(north_branch, clerk)
    receipt = kennel_fee_collect(
        kennel=kennel, method="check", reference="1001", actor=clerk, now=at(2026, 3, 2)
    )
    kennel.refresh_from_db()
    return kennel, receipt


def test_a_voided_fee_receipt_leaves_the_application_unpaid(north_branch, clerk):
    kennel, receipt = paid_application(north_branch, clerk)
    assert kennel.fee_paid
    void = receipt_void(
        receipt=receipt, actor=clerk, reason="Check returned NSF", now=at(2026, 3, 3)
    )
    kennel = KennelLicense.objects.get(pk=kennel.pk)
    assert kennel.receipt_id == receipt.pk  # the link stays: history of what was paid
    assert not kennel.fee_paid
    event = Event.objects.get(action="licensing.kennel.fee_voided")
    assert event.subject_id == str(kennel.pk)
    assert event.data == {
        "receipt": receipt.number,
        "void_receipt": void.number,
        "status": KennelStatus.APPLIED,
    }
    assert event.at == at(2026, 3, 3)
    reason = kennel_fee_voided_reason(kennel)
    assert f"voided (void receipt {void.number})" in reason
    assert reason.endswith("(North Branch Sec. 6-61, 6-62).") and "rules.md" not in reason


def test_issuance_is_blocked_until_the_fee_is_paid_again(north_branch, clerk):
    kennel, receipt = paid_application(north_branch, clerk)
    receipt_void(receipt=receipt, actor=clerk, reason="Check returned", now=at(2026, 3, 3))
    kennel = approve(KennelLicense.objects.get(pk=kennel.pk), clerk)
    with pytest.raises(Refused, match="must be paid again"):
        kennel_issue(kennel=kennel, actor=clerk, now=at(2026, 3, 6))
    kennel.refresh_from_db()
    assert kennel.status == KennelStatus.APPROVED and not kennel.number
    # Paying again: a new receipt, then the license issues on it.
    again = kennel_fee_collect(
        kennel=kennel, method="cash", reference="", actor=clerk, now=at(2026, 3, 6)
    )
    kennel.refresh_from_db()
    assert kennel.fee_paid and kennel.receipt_id == again.pk
    kennel_issue(kennel=kennel, actor=clerk, now=at(2026, 3, 6))
    kennel.refresh_from_db()
    assert kennel.status == KennelStatus.ACTIVE


def test_issuing_with_a_payment_method_takes_the_fee_again(north_branch, clerk):
    kennel, receipt = paid_application(north_branch, clerk)
    receipt_void(receipt=receipt, actor=clerk, reason="Keyed wrong", now=at(2026, 3, 3))
    kennel = approve(KennelLicense.objects.get(pk=kennel.pk), clerk)
    kennel_issue(kennel=kennel, actor=clerk, now=at(2026, 3, 6), method="cash")
    kennel.refresh_from_db()
    assert kennel.status == KennelStatus.ACTIVE and kennel.fee_paid
    assert kennel.receipt_id != receipt.pk
    assert kennel.receipt.total == receipt.total


def test_paying_twice_is_refused_while_the_receipt_stands(north_branch, clerk):
    kennel, _receipt = paid_application(north_branch, clerk)
    with pytest.raises(Refused, match="already been paid"):
        kennel_fee_collect(
            kennel=kennel, method="cash", reference="", actor=clerk, now=at(2026, 3, 3)
        )


def test_voiding_an_active_licenses_fee_is_refused_with_the_reason(north_branch, clerk):
    kennel, receipt = paid_application(north_branch, clerk)
    kennel = approve(kennel, clerk)
    kennel_issue(kennel=kennel, actor=clerk, now=at(2026, 3, 6))
    receipts_before = Receipt.objects.count()
    with pytest.raises(Refused) as refused:
        receipt_void(receipt=receipt, actor=clerk, reason="Check returned", now=at(2026, 3, 9))
    message = str(refused.value)
    assert kennel.number in message and "Revoke" in message
    # North Branch's ordinance has no revocation section (KEN-08): none is printed.
    assert "(notice, hearing and decision)" in message and "rules.md" not in message
    assert Receipt.objects.count() == receipts_before  # no void receipt, no gap-free number
    kennel.refresh_from_db()
    assert kennel.status == KennelStatus.ACTIVE and kennel.fee_paid
    assert not Event.objects.filter(
        action__in=["licensing.kennel.fee_voided", "licensing.receipt.voided"]
    ).exists()


def test_fee_taken_again_then_the_first_receipt_can_be_voided(north_branch, clerk):
    kennel, receipt = paid_application(north_branch, clerk)
    kennel = approve(kennel, clerk)
    kennel_issue(kennel=kennel, actor=clerk, now=at(2026, 3, 6))
    new = kennel_fee_replace(
        kennel=kennel, method="cash", reference="", actor=clerk, now=at(2026, 3, 9)
    )
    assert list(new.lines.values_list("code", "amount")) == list(
        receipt.lines.values_list("code", "amount")
    )
    receipt_void(receipt=receipt, actor=clerk, reason="Check returned", now=at(2026, 3, 9))
    kennel.refresh_from_db()
    assert kennel.status == KennelStatus.ACTIVE and kennel.fee_paid
    assert kennel.receipt_id == new.pk
    assert (
        Event.objects.get(action="licensing.kennel.fee_replaced").data["old_receipt"]
        == receipt.number
    )


def test_a_revoked_licenses_fee_can_be_voided(north_branch, clerk):
    kennel, receipt = paid_application(north_branch, clerk)
    kennel = approve(kennel, clerk)
    kennel_issue(kennel=kennel, actor=clerk, now=at(2026, 3, 6))
    person = {"decided_by_name": "Jane Roe", "decided_by_capacity": "City Council", "actor": clerk}
    kennel_revocation_notice(
        kennel=kennel,
        served_on=date(2026, 4, 1),
        hearing_on=date(2026, 4, 15),
        reasons="Conditions broken",
        **person,
    )
    kennel_revocation_decide(
        kennel=kennel,
        revoke=True,
        decided=DecidedBy(
            person["decided_by_name"],
            person["decided_by_capacity"],
            date(2026, 4, 15),
            "Revoked after hearing",
        ),
        actor=person["actor"],
    )
    receipt_void(receipt=receipt, actor=clerk, reason="Refund ordered", now=at(2026, 4, 16))
    event = Event.objects.get(action="licensing.kennel.fee_voided")
    assert event.data["status"] == KennelStatus.REVOKED


def test_the_page_says_the_fee_is_due_again_and_offers_payment(
    client_as, clerk, north_branch, django_assert_max_num_queries
):
    kennel, receipt = paid_application(north_branch, clerk)
    void = receipt_void(receipt=receipt, actor=clerk, reason="Check returned", now=at(2026, 3, 3))
    client = client_as(clerk)
    with django_assert_max_num_queries(40):
        response = client.get(kennel.get_absolute_url())
    body = response.content.decode()
    assert response.status_code == 200
    assert "Fee not paid" in body and f"void receipt {void.number}" in body
    assert "Paid: receipt" not in body
    assert "Take fee and print receipt" in body  # the pay action is offered again
    assert "Demo Res. 2025-01" in body  # the fee due with its authority
    response = client.post(
        reverse("licensing:kennel_action", args=[kennel.pk, "pay"]),
        {"pay-method": "cash", "pay-reference": "", "pay-amount_tendered": "500"},
    )
    assert response.status_code == 302
    kennel.refresh_from_db()
    assert kennel.fee_paid and kennel.receipt_id != receipt.pk


def test_the_void_page_shows_the_refusal_for_an_active_license(client_as, clerk, north_branch):
    kennel, receipt = paid_application(north_branch, clerk)
    kennel = approve(kennel, clerk)
    kennel_issue(kennel=kennel, actor=clerk, now=at(2026, 3, 6))
    client = client_as(clerk)
    response = client.post(
        reverse("licensing:receipt_void", args=[receipt.pk]),
        {"reason": "Check returned", "confirmed": "on"},
    )
    body = response.content.decode()
    assert response.status_code in (200, 400)
    assert "notice, hearing and decision" in body and kennel.number in body
    assert "rules.md" not in body
    assert not Receipt.objects.filter(voids=receipt).exists()
    # The kennel page offers the fee again for an issued license.
    page = client.get(kennel.get_absolute_url()).content.decode()
    assert "Replace the fee payment" in page
    response = client.post(
        reverse("licensing:kennel_action", args=[kennel.pk, "replace-fee"]),
        {
            "replace-fee-method": "cash",
            "replace-fee-reference": "",
            "replace-fee-amount_tendered": "500",
        },
    )
    assert response.status_code == 302
    kennel.refresh_from_db()
    assert kennel.receipt_id != receipt.pk and kennel.fee_paid
