"""The read API's rows of tests/test_every_page.py's page table.

The administrator's integration pages show a North Branch integration (made by the
administrator of both cities, for North Branch only). The API's own addresses answer a
session with 401: they take a token, never a login (tests/api/test_api.py walks them with
tokens of each city); the schema is public."""

from dataclasses import dataclass


@dataclass
class ApiWorld:
    integration: object
    token: str


def build_api_world(*, nb, administrator, now) -> ApiWorld:
    from api.models import Scope
    from api.services import integration_create

    integration, token = integration_create(
        name="Finance export",
        cities=[nb],
        scopes=[Scope.RECEIPTS, Scope.LICENSES],
        actor=administrator,
        now=now,
    )
    return ApiWorld(integration=integration, token=token)


TOKEN_ONLY = {"*": 401}

API_PAGES = {
    "integrations:list": (lambda w: [], {}),
    "integrations:create": (lambda w: [], {}),
    "integrations:detail": (lambda w: [w.api.integration.pk], {}),
    "integrations:revoke": (lambda w: [w.api.integration.pk], {"*": 405}),
    "api:license-list": (lambda w: [], TOKEN_ONLY),
    "api:license-detail": (lambda w: [w.license.pk], TOKEN_ONLY),
    "api:animal-list": (lambda w: [], TOKEN_ONLY),
    "api:animal-detail": (lambda w: [w.animal.pk], TOKEN_ONLY),
    "api:owner-list": (lambda w: [], TOKEN_ONLY),
    "api:owner-detail": (lambda w: [w.owner.pk], TOKEN_ONLY),
    "api:receipt-list": (lambda w: [], TOKEN_ONLY),
    "api:receipt-detail": (lambda w: [w.receipt.pk], TOKEN_ONLY),
    "api:schema": (lambda w: [], {}),
}
