from django.utils.translation import gettext_lazy as _

from base import nav
from base.roles import ADMINISTRATOR, CLERK, VETERINARIAN

nav.register(_("Rabies certificates"), "clinics:home", roles=(VETERINARIAN,), order=5)
nav.register(_("Clinic certificates"), "clinics:queue", roles=(CLERK, ADMINISTRATOR), order=64)
nav.register(_("Clinics"), "clinics:clinic_list", roles=(ADMINISTRATOR,), order=90)
