from django.conf import settings
from django.core.cache import cache
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from base import nav
from ordinance.models import Jurisdiction
from ordinance.rules import rules_version


def site(request):
    """The city name for the header, and the navigation for the user's roles.

    With one jurisdiction in the installation its name is the site's name and nothing
    mentions other cities; a user serving several sees them listed.
    """
    user = request.user
    if user.is_authenticated and user.is_staff_member:
        cities = list(user.served_list)
    else:
        cities = list(Jurisdiction.objects.all()[:2])
    multi = len(cities) > 1 or (
        user.is_authenticated and user.is_staff_member and user.installation_is_multi_city
    )
    if len(cities) == 1:
        site_name = cities[0].name
    else:
        site_name = settings.SITE_NAME or _("Animal Control")
    return {
        "site_name": site_name,
        "site_cities": cities,
        "multi_jurisdiction": multi,
        # Worked out only when a page shows it (not a partial page of htmx), and then
        # from the menu kept for the same roles and cities.
        "nav_items": SimpleLazyObject(lambda: nav_items(user)) if user.is_authenticated else [],
    }


# The menu depends on the user's roles and cities, on the cities' rules in force today
# (does a city issue dog licenses) and on the language: the same for every clerk of a
# city, and worked out with a dozen rule lookups and translations. It is kept in Django's
# cache under all of them, the rules' version included, so an amendment shows at once.
MENU_CACHE_SECONDS = 300


def nav_items(user) -> list[tuple[str, str, str]]:
    key = ":".join(
        [
            "accounts:menu",
            ",".join(sorted(user.roles)),
            str(int(user.is_superuser)),
            ",".join(str(pk) for pk in sorted(user.jurisdiction_ids)),
            timezone.localdate().isoformat(),
            get_language() or "",
            str(rules_version()),
        ]
    )
    found = cache.get(key)
    if found is None:
        found = [(str(label), url, name) for label, url, name in nav.items_for(user)]
        cache.set(key, found, timeout=MENU_CACHE_SECONDS)
    return found
