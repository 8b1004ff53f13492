from base import nav
from base.roles import STAFF_ROLES

nav.register("Bites and rabies", "rabies:dashboard", roles=STAFF_ROLES, order=62)
