"""The checks every service makes before it acts, written once.

Each raises ``Refused`` with the line the person reads, next to the field it concerns.
"""

from datetime import date

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l

from ordinance.refusals import Refused

CITY = _l("City")


def refuse_unless_serves(user, jurisdiction) -> None:
    """Staff act only for the cities they serve."""
    city_id = getattr(jurisdiction, "pk", jurisdiction)
    if user is None or not user.serves(city_id):
        raise Refused.because(CITY, _("You do not serve %(city)s.") % {"city": jurisdiction})


def refuse_if_future(value: date | None, label, *, field: str = "", today: date | None = None):
    """A date of something that happened cannot lie ahead of today."""
    if value is not None and value > (today or timezone.localdate()):
        raise Refused.because(label, _("The date cannot be in the future."), field=field)


def refuse_if_before(value: date | None, earliest: date, label, what, *, field: str = ""):
    """A date cannot come before the event it follows (``what``: "the bite")."""
    if value is not None and value < earliest:
        raise Refused.because(
            label,
            _("The date cannot be before %(what)s (%(d)s).")
            % {"what": what, "d": date_format(earliest)},
            field=field,
        )
