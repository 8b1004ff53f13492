"""Quiet, private pages.

``PrivatePagesMiddleware``: a page shown to a signed-in user is personal (a counter PC
is shared; a resident's animals are theirs), so it is sent with ``Cache-Control:
private, no-store`` unless the view set its own caching. Static files are served before
this middleware sees them (whitenoise).

``QuietRefusals``: a logging filter for ``django.request`` that logs a 403 or 404 as one
line, without the traceback Django attaches (a URL walk by an attacker or a test would
otherwise fill the log with hundreds of tracebacks). Errors (5xx) keep theirs.
"""

import logging


class PrivatePagesMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and not response.has_header("Cache-Control"):
            response["Cache-Control"] = "private, no-store"
        return response


class QuietRefusals(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) in (403, 404):
            record.exc_info = None
            record.exc_text = None
        return True
