"""The kennel license document (REC-17, KEN-07): frozen data, then the PDF."""

from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext as _

from licensing.models import KennelStatus
from licensing.services.kennels.applications import review_steps
from licensing.services.kennels.common import fresh_decisions, require_status
from licensing.services.kennels.terms import kennel_term_warning
from ordinance.refusals import refusing


@refusing()
def kennel_document_issue(*, kennel, actor, now: datetime):
    """The kennel license PDF with its conditions (REC-17, KEN-07), archived as issued."""
    from notices.services import document_issue

    require_status(kennel, KennelStatus.ACTIVE)
    on = timezone.localdate(now)
    context = {
        "number": kennel.number,
        "owner_name": kennel.owner.name,
        "owner_address": kennel.owner.address,
        "premises": kennel.premises.address,
        "business_nature": kennel.business_nature,
        "dog_count": kennel.dog_count,
        "cat_count": kennel.cat_count,
        "cup_reference": kennel.cup_reference,
        "conditions": [c for c in kennel.conditions.splitlines() if c.strip()],
        "issued_on": kennel.issued_on,
        "expires_on": kennel.expires_on,
        "term_warning": kennel_term_warning(kennel, on=on),
        "decisions": [
            {
                "step": d.step,
                "outcome": d.get_outcome_display(),
                "by": d.decided_by_name,
                "capacity": d.decided_by_capacity,
                "on": d.decided_on,
                "citation": d.citation,
            }
            for d in fresh_decisions(kennel)
        ],
        "animals": [
            {
                "name": m.animal.name,
                "species": m.animal.get_species_display(),
                "breed": m.animal.breed,
            }
            for m in kennel.kennel_animals.select_related("animal")
            if m.removed_on is None
        ],
        "citation": review_steps(kennel, on=on).citation,
    }
    return document_issue(
        kind="kennel_license",
        template="kennel_license.html",
        context=context,
        jurisdiction=kennel.jurisdiction,
        actor=actor,
        title=_("Kennel license"),
        number=kennel.number,
        subject=kennel,
        owner_user=kennel.owner.user if kennel.owner.user_id else None,
        now=now,
    )
