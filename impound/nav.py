from django.utils.translation import gettext_lazy as _

from base import nav
from base.roles import RESIDENT, STAFF_ROLES

nav.register(_("Impound"), "impound:board", roles=STAFF_ROLES, order=60)
# Lost-pet reports: the resident's own, the city's staff list.
nav.register(_("Lost pets"), "impound:lost_report_list", roles=(RESIDENT,), order=20)
nav.register(_("Lost reports"), "impound:lost_reports", roles=STAFF_ROLES, order=61)
