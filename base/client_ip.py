"""The client's address behind the reverse proxy.

Behind the proxy docs/deployment.md recommends, ``REMOTE_ADDR`` is the proxy's address for every
client: a lockout by address would lock everyone out at once, and a limit per address
would count the whole city as one client. Each trusted proxy appends the address it
received the request from to ``X-Forwarded-For``, so with ``TRUSTED_PROXY_COUNT`` = n the
client is the n-th entry from the right. Entries further left were written by the client
and are never trusted; a header with fewer entries than proxies did not come through them
all, and ``REMOTE_ADDR`` is used.
"""

import ipaddress

from django.conf import settings


def _valid(value: str) -> str | None:
    try:
        return str(ipaddress.ip_address(value.strip()))
    except ValueError:
        return None


def client_ip(request) -> str | None:
    remote = request.META.get("REMOTE_ADDR")
    count = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    if count <= 0:
        return remote
    entries = [e for e in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if e.strip()]
    if len(entries) < count:
        return remote
    return _valid(entries[-count]) or remote
