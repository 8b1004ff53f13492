from base import nav
from base.roles import ADMINISTRATOR, CLERK, OFFICER, RESIDENT

STAFF = (CLERK, OFFICER, ADMINISTRATOR)
COUNTER = (CLERK, ADMINISTRATOR)

nav.register("Find owner or animal", "licensing:search", roles=STAFF, order=10)
nav.register("Issue a license", "licensing:counter_start", roles=COUNTER, order=20)
# The clerk's queue of what residents sent online: applications, reported changes and
# card payments (issue 12), one entry with tabs.
nav.register("Online", "online:review_list", roles=COUNTER, order=25)
nav.register("Tag lookup", "licensing:tag_lookup", roles=STAFF, order=30)
nav.register("Kennel licenses", "licensing:kennel_list", roles=COUNTER, order=40)
nav.register("Tag stock", "licensing:tag_stock", roles=COUNTER, order=45)
nav.register("Reports", "licensing:reports", roles=COUNTER, order=50)
nav.register("Close out the day", "licensing:closeout_list", roles=STAFF, order=55)
nav.register("My animals", "licensing:portal_home", roles=(RESIDENT,), order=10)
