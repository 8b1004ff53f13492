"""One rate per integration: ``API_THROTTLE_RATE`` in settings, read per
call (not at import) so a deployment or a test can change it. The counts live in the
cache (Redis in production), so no database query."""

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle

from .models import Integration


class IntegrationRateThrottle(SimpleRateThrottle):
    scope = "integration"

    def get_rate(self):
        return settings.API_THROTTLE_RATE

    def get_cache_key(self, request, view):
        if not isinstance(request.auth, Integration):
            return None  # refused before this (401) anyway
        return self.cache_format % {"scope": self.scope, "ident": request.auth.pk}
