from base import nav
from base.roles import STAFF_ROLES

nav.register("Impound", "impound:board", roles=STAFF_ROLES, order=60)
