from base import nav
from base.roles import STAFF_ROLES

nav.register("Dangerous dogs", "dangerous_dogs:board", roles=STAFF_ROLES, order=65)
