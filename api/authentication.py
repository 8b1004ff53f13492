"""Token only: ``Authorization: Bearer <token>``. No session, so no CSRF.

A missing, unknown or revoked token is a 401. The integration's cities are read with it
(two queries per call), so every view scopes its queryset without another lookup."""

from django.utils.translation import gettext as _
from rest_framework import authentication, exceptions

from .models import Integration, token_digest

KEYWORDS = ("bearer", "token")
MAX_TOKEN_LENGTH = 200


class IntegrationTokenAuthentication(authentication.BaseAuthentication):
    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower().decode(errors="replace") not in KEYWORDS:
            return None
        if len(header) != 2 or len(header[1]) > MAX_TOKEN_LENGTH:
            raise exceptions.AuthenticationFailed(_("Malformed token header."))
        token = header[1].decode(errors="replace")
        integration = Integration.objects.filter(
            token_hash=token_digest(token), revoked_at__isnull=True
        ).first()
        if integration is None:
            raise exceptions.AuthenticationFailed(_("Unknown or revoked token."))
        integration.city_ids = frozenset(integration.cities.values_list("pk", flat=True))
        return integration, integration

    def authenticate_header(self, request):
        return 'Bearer realm="api"'
