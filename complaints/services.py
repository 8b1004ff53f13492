"""Complaint use cases: intake, facts, entries onto premises, the outcome.

Views call one of these; each checks the actor's city, refuses with ``Refused`` (each
check next to its field, with its section) and records an ``ordinance.Event``. The
outcome is one function, ``record_outcome``, so that the citations app can link its
citation to the complaint in one place.
"""

from dataclasses import dataclass
from dataclasses import fields as dataclass_fields
from datetime import date, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from impound.models import Pound
from impound.services.intake import case_intake
from kernel.checks import refuse_if_future, refuse_unless_serves
from licensing.models import Animal, Owner, Premises
from licensing.services.owner_merge import normalize
from ordinance.models import Event, Jurisdiction
from ordinance.refusals import Refused, refusing
from ordinance.rules import rule_in_force, rules_in_force

from .models import (
    AT_LARGE_KINDS,
    BarkingFacts,
    CareFacts,
    Channel,
    Complaint,
    Entry,
    Kind,
    LitterFacts,
    Outcome,
    RestraintFacts,
)


def address_key(address_line: str, unit: str = "") -> str:
    """The normalized address repeat complaints match on ("12 N. Elm Street" and
    "12 north elm st" are one address)."""
    return normalize(f"{address_line} {unit}")


def premises_at(jurisdiction: Jurisdiction, key: str) -> Premises | None:
    """The registry's premises at a normalized address, if any (house number first,
    compared exactly in Python, as the owner-duplicate search does)."""
    if not key:
        return None
    house = key.split()[0]
    for premises in Premises.objects.filter(
        jurisdiction=jurisdiction, address_line__istartswith=house
    ):
        if address_key(premises.address_line, premises.unit) == key:
            return premises
    return None


@dataclass(frozen=True)
class ComplaintReport:
    """The complaint as reported: what, where, when, by whom, about which animal."""

    kind: str
    channel: str
    address_line: str
    occurred_at: datetime
    received_at: datetime
    narrative: str
    unit: str = ""
    location_note: str = ""
    anonymous: bool = False
    complainant_name: str = ""
    complainant_phone: str = ""
    complainant_address: str = ""
    animal: Animal | None = None
    owner: Owner | None = None
    animal_description: str = ""
    follow_up_on: date | None = None

    def columns(self) -> dict:
        """The complaint's columns as reported: spaces tidied, an anonymous
        complainant's details left out, a known animal's owner where none was named."""
        found = {f.name: getattr(self, f.name) for f in dataclass_fields(self)}
        found["address_line"] = " ".join(self.address_line.split())
        found["unit"] = " ".join(self.unit.split())
        if self.animal is not None and self.owner is None:
            found["owner"] = self.animal.owner
        if self.anonymous:
            found.update(complainant_name="", complainant_phone="", complainant_address="")
        return found


def _check_complainant(report: ComplaintReport):
    if report.anonymous:
        return
    missing = []
    if not report.complainant_name.strip():
        missing.append(("complainant_name", _("Name the complainant, or tick anonymous.")))
    if not report.complainant_phone.strip() and not report.complainant_address.strip():
        missing.append(
            ("complainant_phone", _("Give the complainant's phone or address, or tick anonymous."))
        )
    if missing:
        raise Refused(
            [Refused.because(_("Complainant"), msg, field=f).reasons[0] for f, msg in missing]
        )


def _check_times(occurred_at, received_at, now):
    refuse_if_future(
        received_at,
        _("Received at"),
        message=_("The time received cannot be in the future."),
        field="received_at",
        now=now,
    )
    if occurred_at > received_at:
        raise Refused.because(
            _("Happened at"),
            _("It cannot have happened after the complaint was received."),
            field="occurred_at",
        )


def _check_registry(jurisdiction, animal, owner):
    for record, field in ((animal, "animal"), (owner, "owner")):
        if record is not None and record.jurisdiction_id != jurisdiction.pk:
            raise Refused.because(
                _("Registry"), _("That record belongs to another city."), field=field
            )
    if animal is not None and owner is not None and animal.owner_id != owner.pk:
        raise Refused.because(
            _("Owner"), _("That animal is registered to another owner."), field="owner"
        )


@refusing()
@transaction.atomic
def complaint_intake(
    *, jurisdiction: Jurisdiction, actor, now: datetime | None = None, **report
) -> Complaint:
    """Record a complaint (``report``: the fields of ``ComplaintReport``); the address is
    matched to the registry's premises."""
    now = now or timezone.now()
    report = ComplaintReport(**report)
    refuse_unless_serves(actor, jurisdiction)
    _check_complainant(report)
    _check_times(report.occurred_at, report.received_at, now)
    _check_registry(jurisdiction, report.animal, report.owner)
    key = address_key(report.address_line, report.unit)
    if not key:
        raise Refused.because(_("Address"), _("Give the address."), field="address_line")
    complaint = Complaint(
        jurisdiction=jurisdiction,
        address_key=key,
        premises=premises_at(jurisdiction, key),
        taken_by=actor,
        **report.columns(),
    )
    complaint._history_user = actor
    complaint.save()
    Event.record(
        "complaints.complaint.received",
        complaint,
        actor=actor,
        at=now,
        summary=str(complaint),
        data={"kind": report.kind, "channel": report.channel, "address_key": key},
    )
    return complaint


