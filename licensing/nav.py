from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from base import nav
from base.roles import ADMINISTRATOR, CLERK, OFFICER, RESIDENT

STAFF = (CLERK, OFFICER, ADMINISTRATOR)
COUNTER = (CLERK, ADMINISTRATOR)


def serves_a_licensing_city(user) -> bool:
    """Dog licenses, their tags and online renewals are offered only to staff of a city
    that issues them (Glencoe deleted its licensing section)."""
    from licensing.services.assessment import issues_dog_licenses

    today = timezone.localdate()
    return any(issues_dog_licenses(city, on=today) for city in user.served_list)


nav.register(_("Find owner or animal"), "licensing:search", roles=STAFF, order=10)
nav.register(
    _("Issue a license"),
    "licensing:counter_start",
    roles=COUNTER,
    order=20,
    when=serves_a_licensing_city,
)
# The clerk's queue of what residents sent online: applications, reported changes and
# card payments, one entry with tabs.
nav.register(
    _("Online"), "online:review_list", roles=COUNTER, order=25, when=serves_a_licensing_city
)
nav.register(
    _("Tag lookup"), "licensing:tag_lookup", roles=STAFF, order=30, when=serves_a_licensing_city
)
nav.register(_("Kennel licenses"), "licensing:kennel_list", roles=COUNTER, order=40)
nav.register(
    _("Tag stock"), "licensing:tag_stock", roles=COUNTER, order=45, when=serves_a_licensing_city
)
nav.register(_("Reports"), "licensing:reports", roles=COUNTER, order=50)
nav.register(_("Close out the day"), "licensing:closeout_list", roles=STAFF, order=55)
nav.register(_("My animals"), "licensing:portal_home", roles=(RESIDENT,), order=10)
