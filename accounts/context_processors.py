from django.conf import settings
from django.utils.translation import gettext_lazy as _

from base import nav
from ordinance.models import Jurisdiction


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
        "nav_items": nav.items_for(user) if user.is_authenticated else [],
    }
