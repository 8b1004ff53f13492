"""Refuse a request body larger than the largest legitimate upload before reading it.

Three anonymous 2 GB POSTs once held every gunicorn worker until WORKER TIMEOUT and left
2 GB of temporary files behind. The limit is ``UPLOAD_MAX_BYTES`` (a certificate, photo
or court order) plus ``REQUEST_FORM_OVERHEAD_BYTES`` for the form's other fields and the
multipart framing. The declared ``Content-Length`` is checked before anything is read;
a body sent without one (chunked) is not read by Django at all (``WSGIRequest`` reads at
most ``Content-Length`` bytes), and the reverse proxy's ``client_max_body_size`` stops it
in front (docs/deployment.md, "The reverse proxy").
"""

from django.conf import settings
from django.http import HttpResponse
from django.template.loader import render_to_string


def request_body_limit() -> int:
    return settings.UPLOAD_MAX_BYTES + settings.REQUEST_FORM_OVERHEAD_BYTES


class RequestSizeLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            declared = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            declared = 0
        if declared > request_body_limit():
            # Nothing of the body is read (the server closes a connection whose body was
            # not consumed; WSGI forbids setting "Connection" here).
            return HttpResponse(
                render_to_string("413.html", {"limit_mb": request_body_limit() // 2**20}),
                status=413,
            )
        return self.get_response(request)
