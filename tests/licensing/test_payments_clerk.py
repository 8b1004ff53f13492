"""The clerk's list of online payments: held first, own city only, and the
finish of a held payment, which issues the license as at the counter (REC-01 receipt
with the provider's reference) and links the receipt to the payment."""

from decimal import Decimal

import pytest
from django.urls import reverse

from licensing.models import OnlineApplication, Payment, Receipt
from licensing.models.online import ApplicationStatus
from licensing.services.payments import online_payment_received, payment_finish
from ordinance.models import Event
from ordinance.refusals import Refused
from tests.conftest import make_user
from tests.licensing.payments_helpers import approved_application

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-02-04T10:00")]
LIST = reverse("licensing:payment_list")


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def paid(application, amount, pi):
    return online_payment_received(
        application_pk=application.pk,
        provider="stripe",
        provider_id=pi,
        reference=pi,
        amount=Decimal(amount),
        currency="usd",
    ).payment


@pytest.fixture
def held(north_branch, clerk, resident):
    """A card payment of $5.00 for an $18.00 license: kept, held for the clerk."""
    application = approved_application(north_branch, clerk, resident)
    payment = paid(application, "5.00", "pi_held_0001")
    assert payment.status == Payment.Status.HELD
    return payment


@pytest.fixture
def applied(north_branch, clerk, other_resident):
    application = approved_application(north_branch, clerk, other_resident, name="Pepper")
    payment = paid(application, "18.00", "pi_applied_0001")
    assert payment.status == Payment.Status.APPLIED
    return payment


def test_the_list_shows_held_payments_first_in_few_queries(
    client, clerk, held, applied, django_assert_max_num_queries
):
    client.force_login(clerk)
    with django_assert_max_num_queries(10):
        response = client.get(LIST)
    text = response.content.decode()
    assert response.status_code == 200
    assert text.index("pi_held_0001") < text.index("pi_applied_0001")
    assert "Finish: issue the license" in text
    assert str(applied.receipt.number) in text


def test_the_clerk_finishes_a_held_payment(client, clerk, held):
    client.force_login(clerk)
    response = client.post(reverse("licensing:payment_finish", args=[held.pk]))
    receipt = Receipt.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("licensing:receipt_detail", args=[receipt.pk])
    held.refresh_from_db()
    assert held.status == Payment.Status.APPLIED and held.receipt == receipt
    assert receipt.issued_by == clerk and receipt.reference == "pi_held_0001"
    assert receipt.method == "card"
    held.application.refresh_from_db()
    assert held.application.status == ApplicationStatus.ISSUED
    applied_event = Event.objects.for_object(held).get(action="licensing.payment.applied")
    assert applied_event.actor == clerk
    # Finishing again is refused next to the payment, with nothing issued twice.
    response = client.post(reverse("licensing:payment_finish", args=[held.pk]))
    assert response.status_code == 200 and "Only a held payment" in response.content.decode()
    assert Receipt.objects.count() == 1


def test_a_payment_that_cannot_be_issued_stays_held_with_the_reason(held, clerk):
    application = held.application
    # Withdrawn behind the clerk's back (no transition leads there from held).
    OnlineApplication.objects.filter(pk=application.pk).update(status=ApplicationStatus.WITHDRAWN)
    with pytest.raises(Refused):
        payment_finish(held, actor=clerk)
    held.refresh_from_db()
    assert held.status == Payment.Status.HELD and not Receipt.objects.exists()


def test_a_clerk_of_another_city_gets_404(client, glencoe_clerk, glencoe, held):
    client.force_login(glencoe_clerk)
    assert "pi_held_0001" not in client.get(LIST).content.decode()
    assert client.post(reverse("licensing:payment_finish", args=[held.pk])).status_code == 404
    held.refresh_from_db()
    assert held.status == Payment.Status.HELD
    gl_admin = make_user("gladys", "administrator", [glencoe])
    client.force_login(gl_admin)
    assert client.post(reverse("licensing:payment_finish", args=[held.pk])).status_code == 404


def test_officers_and_residents_are_refused(client, officer, resident, held):
    for user in (officer, resident):
        client.force_login(user)
        assert client.get(LIST).status_code == 403
        assert client.post(reverse("licensing:payment_finish", args=[held.pk])).status_code == 403
    assert client.get(reverse("licensing:payment_finish", args=[held.pk])).status_code == 403
