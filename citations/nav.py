from django.utils.translation import gettext_lazy as _

from base import nav
from base.roles import STAFF_ROLES

nav.register(_("Citations"), "citations:list", roles=STAFF_ROLES, order=67)
