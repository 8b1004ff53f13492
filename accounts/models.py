from functools import cached_property

from django.contrib.auth.models import AbstractUser
from django.core.cache import cache
from django.db import connection, models
from django.db.models.expressions import RawSQL
from django.utils.translation import gettext_lazy as _

from base.roles import ADMINISTRATOR, ROLE_LABELS, STAFF_ROLES
from ordinance.models import Jurisdiction

# Every page asks the user's roles (the menu, each view's role check) and the cities
# they serve (every scoped query): both are kept in Django's cache under a version that
# any change of group membership, of the cities served, of a group or of a city moves on
# (accounts.apps), so a page costs no query for them. With the shared
# Redis cache of production a change shows at once; with the per-process default cache
# another process may answer from its copy for at most ACCESS_CACHE_SECONDS.
ACCESS_CACHE_SECONDS = 60
_ACCESS_VERSION_KEY = "accounts:access-version"


def access_version_bump(**_signal) -> None:
    try:
        cache.incr(_ACCESS_VERSION_KEY)
    except ValueError:  # not set yet, or evicted
        cache.set(_ACCESS_VERSION_KEY, 2, timeout=None)


def _forget_users(pks) -> None:
    version = cache.get_or_set(_ACCESS_VERSION_KEY, 1, timeout=None)
    keys = []
    for pk in pks:
        keys.append(f"accounts:row:{pk}:{version}")
        for what in ("roles", "served"):
            keys += [f"accounts:{what}:{pk}:{flag}:{version}" for flag in (0, 1)]
    cache.delete_many(keys)


def forget_user(sender, instance, **_signal) -> None:
    """A saved or deleted user: their own cached row, roles and cities are read afresh
    (a deactivation, a new password, a login), nobody else's."""
    _forget_users([instance.pk])


def forget_membership(sender, instance, action, reverse, pk_set, **_signal) -> None:
    """Groups or cities of users changed: those users' roles and cities are read afresh."""
    if not action.startswith("post_"):
        return
    if not reverse:
        _forget_users([instance.pk])
    elif pk_set:
        _forget_users(pk_set)
    else:  # a group or a city cleared of all its users
        access_version_bump()


def cached_for_user_pk(user_key, what: str, read):
    """``read()``, kept under the access version (None is not kept)."""
    version = cache.get_or_set(_ACCESS_VERSION_KEY, 1, timeout=None)
    key = f"accounts:{what}:{user_key}:{version}"
    value = cache.get(key)
    if value is None:
        value = read()
        if value is not None:
            cache.set(key, value, timeout=ACCESS_CACHE_SECONDS)
    return value


def _cached_for_user(user, what: str, read):
    return cached_for_user_pk(f"{user.pk}:{int(user.is_superuser)}", what, read)


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
        names = _cached_for_user(
            self, "roles", lambda: frozenset(self.groups.values_list("name", flat=True))
        )
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
        for role in (ADMINISTRATOR, "clerk", "officer", "resident", "veterinarian"):
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
        return _cached_for_user(self, "served", self._read_served)

    def _read_served(self) -> list:
        cities = Jurisdiction.objects.all() if self.is_superuser else self.jurisdictions.all()
        # How many cities the installation has rides along (the header names the city
        # only where there are others), so the page asks no second query for it.
        table = connection.ops.quote_name(Jurisdiction._meta.db_table)
        size = RawSQL(f"SELECT COUNT(*) FROM {table}", [])  # noqa: S611 (no user input)
        return list(cities.annotate(installation_size=size).order_by("name"))

    @property
    def installation_is_multi_city(self) -> bool:
        """More than one city in the installation, for a staff member (else False)."""
        return bool(self.served_list) and self.served_list[0].installation_size > 1

    @cached_property
    def jurisdiction_ids(self) -> frozenset[int]:
        """The jurisdictions whose records this user may see (none for residents)."""
        return frozenset(city.pk for city in self.served_list)

    def serves(self, jurisdiction_id: int) -> bool:
        return jurisdiction_id in self.jurisdiction_ids

    def served_jurisdictions(self):
        return Jurisdiction.objects.filter(pk__in=self.jurisdiction_ids)
