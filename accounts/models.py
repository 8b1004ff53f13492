from functools import cached_property

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _

from base.roles import ADMINISTRATOR, ROLE_LABELS, STAFF_ROLES
from ordinance.models import Jurisdiction


class User(AbstractUser):
    """A person who logs in: staff serve one or more jurisdictions; residents own animals."""

    jurisdictions = models.ManyToManyField(
        Jurisdiction,
        blank=True,
        related_name="staff",
        verbose_name=_("jurisdictions served"),
        help_text=_("Staff see only the records of the cities they serve."),
    )
    title = models.CharField(
        _("title"),
        max_length=80,
        blank=True,
        help_text=_("Printed under the signature on documents."),
    )
    # When the authenticator app now in use was set up (None: two-step verification off).
    # Kept on the row every request loads anyway, so the second step costs no query: a
    # session passed it when it holds this same time (accounts.services), and a reset or
    # a new enrollment changes it, which ends the sessions verified before.
    second_factor_since = models.DateTimeField(null=True, blank=True, editable=False)

    @cached_property
    def roles(self) -> frozenset[str]:
        if not self.is_authenticated or not self.is_active:
            return frozenset()
        names = frozenset(g.name for g in self.groups.all())
        if self.is_superuser:
            names |= {ADMINISTRATOR}
        return names

    def has_role(self, *roles: str) -> bool:
        return bool(self.roles.intersection(roles))

    @property
    def is_staff_member(self) -> bool:
        return self.has_role(*STAFF_ROLES)

    @property
    def primary_role(self) -> str | None:
        for role in (ADMINISTRATOR, "clerk", "officer", "resident"):
            if role in self.roles:
                return role
        return None

    @property
    def role_label(self) -> str:
        return ROLE_LABELS.get(self.primary_role, "")

    @cached_property
    def served_list(self) -> list:
        """The cities this staff user serves, by name, read once per request (the page
        header lists them and every scoped query filters on their ids); [] for others."""
        if not self.is_staff_member:
            return []
        cities = Jurisdiction.objects.all() if self.is_superuser else self.jurisdictions.all()
        return list(cities.order_by("name"))

    @cached_property
    def jurisdiction_ids(self) -> frozenset[int]:
        """The jurisdictions whose records this user may see (none for residents)."""
        return frozenset(city.pk for city in self.served_list)

    def serves(self, jurisdiction_id: int) -> bool:
        return jurisdiction_id in self.jurisdiction_ids

    def served_jurisdictions(self):
        return Jurisdiction.objects.filter(pk__in=self.jurisdiction_ids)
