from django.utils.translation import gettext_lazy as _

from base import nav
from base.roles import ADMINISTRATOR

nav.register(_("API integrations"), "integrations:list", roles=(ADMINISTRATOR,), order=91)
