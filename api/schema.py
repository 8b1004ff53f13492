"""The token's place in the OpenAPI schema (drf-spectacular finds it on import: apps.py)."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class IntegrationTokenScheme(OpenApiAuthenticationExtension):
    target_class = "api.authentication.IntegrationTokenAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "The integration's token, shown once to the administrator.",
        }
