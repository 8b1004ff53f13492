from django.utils.translation import gettext_lazy as _

from base import nav
from base.roles import OFFICER

# The officer's daily work; clerks and administrators reach it from the animal page and
# the staff home (a tenth entry wraps the header at desktop widths, see README).
nav.register(_("Rabies"), "rabies:dashboard", roles=(OFFICER,), order=62)
