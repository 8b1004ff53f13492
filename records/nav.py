from django.utils.translation import gettext_lazy as _

from base import nav
from base.roles import ADMINISTRATOR

nav.register(_("Data export"), "records:export_list", roles=(ADMINISTRATOR,), order=95)
nav.register(_("Data import"), "records:import_list", roles=(ADMINISTRATOR,), order=94)
