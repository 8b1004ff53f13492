"""Quiet, private pages: a signed-in page is never cached (counter
PCs are shared); a 403 is one log line, not a traceback;
the secure-cookie flags follow DJANGO_SECURE_COOKIES."""

import logging
import os
import subprocess
import sys

import pytest
from django.urls import reverse

from base.privacy import QuietRefusals


@pytest.mark.django_db
def test_signed_in_pages_are_not_stored(client_as, clerk):
    response = client_as(clerk).get(reverse("licensing:search"))
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"


@pytest.mark.django_db
def test_a_refusal_is_one_line_without_a_traceback(client_as, resident, caplog):
    with caplog.at_level(logging.WARNING, logger="django.request"):
        assert client_as(resident).get(reverse("licensing:search")).status_code == 403
    [record] = [r for r in caplog.records if r.name == "django.request"]
    assert QuietRefusals().filter(record) and record.exc_info is None
    assert "Forbidden" in record.getMessage()


def test_an_error_keeps_its_traceback():
    record = logging.LogRecord(
        "django.request", logging.ERROR, "", 0, "boom", (), (ValueError, ValueError(), None)
    )
    record.status_code = 500
    QuietRefusals().filter(record)
    assert record.exc_info is not None


@pytest.mark.parametrize("value, secure", [("false", False), ("true", True)])
def test_secure_cookies_follow_the_environment(value, secure):
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings';"
        "django.setup(); from django.conf import settings as s;"
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE)"
    )
    env = {**os.environ, "DJANGO_SECURE_COOKIES": value}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.split() == [str(secure), str(secure)], out.stderr[-500:]
