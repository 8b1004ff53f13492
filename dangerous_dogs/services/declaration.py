"""The two steps both paths share: a designation comes into force, and the owner's receipt
of the notice that the dog is dangerous starts the compliance clock.

- By default (Subd. 15(J), DD-09): the officer issues the declaration (C29) after the
  contest period ran out; no Council appeal (15(H) covers panel decisions only).
- By the panel (Subd. 15(D), DD-08): the written findings (C28); the **ruling date**
  starts the appeal clock (``dd_appeal_days``, DD-20).
- Either way the **owner's receipt** of the notice starts ``dd_compliance_days`` (DD-10),
  for a dangerous dog only: a potentially dangerous dog has no requirements while
  ``pdd_requirements`` is blank (DD-30, Appendix D G21).
"""

from datetime import date, datetime

from django.db import transaction
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from dangerous_dogs.models import CaseStatus, DeclaredBy, Designation, DesignationCase
from kernel.checks import refuse_if_future, refuse_unless_serves
from notices.models import IssuedDocument
from ordinance.models import Event
from ordinance.refusals import Refused, refusing

from .common import deadline


def declare(
    case: DesignationCase,
    *,
    designation: str,
    by: str,
    on: date,
    document: IssuedDocument | None,
    actor,
    at: datetime,
    citation: str,
) -> DesignationCase:
    """Put the designation in force: by default (``declare``) or on the panel's finding
    (``hold_hearing``), the two steps of the case's table that lead to DECLARED."""
    case.declared_designation = designation
    case.declared_by = by
    case.declared_on = on
    case.declaration = document
    fields = ["declared_designation", "declared_by", "declared_on", "declaration"]
    if by == DeclaredBy.PANEL:
        case.ruling_on = on
        case.appeal_deadline, case.appeal_citation = deadline(
            case.jurisdiction, "dd_appeal_days", on
        )
        fields += ["ruling_on", "appeal_deadline", "appeal_citation"]
    case.apply(
        "hold_hearing" if by == DeclaredBy.PANEL else "declare",
        to=CaseStatus.DECLARED,
        actor=actor,
        at=at,
        summary=_("Declared a %(designation)s on %(date)s (%(how)s)")
        % {
            "designation": Designation(designation).label.lower(),
            "date": on,
            "how": DeclaredBy(by).label,
        },
        citation=citation,
        data={"designation": designation, "by": by, "on": str(on)},
        fields=fields,
    )
    return case


@refusing()
@transaction.atomic
def declaration_received(
    *, case: DesignationCase, received_on: date, actor, at: datetime, today: date
) -> DesignationCase:
    """The owner received the declaration or the findings: the compliance clock starts
    for a dangerous dog (DD-10); recorded once."""
    refuse_unless_serves(actor, case.jurisdiction)
    refuse_if_future(received_on, _("Received on"), field="received_on", today=today)
    if case.status != CaseStatus.DECLARED:
        raise Refused.because(
            _("Dangerous-dog case"),
            _("Case %(n)s is %(status)s: there is no declaration in force to receive.")
            % {"n": case.number, "status": case.get_status_display().lower()},
        )
    if case.declaration_received_on is not None:
        raise Refused.because(
            _("Received on"),
            _("The owner's receipt was recorded already (%(date)s).")
            % {"date": date_format(case.declaration_received_on)},
            field="received_on",
        )
    if case.declared_on and received_on < case.declared_on:
        raise Refused.because(
            _("Received on"),
            _("The owner cannot have received it before it was issued (%(date)s).")
            % {"date": date_format(case.declared_on)},
            field="received_on",
        )
    case.declaration_received_on = received_on
    fields = ["declaration_received_on"]
    summary = _("Owner received the declaration on %(date)s") % {"date": date_format(received_on)}
    if case.declared_designation == Designation.DANGEROUS:
        case.compliance_deadline, case.compliance_citation = deadline(
            case.jurisdiction, "dd_compliance_days", received_on
        )
        fields += ["compliance_deadline", "compliance_citation"]
        summary += _("; comply by %(date)s (%(section)s)") % {
            "date": date_format(case.compliance_deadline),
            "section": case.compliance_citation,
        }
    case.save(update_fields=fields)
    Event.record(
        "dangerous_dogs.case.declaration_received",
        case,
        actor=actor,
        at=at,
        summary=summary,
        data={
            "received_on": str(received_on),
            "compliance_deadline": str(case.compliance_deadline or ""),
        },
    )
    return case
