"""Revocation of a kennel license after notice and a hearing (KEN-08)."""

from datetime import date, datetime

from django.db import transaction
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from licensing.services.kennels.common import (
    DecidedBy,
    Outcome,
    decision_create,
    fresh_decisions,
    record_event,
    refused,
)
from ordinance.refusals import refusing
from ordinance.rules import rule_citation

REVOCATION_NOTICE = "Revocation notice and hearing"
REVOCATION_DECISION = "Revocation decision"


@refusing()
def kennel_revocation_notice(
    *,
    kennel,
    served_on: date,
    hearing_on: date,
    reasons: str,
    decided_by_name: str,
    decided_by_capacity: str,
    actor,
    now: datetime | None = None,
):
    """Notice of the alleged violation and of the hearing (Glencoe 701 Subd. 4(F)): of a
    license that may be revoked."""
    kennel.ensure("revoke")
    if hearing_on < served_on:
        raise refused(_("The hearing must come after the notice is served."), kennel, "KEN-08")
    reasons = _("Hearing on %(hearing)s. %(reasons)s") % {
        "hearing": date_format(hearing_on),
        "reasons": reasons,
    }
    decision = decision_create(
        kennel,
        REVOCATION_NOTICE,
        Outcome.REFERRED,
        DecidedBy(decided_by_name, decided_by_capacity, served_on, reasons),
        rule_citation(kennel.jurisdiction, "KEN-08"),
        actor,
    )
    record_event(
        "licensing.kennel.revocation_noticed",
        kennel,
        actor,
        "Revocation notice served",
        at=now,
        served_on=served_on.isoformat(),
        hearing_on=hearing_on.isoformat(),
    )
    return decision


@refusing()
def kennel_revocation_decide(
    *,
    kennel,
    revoke: bool,
    decided: DecidedBy,
    actor,
    now: datetime | None = None,
):
    """After notice and hearing the Council revokes or keeps the license (KEN-08)."""
    kennel.ensure("revoke")
    notice = next(
        (d for d in reversed(fresh_decisions(kennel)) if d.step == REVOCATION_NOTICE), None
    )
    if notice is None:
        raise refused(_("Revocation needs notice and a hearing first."), kennel, "KEN-08")
    if decided.on < notice.decided_on:
        raise refused(_("The decision cannot come before the notice."), kennel, "KEN-08")
    with transaction.atomic():
        decision_create(
            kennel,
            REVOCATION_DECISION,
            Outcome.DENIED if revoke else Outcome.APPROVED,
            decided,
            rule_citation(kennel.jurisdiction, "KEN-08"),
            actor,
        )
        if revoke:
            kennel.revoke(actor=actor, at=now)
        else:
            record_event(
                "licensing.kennel.revocation_decided",
                kennel,
                actor,
                "Revocation refused",
                at=now,
                revoked=False,
            )
    return kennel
