"""Shared pieces of the payment tests: an approved online application made
through the clerk's real approval, a local stand-in for Stripe's API, and webhook
deliveries signed with Stripe's scheme.

The stand-in is a real HTTP server on 127.0.0.1 in a thread; the Stripe client is
pointed at it with ``STRIPE_API_BASE``, so the request the view sends (form-encoded, as
Stripe's client encodes it) is what the tests read back.
"""

import hashlib
import hmac
import json
import threading
import time
from datetime import date, datetime
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import parse_qs
from zoneinfo import ZoneInfo

from licensing.models import OnlineApplication, RabiesVaccination, TagStock
from licensing.models.online import ApplicationKind
from licensing.services.applications import application_approve
from tests.licensing.factories import AnimalFactory
from tests.licensing.license_factories import TagStockFactory

CHICAGO = ZoneInfo("America/Chicago")
APPLIED = date(2026, 1, 30)  # within the renewal window: no late penalty (NB Sec. 6-65(c))
APPROVED = date(2026, 2, 3)
NOW = datetime(2026, 2, 4, 10, tzinfo=CHICAGO)
WEBHOOK_SECRET = "whsec_test_secret"
SECRET_KEY = "sk_test_standin"
WEBHOOK_URL = "/payments/stripe/webhook/"


def at(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 10, tzinfo=CHICAGO)


def approved_application(
    jurisdiction, clerk, resident, *, name="Juniper", applied=APPLIED, approved=APPROVED
):
    """A resident's new-license application, approved by ``clerk`` (amount due fixed)."""
    year = approved.year
    if not TagStock.objects.filter(jurisdiction=jurisdiction, year=year).exists():
        TagStockFactory(jurisdiction=jurisdiction, recorded_by=clerk, year=year, last_number=20)
    dog = AnimalFactory(jurisdiction=jurisdiction, name=name, date_of_birth=date(2022, 5, 1))
    dog.owner.user = resident
    dog.owner.save()
    application = OnlineApplication.objects.create(
        jurisdiction=jurisdiction,
        kind=ApplicationKind.NEW,
        animal=dog,
        owner=dog.owner,
        submitted_by=resident,
        submitted_at=at(applied),
        status_changed_at=at(applied),
        applied_on=applied,
        vaccinated_on=date(2025, 6, 1),
        duration_years=RabiesVaccination.Duration.THREE_YEARS,
        veterinarian_name="Dr. Ada Lind",
        veterinarian_license="MN-4411",
    )
    application_approve(application, actor=clerk, on=approved, now=at(approved))
    application.refresh_from_db()
    return application


# --- Stripe's API, locally --------------------------------------------------------------


class StripeStandIn:
    """Answers POST /v1/checkout/sessions like Stripe; keeps every request it got."""

    def __init__(self, *, fail=False):
        self.requests: list[dict] = []
        self.fail = fail
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server's naming)
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
                stand_in.requests.append(
                    {
                        "path": self.path,
                        "form": {k: v[0] for k, v in parse_qs(body).items()},
                        "authorization": self.headers.get("Authorization", ""),
                    }
                )
                if stand_in.fail:
                    return self._send(500, {"error": {"type": "api_error", "message": "down"}})
                if self.path != "/v1/checkout/sessions":
                    return self._send(404, {"error": {"type": "invalid_request_error"}})
                n = len(stand_in.requests)
                return self._send(
                    200,
                    {
                        "id": f"cs_test_{n}",
                        "object": "checkout.session",
                        "url": f"https://checkout.stripe.com/c/pay/cs_test_{n}",
                        "payment_status": "unpaid",
                    },
                )

            def _send(self, status, payload):
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base(self) -> str:
        host, port = self.server.server_address
        return f"http://{host}:{port}"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


# --- Webhook deliveries ----------------------------------------------------------------


def completed_event(application, *, amount_cents, pi="pi_3TestPaymentIntent0001", event_id="evt_1"):
    return {
        "id": event_id,
        "object": "event",
        "type": "checkout.session.completed",
        "data": {
            "object": {
                "id": "cs_test_1",
                "object": "checkout.session",
                "amount_total": amount_cents,
                "currency": "usd",
                "client_reference_id": str(application.pk),
                "metadata": {"application": str(application.pk)},
                "payment_intent": pi,
                "payment_status": "paid",
                "status": "complete",
            }
        },
    }


def signed(event: dict, secret: str = WEBHOOK_SECRET, *, timestamp: int | None = None):
    """(payload, Stripe-Signature header) as Stripe signs: v1 = HMAC-SHA256 of "t.payload"."""
    payload = json.dumps(event)
    t = int(time.time()) if timestamp is None else timestamp
    mac = hmac.new(secret.encode(), f"{t}.{payload}".encode(), hashlib.sha256).hexdigest()
    return payload, f"t={t},v1={mac}"


def deliver(client, event, secret: str = WEBHOOK_SECRET, **kwargs):
    payload, header = signed(event, secret, **kwargs)
    return client.post(
        WEBHOOK_URL, data=payload, content_type="application/json", HTTP_STRIPE_SIGNATURE=header
    )
