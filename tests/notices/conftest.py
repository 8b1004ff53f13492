import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from notices.services import document_issue

ISSUED_AT = dt.datetime(2025, 3, 3, 15, 30, tzinfo=dt.UTC)  # 9:30 AM CST, a Monday


@pytest.fixture(autouse=True)
def archive_dir(settings, tmp_path):
    """Each test archives into its own folder, never var/media."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


def receipt_context(total="45.00"):
    return {
        "received_from": "Rita Resident",
        "lines": [
            {
                "description": "Dog license, Rex",
                "amount": Decimal("30.00"),
                "citation": "North Branch Sec. 6-61",
            },
            {
                "description": "Duplicate tag",
                "amount": Decimal("15.00"),
                "citation": "North Branch Sec. 6-63",
            },
        ],
        "total": Decimal(total),
        "paid_with": "cash",
    }


@pytest.fixture
def issue(north_branch, clerk):
    """issue(**overrides) -> an IssuedDocument (a sample receipt by default)."""

    def make(**overrides):
        kwargs = {
            "kind": "receipt",
            "template": "sample_receipt.html",
            "context": receipt_context(),
            "jurisdiction": north_branch,
            "actor": clerk,
            "title": "Receipt",
            "number": "NB-2025-00017",
            "now": ISSUED_AT,
        }
        kwargs.update(overrides)
        return document_issue(**kwargs)

    return make


@pytest.fixture
def now():
    return timezone.now()