def earlier_at_address(complaint_or_city, key: str | None = None, *, exclude_pk=None):
    """Complaints at the same normalized address in the same city, newest first."""
    if isinstance(complaint_or_city, Complaint):
        city_id, key = complaint_or_city.jurisdiction_id, complaint_or_city.address_key
        exclude_pk = complaint_or_city.pk
    else:
        city_id = complaint_or_city.pk
    if not key:
        return Complaint.objects.none()
    found = Complaint.objects.filter(jurisdiction_id=city_id, address_key=key)
    if exclude_pk is not None:
        found = found.exclude(pk=exclude_pk)
    return found.order_by("-occurred_at", "-pk")


def repeat_addresses(user, address_line: str, unit: str = ""):
    """At intake: earlier complaints at this address in the user's cities."""
    key = address_key(address_line, unit)
    if not key:
        return Complaint.objects.none()
    return (
        Complaint.objects.for_user(user)
        .filter(address_key=key)
        .select_related("jurisdiction")
        .order_by("-occurred_at", "-pk")
    )


# --- Facts -----------------------------------------------------------------------------


def _check_open(complaint, actor):
    """Facts, entries and contact attempts are recorded while the complaint is open."""
    refuse_unless_serves(actor, complaint.jurisdiction)
    if not complaint.is_open:
        raise Refused.because(_("Complaint"), _("The complaint is closed."))


FACT_MODELS = {
    "restraint_facts": RestraintFacts,
    "barking_facts": BarkingFacts,
    "litter_facts": LitterFacts,
    "care_facts": CareFacts,
}
# Which facts each kind of complaint records (RES-01..05, RES-09).
TOPICS = {
    Kind.RUNNING_AT_LARGE: "restraint_facts",
    Kind.RESTRAINT: "restraint_facts",
    Kind.BARKING: "barking_facts",
    Kind.LITTER: "litter_facts",
    Kind.CRUELTY: "care_facts",
}


@refusing()
@transaction.atomic
def facts_record(*, complaint: Complaint, actor, topic: str, now=None, **fields):
    """Record (or correct) one set of facts; history keeps the earlier version."""
    now = now or timezone.now()
    _check_open(complaint, actor)
    if TOPICS.get(complaint.kind) != topic:
        raise Refused.because(
            _("Facts"),
            _("A %(kind)s complaint does not record these facts.")
            % {"kind": complaint.get_kind_display().lower()},
        )
    model = FACT_MODELS[topic]
    if topic == "barking_facts" and fields["ended_at"] <= fields["started_at"]:
        raise Refused.because(
            _("Barking ended"), _("The end must be after the start."), field="ended_at"
        )
    facts = model.objects.filter(complaint=complaint).first() or model(complaint=complaint)
    for name, value in fields.items():
        setattr(facts, name, value)
    facts.recorded_by, facts.recorded_at = actor, now
    facts._history_user = actor
    facts.save()
    Event.record(
        f"complaints.{topic}.recorded",
        complaint,
        actor=actor,
        at=now,
        summary=_("Facts recorded: %(topic)s") % {"topic": model._meta.verbose_name},
        data={k: str(v) for k, v in fields.items()},
    )
    return facts


# --- Entry and inspection (RES-14) ------------------------------------------------------


@dataclass(frozen=True)
class EntryBasis:
    code: str
    label: str
    citation: str

    def __str__(self):
        return f"{self.label} ({self.citation})"


def entry_bases(jurisdiction: Jurisdiction, *, on: date) -> list[EntryBasis]:
    """The legal bases the city's ordinance gives for entering premises, each cited."""
    rule = rule_in_force(jurisdiction, "entry_bases", on=on, optional=True)
    if rule is None:
        return []
    labels = rules_in_force(jurisdiction, [f"entry_basis_{code}" for code in rule.value], on=on)
    return [
        EntryBasis(
            code, labels[f"entry_basis_{code}"].value, labels[f"entry_basis_{code}"].citation
        )
        for code in rule.value
    ]


