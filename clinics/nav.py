from django.utils.translation import gettext_lazy as _

from base import nav
from base.roles import ADMINISTRATOR, CLERK, VETERINARIAN
from licensing.nav import serves_a_licensing_city

nav.register(_("Rabies certificates"), "clinics:home", roles=(VETERINARIAN,), order=5)
# Licenses sold at the clinic: the clinic sells; the city's tag stock
# keepers issue its tags, where the city issues dog licenses at all.
nav.register(_("Sell a license"), "clinics:sale_list", roles=(VETERINARIAN,), order=6)
nav.register(_("Clinic certificates"), "clinics:queue", roles=(CLERK, ADMINISTRATOR), order=64)
nav.register(
    _("Tags at clinics"),
    "clinics:consignment_list",
    roles=(CLERK, ADMINISTRATOR),
    order=65,
    when=serves_a_licensing_city,
)
nav.register(_("Clinics"), "clinics:clinic_list", roles=(ADMINISTRATOR,), order=90)
# Where a city the user serves licenses animals (the menu's own test).
nav.register(
    _("Vaccinated, not licensed"),
    "clinics:unlicensed",
    roles=(CLERK, ADMINISTRATOR),
    order=65,
    when=serves_a_licensing_city,
)
