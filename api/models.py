"""The read API's integrations and its call log.

An ``Integration`` is one of the city's other systems (finance, GIS, a county's
dispatch): an administrator creates it for some of their cities with the scopes it needs
and is shown its token once. Only the token's SHA-256 digest is stored (the token is 256
random bits, so a fast digest is as good as a slow one and lets the lookup be one indexed
query); revoking sets ``revoked_at`` and the token stops working at once. Integrations
are revoked, never deleted: the call log points at them.

Every call to the API, answered or refused, is one ``ApiCall`` row (one INSERT).
"""

import hashlib

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ordinance.models import Jurisdiction


class Scope(models.TextChoices):
    LICENSES = "licenses", _("Dog licenses")
    ANIMALS = "animals", _("Animals")
    OWNERS = "owners", _("Owners (ids and non-personal fields)")
    RECEIPTS = "receipts", _("Receipts (for the finance export)")
    PERSONAL_DATA = (
        "personal-data",
        _("Personal data: owners' and payers' names, addresses, phones and e-mails"),
    )


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Integration(models.Model):
    name = models.CharField(_("name"), max_length=120)
    cities = models.ManyToManyField(
        Jurisdiction, related_name="api_integrations", verbose_name=_("cities")
    )
    scopes = models.JSONField(_("scopes"), default=list)
    # The first characters of the token, shown in lists so a token can be recognized.
    token_prefix = models.CharField(_("token starts with"), max_length=12, editable=False)
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(_("created at"))
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    revoked_reason = models.CharField(_("why it was revoked"), max_length=200, blank=True)

    # The digest stays out of the history: the history is read by more people.
    history = HistoricalRecords(excluded_fields=["token_hash"])

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self):
        return self.name

    def delete(self, *args, **kwargs):
        raise models.ProtectedError(_("An integration is revoked, never deleted."), [self])

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    # DRF treats the authenticated integration as the request's user.
    is_authenticated = True

    def has_scope(self, scope: str) -> bool:
        return scope in self.scopes

    def scope_labels(self) -> list[str]:
        return [str(Scope(s).label) for s in self.scopes if s in Scope.values]


class ApiCall(models.Model):
    """One call to the API. ``integration`` is empty when the token was missing or wrong."""

    integration = models.ForeignKey(
        Integration, null=True, blank=True, on_delete=models.PROTECT, related_name="calls"
    )
    method = models.CharField(max_length=8)
    path = models.CharField(max_length=300)
    query = models.CharField(max_length=1000, blank=True)
    status = models.PositiveSmallIntegerField()
    at = models.DateTimeField()
    ip = models.GenericIPAddressField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["integration", "-at"], name="apicall_integration_at_idx")]

    def __str__(self):
        return f"{self.method} {self.path} {self.status}"
