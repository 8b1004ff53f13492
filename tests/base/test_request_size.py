"""Request size: a body declared larger than the largest legitimate
upload is refused with 413 before a byte of it is read, and three such uploads at once
leave a normal page answering within a second. A file a little over the upload limit
still reaches its form (which says so next to the field, tests/licensing/test_online_views)."""

import socket
import threading
import time
import urllib.request

import pytest
from django.test import RequestFactory

from base.request_size import RequestSizeLimitMiddleware, request_body_limit


def test_an_oversized_body_is_refused_unread(settings):
    read = []

    class Body:
        def read(self, *args):
            read.append(args)
            return b""

    request = RequestFactory().post("/login/", data=b"", content_type="application/octet-stream")
    request.META["CONTENT_LENGTH"] = str(2 * 1024**3)
    request.META["wsgi.input"] = Body()
    response = RequestSizeLimitMiddleware(lambda r: pytest.fail("the view ran"))(request)
    assert response.status_code == 413 and not read
    assert b"The file is too large" in response.content
    assert f"{request_body_limit() // 2**20} MB".encode() in response.content


def test_a_body_within_the_limit_goes_through():
    request = RequestFactory().post("/login/", data={"username": "a"})
    assert RequestSizeLimitMiddleware(lambda r: "view")(request) == "view"


def _claim_two_gigabytes(host, port, answers):
    with socket.create_connection((host, port), timeout=10) as sock:
        sock.sendall(
            b"POST /login/ HTTP/1.1\r\nHost: localhost\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\n"
            b"Content-Length: 2147483648\r\n\r\nusername=a&password="
        )
        answers.append(sock.recv(4000))


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_three_oversized_uploads_at_once_leave_pages_answering(live_server, cities):
    host, port = live_server.thread.host, live_server.thread.port
    answers = []
    threads = [
        threading.Thread(target=_claim_two_gigabytes, args=(host, port, answers)) for _ in range(3)
    ]
    for thread in threads:
        thread.start()
    started = time.monotonic()
    with urllib.request.urlopen(f"{live_server.url}/login/", timeout=5) as page:
        assert page.status == 200
    assert time.monotonic() - started < 1.0
    for thread in threads:
        thread.join(10)
    assert len(answers) == 3 and all(b" 413 " in answer for answer in answers)