@refusing()
@transaction.atomic
def entry_record(
    *, complaint: Complaint, actor, basis: str, entered_at: datetime, findings: str, now=None
) -> Entry:
    now = now or timezone.now()
    _check_open(complaint, actor)
    bases = {b.code: b for b in entry_bases(complaint.jurisdiction, on=timezone.localdate(now))}
    chosen = bases.get(basis)
    if chosen is None:
        raise Refused.because(
            _("Legal basis"),
            _("%(city)s's ordinance gives no such basis for entry.")
            % {"city": complaint.jurisdiction},
            field="basis",
        )
    refuse_if_future(
        entered_at,
        _("Entered at"),
        message=_("The time of entry cannot be in the future."),
        field="entered_at",
        now=now,
    )
    entry = Entry(
        complaint=complaint,
        entered_at=entered_at,
        officer=actor,
        basis=chosen.code,
        basis_label=chosen.label,
        basis_citation=chosen.citation,
        findings=findings,
        recorded_at=now,
    )
    entry._history_user = actor
    entry.save()
    Event.record(
        "complaints.entry.recorded",
        complaint,
        actor=actor,
        at=now,
        summary=_("Entry: %(basis)s") % {"basis": chosen},
        data={"entry": entry.pk, "basis": chosen.code, "citation": chosen.citation},
    )
    return entry


# --- Outcome (RES-04) -------------------------------------------------------------------


@dataclass(frozen=True)
class OutcomeRule:
    """What the city's ordinance says about an outcome other than impoundment for a dog
    at large: ``reason_required`` where it says the dog "shall be placed" in the pound."""

    reason_required: bool
    message: str
    citation: str


def outcome_rule(complaint: Complaint, *, on: date) -> OutcomeRule | None:
    """RES-04 for this complaint: None where it is not an at-large complaint or the
    city's ordinance says nothing of it."""
    if complaint.kind not in AT_LARGE_KINDS:
        return None
    city = complaint.jurisdiction
    required = rule_in_force(city, "at_large_impound_required", on=on, optional=True)
    if required is not None and required.value:
        return OutcomeRule(
            True,
            _("%(label)s: an outcome other than impoundment needs a recorded reason.")
            % {"label": required.label},
            required.citation,
        )
    cite = rule_in_force(city, "at_large_citation_instead_of_impound", on=on, optional=True)
    if cite is not None and cite.value:
        return OutcomeRule(False, cite.label, cite.citation)
    return None


@refusing()
@transaction.atomic
def record_outcome(
    *,
    complaint: Complaint,
    actor,
    outcome: str,
    reason: str = "",
    now: datetime | None = None,
    pound: Pound | None = None,
    ground: str = "",
) -> Complaint:
    """The officer's outcome: none, warning, citation or impoundment (RES-04).

    Impoundment opens the impound case through impound's intake service with the
    complaint's facts and links it here. A citation is recorded on the complaint; the
    citations app links its citation record to the complaint.
    """
    now = now or timezone.now()
    _check_open(complaint, actor)
    if outcome not in Outcome.values:
        raise Refused.because(_("Outcome"), _("Choose an outcome."), field="outcome")
    rule = outcome_rule(complaint, on=timezone.localdate(now))
    if (
        rule is not None
        and rule.reason_required
        and outcome != Outcome.IMPOUNDMENT
        and not reason.strip()
    ):
        raise Refused.because(_("Reason"), rule.message, rule.citation, field="reason")
    case = None
    if outcome == Outcome.IMPOUNDMENT:
        case = _open_impound_case(complaint, actor, now, pound=pound, ground=ground)
    complaint.outcome = outcome
    complaint.outcome_reason = reason.strip()
    complaint.outcome_citation = rule.citation if rule else ""
    complaint.outcome_at, complaint.outcome_by = now, actor
    complaint.impound_case = case
    complaint.closed_on = timezone.localdate(now)
    complaint._history_user = actor
    complaint.apply(
        "close",
        actor=actor,
        at=now,
        summary=_("Outcome: %(outcome)s") % {"outcome": complaint.get_outcome_display()},
        data={"outcome": outcome, "reason": reason, "impound_case": case.pk if case else None},
        fields=OUTCOME_FIELDS,
    )
    return complaint


# What the outcome sets on the complaint beside its status.
OUTCOME_FIELDS = (
    "outcome",
    "outcome_reason",
    "outcome_citation",
    "outcome_at",
    "outcome_by",
    "impound_case",
    "closed_on",
)


def _open_impound_case(complaint, actor, now, *, pound, ground):
    if pound is None:
        raise Refused.because(_("Pound"), _("Choose the pound."), field="pound")
    if not ground:
        raise Refused.because(_("Ground"), _("Choose the ground for impounding."), field="ground")
    animal = complaint.animal
    description = {"distinguishing_traits": complaint.animal_description}
    if animal is None:
        description["species"] = "dog"
    where = complaint.address
    if complaint.location_note:
        where = f"{where} ({complaint.location_note})"
    return case_intake(
        jurisdiction=complaint.jurisdiction,
        pound=pound,
        actor=actor,
        ground=ground,
        placed_at=now,
        seized_on=min(timezone.localdate(complaint.occurred_at), timezone.localdate(now)),
        seized_where=where[:200],
        brought_by_name=actor.get_full_name() or actor.get_username(),
        brought_by_address=where[:200],
        animal=animal,
        **description,
    )


def channel_for(user) -> str:
    """The channel a complaint taken by this user came through (clerk: counter)."""
    from base.roles import CLERK

    return Channel.COUNTER if user.has_role(CLERK) else Channel.FIELD
