from django.utils.translation import gettext_lazy as _

from base import nav
from base.roles import STAFF_ROLES
from permits.services.common import serves_a_permit_city

# Glencoe's staff only: North Branch's ordinance has no such permits (rules.md 7 and 8).
nav.register(_("Permits"), "permits:list", roles=STAFF_ROLES, order=62, when=serves_a_permit_city)


def _serves_a_register_city(user) -> bool:
    from permits.services.register import has_register

    return any(has_register(c) for c in user.served_list)


# The register of what premises may keep (REC-17): Glencoe's staff only.
nav.register(
    _("Premises register"),
    "permits:register",
    roles=STAFF_ROLES,
    order=63,
    when=_serves_a_register_city,
)
