"""Stripe's webhook pays an approved application: one payment, one receipt.

The approving clerk issues (Receipt.issued_by is required; REC-01), the PaymentIntent id
is the receipt's reference, the application date decides the late penalty (NB Sec.
6-65(c), LIC-13, FEE-03), and the documents are archived for the resident. A replay or a
forged delivery changes nothing; an amount that no longer matches is kept and held for
the clerk.
"""

from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction

from licensing.models import License, Payment, Receipt
from licensing.models.online import ApplicationStatus
from licensing.services.payments import online_payment_received
from notices.models import IssuedDocument
from ordinance.models import Event
from tests.licensing.payments_helpers import (
    SECRET_KEY,
    WEBHOOK_SECRET,
    WEBHOOK_URL,
    approved_application,
    completed_event,
    deliver,
    signed,
)

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-02-04T10:00")]


@pytest.fixture(autouse=True)
def stripe_on(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.STRIPE_SECRET_KEY = SECRET_KEY
    settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET


@pytest.fixture
def application(north_branch, clerk, resident):
    return approved_application(north_branch, clerk, resident)


def cents(application) -> int:
    return int(application.amount_due * 100)


def test_a_paid_checkout_issues_the_license_with_the_approving_clerk(client, application, clerk):
    assert application.amount_due == Decimal("18.00")  # LIC-13: applied in time, no penalty
    response = deliver(client, completed_event(application, amount_cents=cents(application)))
    assert response.status_code == 200
    payment = Payment.objects.get()
    receipt = Receipt.objects.get()
    assert payment.status == Payment.Status.APPLIED and payment.receipt == receipt
    assert payment.provider == "stripe" and payment.amount == Decimal("18.00")
    assert receipt.issued_by == clerk and receipt.reference == "pi_3TestPaymentIntent0001"
    assert receipt.method == "card" and receipt.total == Decimal("18.00")
    application.refresh_from_db()
    assert application.status == ApplicationStatus.ISSUED
    assert application.license == License.objects.get()
    # REC-01: the receipt and license certificate are archived for the resident's page.
    kinds = set(
        IssuedDocument.objects.filter(owner_user=application.owner.user).values_list(
            "kind", flat=True
        )
    )
    assert "receipt" in kinds
    actions = set(Event.objects.for_object(payment).values_list("action", flat=True))
    assert {"licensing.payment.received", "licensing.payment.applied"} <= actions


def test_the_same_event_again_changes_nothing(client, application):
    event = completed_event(application, amount_cents=cents(application))
    assert deliver(client, event).status_code == 200
    assert deliver(client, event).status_code == 200
    # A different event id (Stripe resends as a new event) for the same PaymentIntent too.
    assert deliver(client, {**event, "id": "evt_2"}).status_code == 200
    assert Payment.objects.count() == 1 and Receipt.objects.count() == 1
    assert License.objects.count() == 1


def test_a_forged_signature_is_refused_and_nothing_changes(client, application):
    event = completed_event(application, amount_cents=cents(application))
    assert deliver(client, event, secret="whsec_not_the_city").status_code == 400
    payload, _header = signed(event)
    no_header = client.post(WEBHOOK_URL, data=payload, content_type="application/json")
    assert no_header.status_code == 400
    # Stripe's tolerance: an old signature (a captured delivery) is refused too.
    assert deliver(client, event, timestamp=1).status_code == 400
    # A tampered payload under a signature of the original.
    _p, header = signed(event)
    tampered = payload.replace('"amount_total": 1800', '"amount_total": 1')
    response = client.post(
        WEBHOOK_URL, data=tampered, content_type="application/json", HTTP_STRIPE_SIGNATURE=header
    )
    assert response.status_code == 400
    assert not Payment.objects.exists() and not Receipt.objects.exists()
    application.refresh_from_db()
    assert application.status == ApplicationStatus.APPROVED


def test_a_get_or_an_unconfigured_site_gets_no_webhook(client, application, settings):
    assert client.get(WEBHOOK_URL).status_code == 405
    settings.STRIPE_SECRET_KEY = ""
    event = completed_event(application, amount_cents=cents(application))
    assert deliver(client, event).status_code == 404
    assert not Payment.objects.exists()


def test_other_events_and_unpaid_sessions_are_acknowledged_and_ignored(client, application):
    event = completed_event(application, amount_cents=cents(application))
    assert deliver(client, {**event, "type": "payment_intent.created"}).status_code == 200
    unpaid = completed_event(application, amount_cents=cents(application))
    unpaid["data"]["object"]["payment_status"] = "unpaid"
    assert deliver(client, unpaid).status_code == 200
    assert not Payment.objects.exists()
    # A delayed method is paid by the second event, for the same session.
    later = completed_event(application, amount_cents=cents(application))
    later["type"] = "checkout.session.async_payment_succeeded"
    assert deliver(client, later).status_code == 200
    assert Payment.objects.get().status == Payment.Status.APPLIED


def test_an_amount_that_no_longer_matches_is_kept_and_held_for_the_clerk(
    client, application, clerk
):
    response = deliver(client, completed_event(application, amount_cents=500))
    assert response.status_code == 200
    payment = Payment.objects.get()
    assert payment.status == Payment.Status.HELD and payment.amount == Decimal("5.00")
    assert "5.00" in payment.note and "18.00" in payment.note
    assert not Receipt.objects.exists()  # the refused issue rolled back: numbers gap-free
    application.refresh_from_db()
    assert application.status == ApplicationStatus.PAYMENT_HELD
    assert application.held_reason == payment.note
    assert Event.objects.for_object(payment).filter(action="licensing.payment.held").exists()
    # The same delivery again: still one payment, still held.
    deliver(client, completed_event(application, amount_cents=500))
    assert Payment.objects.count() == 1 and not Receipt.objects.exists()


def test_a_payment_for_a_withdrawn_application_is_kept_for_the_clerk(client, application):
    application.apply("withdraw", actor=application.owner.user, summary="withdrawn")
    assert deliver(client, completed_event(application, amount_cents=1800)).status_code == 200
    payment = Payment.objects.get()
    assert payment.status == Payment.Status.HELD and "approved" in payment.note
    assert not Receipt.objects.exists()


def test_an_unknown_application_is_acknowledged_and_logged(client, application, caplog):
    event = completed_event(application, amount_cents=1800)
    event["data"]["object"]["metadata"] = {"application": "999999"}
    event["data"]["object"]["client_reference_id"] = "999999"
    assert deliver(client, event).status_code == 200
    assert not Payment.objects.exists()
    assert "names no application" in caplog.text


def test_the_provider_id_is_unique_so_a_second_row_cannot_exist(application):
    """The database backs the replay check: two deliveries racing past the lookup still
    cannot record the payment twice."""
    online_payment_received(
        application_pk=application.pk,
        provider="stripe",
        provider_id="pi_race",
        reference="pi_race",
        amount=Decimal("18.00"),
        currency="usd",
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        Payment.objects.create(
            application=application,
            provider="stripe",
            provider_id="pi_race",
            amount=Decimal("18.00"),
            received_at=application.status_changed_at,
            status=Payment.Status.RECEIVED,
        )
    again = online_payment_received(
        application_pk=application.pk,
        provider="stripe",
        provider_id="pi_race",
        reference="pi_race",
        amount=Decimal("18.00"),
        currency="usd",
    )
    assert again.replay and Receipt.objects.count() == 1


def test_a_payment_is_never_deleted(client, application):
    from kernel.kept import RecordKept

    deliver(client, completed_event(application, amount_cents=cents(application)))
    with pytest.raises(RecordKept):
        Payment.objects.get().delete()


@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_deliveries_give_one_receipt(postgres_only, north_branch, clerk, resident):
    """Stripe may deliver the same event twice at once: the application row lock makes
    the second wait and find the first's payment (PostgreSQL: real row locks)."""
    import threading

    from django.db import connection

    application = approved_application(north_branch, clerk, resident)
    barrier = threading.Barrier(2)
    outcomes, errors = [], []

    def deliver_once():
        try:
            barrier.wait()
            outcomes.append(
                online_payment_received(
                    application_pk=application.pk,
                    provider="stripe",
                    provider_id="pi_twice",
                    reference="pi_twice",
                    amount=application.amount_due,
                    currency="usd",
                )
            )
        except Exception as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=deliver_once) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors
    assert sorted(o.replay for o in outcomes) == [False, True]
    assert Payment.objects.count() == 1 and Receipt.objects.count() == 1
    assert Payment.objects.get().status == Payment.Status.APPLIED


def test_a_second_payment_for_an_issued_application_is_kept_for_the_clerk(client, application):
    """Two Checkout sessions paid (two tabs): one license; the second payment is held
    on the clerk's list to be refunded, never a second receipt."""
    deliver(client, completed_event(application, amount_cents=cents(application)))
    second = completed_event(application, amount_cents=cents(application), pi="pi_second_0002")
    assert deliver(client, second).status_code == 200
    assert Receipt.objects.count() == 1 and License.objects.count() == 1
    held = Payment.objects.get(provider_id="pi_second_0002")
    assert held.status == Payment.Status.HELD and held.receipt is None
    application.refresh_from_db()
    assert application.status == ApplicationStatus.ISSUED


def test_the_webhook_is_public_and_csrf_exempt():
    """Stripe has no session or CSRF token: the signature is the check (URL walk)."""
    from django.urls import resolve

    from tests.accounts.test_url_access import view_roles

    view = resolve(WEBHOOK_URL).func
    assert view_roles(view) is None and view.csrf_exempt
