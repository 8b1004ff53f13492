"""The Review Panel's written findings reach the officer, the police and the owner
(Glencoe 701 Subd. 15(D); DD-08): three copies, each a ``ServiceRecord``. The owner's
receipt of a dangerous finding starts the compliance clock (DD-10).
"""

from datetime import date, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from dangerous_dogs.models import CaseStatus, PanelHearing
from kernel.checks import refuse_if_future, refuse_unless_serves
from notices.models import ServiceRecord
from ordinance.models import Event
from ordinance.refusals import Check, Refused, refusing

from . import declaration
from .common import gathered, service_record
from .hearing import findings_citation
from .panel import DISTRIBUTION_METHODS, RECIPIENTS


def distribution(hearing: PanelHearing) -> list[ServiceRecord]:
    if hearing.findings_id is None:
        return []
    return list(ServiceRecord.objects.filter(document_id=hearing.findings_id))


@refusing()
@transaction.atomic
def findings_distribute(
    *,
    hearing: PanelHearing,
    served: dict,
    actor,
    owner_received_on: date | None = None,
    now: datetime | None = None,
) -> list[ServiceRecord]:
    """Record the copies of the findings to the officer, the police and the owner
    (Subd. 15(D)): ``served`` maps each recipient to {method, served_at, served_to}.
    The owner's receipt starts the compliance clock of a dangerous dog (DD-10)."""
    now = now or timezone.now()
    hearing = PanelHearing.objects.select_related(
        "case__jurisdiction", "case__owner", "findings"
    ).get(pk=hearing.pk)
    case = hearing.case
    citation = findings_citation(case.jurisdiction)
    refuse_unless_serves(actor, case.jurisdiction)
    if hearing.findings is None:
        raise Refused.because(_("Findings"), _("The hearing is not recorded yet."), citation)
    if ServiceRecord.objects.filter(document=hearing.findings).exists():
        raise Refused.because(_("Findings"), _("The distribution is recorded already."), citation)
    errors = _distribution_errors(hearing, served, now, citation)
    with gathered(errors):
        refuse_if_future(
            owner_received_on,
            _("Received on"),
            field="owner_received_on",
            today=timezone.localdate(now),
        )
    if errors:
        raise Refused(errors)
    records = _copies(case, hearing, served, owner_received_on, actor)
    Event.record(
        "dangerous_dogs.findings.distributed",
        case,
        actor=actor,
        at=now,
        summary=_(
            "Findings delivered to the animal control officer, the police and the owner (%(c)s)"
        )
        % {"c": citation},
        data={"service_records": [r.pk for r in records]},
    )
    if owner_received_on is not None:
        _owner_received(case, records[-1], owner_received_on, actor, now)
    return records


def _distribution_errors(hearing, served: dict, now: datetime, citation: str) -> list[Check]:
    """Each copy's method and time, next to its fields."""
    errors = []
    for key, label in RECIPIENTS.items():
        copy = served.get(key) or {}

        def wrong(message, field, key=key, label=label):
            return Check(str(label), "fail", str(message), citation, f"{key}_{field}")

        if copy.get("method") not in DISTRIBUTION_METHODS:
            errors.append(wrong(_("Say how the copy was delivered."), "method"))
        at = copy.get("served_at")
        if at is None:
            errors.append(wrong(_("Enter when it was delivered."), "served_at"))
        elif at > now or at < hearing.findings.issued_at:
            message = _("It is delivered after the findings were issued and not in the future.")
            errors.append(wrong(message, "served_at"))
    return errors


def _copies(case, hearing, served: dict, owner_received_on, actor) -> list[ServiceRecord]:
    """One service record per copy; the owner's last (``findings_received`` reads it)."""
    owner = case.owner
    default_to = {
        "officer": case.investigated_by_name,
        "police": str(RECIPIENTS["police"]),
        "owner": f"{owner.name}, {owner.address}",
    }
    return [
        service_record(
            case,
            document=hearing.findings,
            method=served[key]["method"],
            served_at=served[key]["served_at"],
            served_to=(served[key].get("served_to") or "").strip() or default_to[key],
            received_on=owner_received_on if key == "owner" else None,
            actor=actor,
            result=str(label),
        )
        for key, label in RECIPIENTS.items()
    ]


def _owner_received(case, record, received_on, actor, now):
    if received_on < timezone.localdate(record.served_at):
        raise Refused.because(
            _("Received on"),
            _("The owner cannot have received it before it was delivered."),
            field="owner_received_on",
        )
    record.received_on = received_on
    record.save(update_fields=["received_on"])
    if case.status == CaseStatus.DECLARED:
        declaration.declaration_received(
            case=case, received_on=received_on, actor=actor, at=now, today=timezone.localdate(now)
        )


@refusing()
@transaction.atomic
def findings_received(
    *, hearing: PanelHearing, received_on: date, actor, now: datetime | None = None
) -> ServiceRecord:
    """The owner's receipt of the findings, recorded after their delivery."""
    now = now or timezone.now()
    hearing = PanelHearing.objects.select_related("case__jurisdiction").get(pk=hearing.pk)
    case = hearing.case
    refuse_unless_serves(actor, case.jurisdiction)
    refuse_if_future(
        received_on, _("Received on"), field="owner_received_on", today=timezone.localdate(now)
    )
    # The owner's copy is the last of the three (findings_distribute records it last).
    record = ServiceRecord.objects.filter(document_id=hearing.findings_id).order_by("pk").last()
    if record is None:
        raise Refused.because(
            _("Findings"),
            _("Record the delivery of the findings first."),
            field="owner_received_on",
        )
    if record.received_on is not None:
        raise Refused.because(
            _("Received on"),
            _("The owner's receipt was recorded already (%(date)s).")
            % {"date": date_format(record.received_on)},
            field="owner_received_on",
        )
    _owner_received(case, record, received_on, actor, now)
    return record
