"""The checks every service makes before it acts, written once.

Each raises ``Refused`` with the line the person reads, next to the field it concerns.
"""

from datetime import date, datetime

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


def refuse_if_future(
    value: date | datetime | None,
    label,
    *,
    field: str = "",
    message=None,
    citation: str = "",
    today: date | None = None,
    now: datetime | None = None,
) -> None:
    """Something that happened cannot lie ahead: a date after today, or a moment after
    now (a time later today is in the future too). ``message`` says it of the thing
    ("The bite cannot be in the future."); the default speaks of a date."""
    if value is None:
        return
    if isinstance(value, datetime):
        ahead = value > (now or timezone.now())
    else:
        ahead = value > (today or (timezone.localdate(now) if now else timezone.localdate()))
    if ahead:
        raise Refused.because(
            label, message or _("The date cannot be in the future."), citation, field=field
        )


def refuse_if_before(value: date | None, earliest: date, label, what, *, field: str = ""):
    """A date cannot come before the event it follows (``what``: "the bite")."""
    if value is not None and value < earliest:
        raise Refused.because(
            label,
            _("The date cannot be before %(what)s (%(d)s).")
            % {"what": what, "d": date_format(earliest)},
            field=field,
        )
