"""What staff record after issue: paid, contested, dismissed, adjudicated (REC-14).

Each change is a named transition of ``Citation.TRANSITIONS`` (the case kernel), with
the date it happened and who recorded it; simple-history keeps the row's history and an
Event names the change. Nothing else on the citation changes.
"""

from datetime import date, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from citations.models import Citation
from kernel.checks import refuse_unless_serves
from ordinance.refusals import Refused


@transaction.atomic
def citation_status_change(
    *,
    citation: Citation,
    status: str,
    on: date,
    actor,
    note: str = "",
    now: datetime | None = None,
) -> Citation:
    """Move the citation to ``status`` as of ``on`` (the day it happened)."""
    now = now or timezone.now()
    citation = Citation.objects.select_for_update().get(pk=citation.pk)
    refuse_unless_serves(actor, citation.jurisdiction)
    name = citation.transition_to(status)
    if not name:
        raise Refused.because(
            _("Status"),
            _("%(record)s is %(s)s: it cannot become %(new)s.")
            % {
                "record": citation,
                "s": citation.get_status_display().lower(),
                "new": citation.status_label(status).lower(),
            },
            field="status",
        )
    if on > timezone.localdate(now) or on < timezone.localdate(citation.issued_at):
        raise Refused.because(
            _("Date"),
            _("Enter a date between the day the citation was issued and today."),
            field="on",
        )
    citation.status_changed_on = on
    citation.status_changed_by, citation.status_note = actor, note.strip()[:300]
    citation.apply(
        name,
        actor=actor,
        at=now,
        summary=_("Citation %(n)s: %(s)s on %(d)s")
        % {"n": citation.number, "s": citation.status_label(status), "d": date_format(on)},
        data={"status": status, "on": str(on), "note": citation.status_note},
        fields=["status_changed_on", "status_changed_by", "status_note"],
    )
    return citation
