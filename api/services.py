"""Integrations: created with their token shown once, revoked; every call recorded."""

import secrets
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from ordinance.models import Event
from ordinance.refusals import Refused

from .models import ApiCall, Integration, Scope, token_digest

TOKEN_PREFIX = "acr_"  # "animal control, read": says what a leaked token is for


def token_new() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


@transaction.atomic
def integration_create(
    *, name: str, cities, scopes: list[str], actor, now: datetime
) -> tuple[Integration, str]:
    """The integration and its token, which is returned here once and never stored."""
    served = actor.jurisdiction_ids
    if actor.is_superuser is False and any(c.pk not in served for c in cities):
        raise Refused.because(_("Cities"), _("You may only choose cities you serve."), "")
    if not cities:
        raise Refused.because(_("Cities"), _("Choose at least one city."), "")
    unknown = set(scopes) - set(Scope.values)
    if unknown:
        raise Refused.because(_("Scopes"), _("Unknown scope."), "")
    token = token_new()
    integration = Integration(
        name=name,
        scopes=sorted(set(scopes)),
        token_prefix=token[:12],
        token_hash=token_digest(token),
        created_by=actor,
        created_at=now,
    )
    integration._history_user = actor
    integration.save()
    integration.cities.set(cities)
    for city in cities:
        Event.record(
            "api.integration.created",
            integration,
            actor=actor,
            jurisdiction=city,
            at=now,
            summary=f"API integration {name} created",
            data={"scopes": integration.scopes},
        )
    return integration, token


@transaction.atomic
def integration_revoke(*, integration: Integration, actor, reason: str, now: datetime) -> None:
    """Active -> revoked: its token is refused from now on (401)."""
    integration = Integration.objects.select_for_update().get(pk=integration.pk)
    if integration.revoked_at is not None:
        raise Refused.because(_("Integration"), _("This integration is already revoked."), "")
    integration.revoked_at, integration.revoked_by = now, actor
    integration.revoked_reason = reason
    integration._history_user, integration._change_reason = actor, reason
    integration.save(update_fields=["revoked_at", "revoked_by", "revoked_reason"])
    for city in integration.cities.all():
        Event.record(
            "api.integration.revoked",
            integration,
            actor=actor,
            jurisdiction=city,
            at=now,
            summary=f"API integration {integration.name} revoked",
            data={"reason": reason},
        )


def _clean(text: str, limit: int) -> str:
    # PostgreSQL text holds no NUL; a log line is kept, cut, not refused.
    return text.replace("\x00", "\ufffd")[:limit]


def api_call_record(
    *, integration_id, method: str, path: str, query: str, status: int, at, ip
) -> ApiCall:
    """One INSERT per call, whatever the answer."""
    return ApiCall.objects.create(
        integration_id=integration_id,
        method=_clean(method, 8),
        path=_clean(path, 300),
        query=_clean(query, 1000),
        status=status,
        at=at,
        ip=ip,
    )
