"""A contested case: the City Attorney's review, the Review Panel's hearing, its written
findings and their distribution (Glencoe 701 Subd. 15(C), (D), (I); rules DD-05..DD-08,
MN-08; Appendix B3; documents C26, C27, C28).

The City Attorney, the Mayor and the panel's members are not accounts (Appendix G 6):
staff record their decisions as ``notices.Decision`` rows, with the name of the person
who decided, the date, the reasons and the section applied.

The panel's finding is tallied here from each member's recorded vote: a finding needs a
majority of the **members** of the panel (the seats that sat), not of those present or
voting (Subd. 15(D) "A simple majority of the members of the panel"); an absent member's
vote counts for no finding.
"""

from dataclasses import dataclass
from datetime import date, datetime

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from dangerous_dogs.models import (
    CaseStatus,
    DeclaredBy,
    Designation,
    DesignationCase,
    HearingFinding,
    PanelHearing,
    PanelSeat,
    Requirement,
    Seat,
    Vote,
)
from kernel.checks import refuse_if_future, refuse_unless_serves
from notices.models import Decision, DecisionOutcome, ServiceMethod, ServiceRecord
from ordinance.models import Event
from ordinance.refusals import Check, Refused, refusing
from ordinance.rules import RuleNotSet, get_optional, get_rule, get_rules, rule_citation

from . import declaration
from .common import deadline, gathered, locked

ATTORNEY_REVIEW = "dd_attorney_review"
PANEL_FINDING = "dd_panel_finding"
HEARING_NOTICE = "dd_hearing_notice"
FINDINGS = "dd_findings"
HEARING_NOTICE_TEMPLATE = "dangerous_dogs/hearing_notice.html"
FINDINGS_TEMPLATE = "dangerous_dogs/findings.html"

WITHDRAW, REFER = "withdraw", "refer"
ATTORNEY_OUTCOMES = {WITHDRAW: DecisionOutcome.WITHDRAWN, REFER: DecisionOutcome.REFERRED}

COUNCIL_SEATS = (Seat.COUNCIL, Seat.STAFF)  # a council member, or city staff in their place
ELECTOR_SEATS = (Seat.ELECTOR, Seat.VETERINARIAN)  # the elector, or a veterinarian in lieu

# The three copies of the findings (Subd. 15(D)): who, and the label the page shows.
RECIPIENTS = {
    "officer": _lazy("Animal control officer"),
    "police": _lazy("Police Department"),
    "owner": _lazy("Dog owner"),
}
DISTRIBUTION_METHODS = (
    ServiceMethod.PERSONAL,
    ServiceMethod.MAIL,
    ServiceMethod.CERTIFIED,
    ServiceMethod.EMAIL,
    ServiceMethod.LEFT,
)


def attorney_citation(jurisdiction) -> str:
    return rule_citation(jurisdiction, "DD-05")


def panel_citation(jurisdiction) -> str:
    return rule_citation(jurisdiction, "DD-07")


def findings_citation(jurisdiction) -> str:
    return rule_citation(jurisdiction, "DD-08")


def _subject_filter(case) -> dict:
    return {
        "subject_type": ContentType.objects.get_for_model(DesignationCase),
        "subject_id": case.pk,
    }


def _required(values: dict, label, citation="") -> None:
    """Refuse every blank text at once, each next to its field."""
    missing = [
        Check(str(label), "fail", str(message), citation, field)
        for field, (value, message) in values.items()
        if not (value or "").strip()
    ]
    if missing:
        raise Refused(missing)


def _actor_name(actor) -> str:
    return (actor.get_full_name() or actor.username)[:120]


# --- City Attorney review (C26, DD-05) --------------------------------------------------


@refusing()
@transaction.atomic
def attorney_review(
    *,
    case: DesignationCase,
    outcome: str,
    decided_by_name: str,
    decided_on: date,
    reasons: str,
    evidence: str,
    actor,
    now: datetime | None = None,
) -> Decision:
    """Record the City Attorney's initial review: withdraw the designation (none of the
    requirements apply) or refer it to the Review Panel (Subd. 15(C))."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    case = locked(case)
    jurisdiction = case.jurisdiction
    citation = attorney_citation(jurisdiction)
    refuse_unless_serves(actor, jurisdiction)
    case.ensure("withdraw" if outcome == WITHDRAW else "refer")
    if outcome not in ATTORNEY_OUTCOMES:
        raise Refused.because(
            _("Outcome"),
            _("The City Attorney withdraws the designation or refers it to the Review Panel."),
            citation,
            field="outcome",
        )
    _required(
        {
            "decided_by_name": (decided_by_name, _("Name the City Attorney who reviewed it.")),
            "reasons": (reasons, _("Give the City Attorney's reasons.")),
            "evidence": (evidence, _("Say which evidence the City Attorney reviewed.")),
        },
        _("City Attorney review"),
        citation,
    )
    refuse_if_future(decided_on, _("Decided on"), field="decided_on", today=today)
    if case.contest_received_on and decided_on < case.contest_received_on:
        raise Refused.because(
            _("Decided on"),
            _("The hearing request was received later (%(date)s).")
            % {"date": date_format(case.contest_received_on)},
            citation,
            field="decided_on",
        )
    decision = Decision.objects.create(
        jurisdiction=jurisdiction,
        subject=case,
        kind=ATTORNEY_REVIEW,
        outcome=ATTORNEY_OUTCOMES[outcome],
        decided_by_name=decided_by_name.strip(),
        decided_by_capacity=_("City Attorney"),
        decided_on=decided_on,
        reasons=reasons.strip(),
        evidence=evidence.strip(),
        citation=citation,
        recorded_by=actor,
    )
    data = {"decision": decision.pk, "outcome": outcome, "decided_on": str(decided_on)}
    if outcome == WITHDRAW:
        case.closed_on = decided_on
        case.closing_note = _(
            "Withdrawn by the City Attorney: none of the requirements for a dangerous or "
            "potentially dangerous dog apply."
        )
        case.apply(
            "withdraw",
            actor=actor,
            at=now,
            summary=_("The City Attorney (%(who)s) withdrew the designation on %(date)s (%(c)s)")
            % {"who": decision.decided_by_name, "date": date_format(decided_on), "c": citation},
            citation=citation,
            data=data,
            fields=["closed_on", "closing_note"],
        )
    else:
        case.apply(
            "refer",
            actor=actor,
            at=now,
            summary=_(
                "The City Attorney (%(who)s) referred the case to the Review Panel on "
                "%(date)s (%(c)s)"
            )
            % {"who": decision.decided_by_name, "date": date_format(decided_on), "c": citation},
            citation=citation,
            data=data,
        )
    return decision


# --- The panel and its hearing (C27, DD-06, DD-07, MN-08) -------------------------------


@dataclass(frozen=True)
class PanelRules:
    council: object  # Rule: council members on the panel
    electors: object  # Rule: electors (or a veterinarian in lieu)
    majority: object  # Rule (text): votes needed for a finding
    impartial: object | None  # Rule: Minn. Stat. 347.541 impartial hearing officer

    @property
    def members(self) -> int:
        return self.council.value + self.electors.value


def panel_rules(jurisdiction, *, on: date) -> PanelRules:
    """The panel's composition and majority, read with one query."""
    keys = ["dd_panel_council_members", "dd_panel_electors", "dd_panel_majority"]
    rules = get_rules(jurisdiction, keys, on=on)
    impartial = get_optional(jurisdiction, "dd_hearing_impartial_officer", on=on)
    return PanelRules(*rules.values(), impartial)


def _seat_errors(seats: list[dict], rules: PanelRules, case) -> list[Check]:
    """Each wrong seat next to its row, then the composition as a whole (DD-06)."""
    council_citation = rules.council.citation
    elector_citation = rules.electors.citation
    errors = []
    names = set()
    for i, seat in enumerate(seats):
        where = _("Seat %(n)s") % {"n": i + 1}
        kind = seat.get("seat")
        name = (seat.get("name") or "").strip()
        replaced = (seat.get("substitute_for") or "").strip()
        reason = (seat.get("substitution_reason") or "").strip()
        if kind not in Seat.values:
            errors.append(Check(where, "fail", _("Choose the seat."), "", f"seats-{i}-seat"))
            continue
        if not name:
            errors.append(Check(where, "fail", _("Name the member."), "", f"seats-{i}-name"))
        elif name.casefold() in names:
            errors.append(
                Check(
                    where, "fail", _("%(name)s sits twice.") % {"name": name}, "", f"seats-{i}-name"
                )
            )
        names.add(name.casefold())
        if kind == Seat.STAFF and not replaced:
            errors.append(
                Check(
                    where,
                    "fail",
                    _("City staff sit only in place of a council member: name whom they replace."),
                    elector_citation,
                    f"seats-{i}-substitute_for",
                )
            )
        if kind == Seat.ELECTOR and replaced:
            errors.append(
                Check(
                    where,
                    "fail",
                    _(
                        "The ordinance provides no substitute for the elector; the Mayor may "
                        "appoint a veterinarian in lieu of the elector."
                    ),
                    elector_citation,
                    f"seats-{i}-substitute_for",
                )
            )
        if replaced and not reason:
            errors.append(
                Check(
                    where,
                    "fail",
                    _(
                        "Say why %(name)s is replaced: temporarily unavailable, or a personal "
                        "interest in the outcome."
                    )
                    % {"name": replaced},
                    elector_citation,
                    f"seats-{i}-substitution_reason",
                )
            )
    council = sum(1 for s in seats if s.get("seat") in COUNCIL_SEATS)
    electors = sum(1 for s in seats if s.get("seat") in ELECTOR_SEATS)
    if council != rules.council.value or electors != rules.electors.value:
        errors.append(
            Check(
                str(_("Panel")),
                "fail",
                _(
                    "The Review Panel is %(council)s council members (or their substitutes: other "
                    "council members or city staff) and %(electors)s elector (or a veterinarian "
                    "in lieu of the elector); these seats are %(c)s and %(e)s."
                )
                % {
                    "council": rules.council.value,
                    "electors": rules.electors.value,
                    "c": council,
                    "e": electors,
                },
                council_citation,
                "seats",
            )
        )
    # Minn. Stat. 347.541: a dangerous designation is heard by an impartial hearing officer;
    # the panel hears it, so each member declares no personal interest (MN-08).
    if (
        case.designation == Designation.DANGEROUS
        and rules.impartial is not None
        and rules.impartial.value
    ):
        for i, seat in enumerate(seats):
            if seat.get("seat") in Seat.values and not seat.get("impartial"):
                errors.append(
                    Check(
                        _("Seat %(n)s") % {"n": i + 1},
                        "fail",
                        _(
                            "%(name)s has not declared no personal interest in the outcome: a "
                            "dangerous designation is heard by an impartial hearing officer."
                        )
                        % {"name": (seat.get("name") or "").strip() or _("This member")},
                        rules.impartial.citation,
                        f"seats-{i}-impartial",
                    )
                )
    return errors


def _hearing_rights(jurisdiction, rules: PanelRules) -> dict:
    citation = panel_citation(jurisdiction)
    return {
        "evidence": _("You may present evidence on your own behalf and cross-examine any witness."),
        "burden": _(
            "The burden of proof is on the animal control officer or the Police Department."
        ),
        "standard": _(
            "A finding that the dog is dangerous or potentially dangerous must be proven by a "
            "preponderance of the evidence."
        ),
        "majority": _("Votes needed for a finding: %(m)s") % {"m": rules.majority.display()},
        "citation": citation,
        "majority_citation": rules.majority.citation,
    }


def _case_facts(case) -> dict:
    animal, owner = case.animal, case.owner
    return {
        "number": case.number,
        "designation": str(Designation(case.designation).label),
        "criterion": case.get_criterion_display(),
        "occurred_on": timezone.localtime(case.occurred_at).date(),
        "location": case.location,
        "dog": {
            "name": animal.name,
            "breed": animal.breed,
            "color": animal.color,
        },
        "owner": {"name": owner.name, "address": owner.address},
    }


@refusing()
@transaction.atomic
def hearing_schedule(
    *,
    case: DesignationCase,
    scheduled_for: datetime,
    place: str,
    seats: list[dict],
    actor,
    now: datetime | None = None,
) -> PanelHearing:
    """Schedule the Review Panel's hearing with its seats and issue the owner's hearing
    notice (C27). Each seat: seat, name, appointed_by, substitute_for,
    substitution_reason, impartial."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    case = (
        DesignationCase.objects.select_for_update(of=("self",))
        .select_related("jurisdiction", "animal", "owner__user")
        .get(pk=case.pk)
    )
    jurisdiction = case.jurisdiction
    refuse_unless_serves(actor, jurisdiction)
    if not case.may("hold_hearing"):
        raise case.not_now(_("scheduling the hearing"))
    pending = case.hearings.filter(held_on__isnull=True).first()
    if pending is not None:
        raise Refused.because(
            _("Hearing"),
            _("A hearing is already scheduled for %(when)s.")
            % {"when": date_format(timezone.localtime(pending.scheduled_for), "DATETIME_FORMAT")},
            panel_citation(jurisdiction),
        )
    rules = panel_rules(jurisdiction, on=today)
    errors = []
    if not (place or "").strip():
        errors.append(
            Check(str(_("Place")), "fail", str(_("Say where the hearing is held.")), "", "place")
        )
    if scheduled_for < now:
        errors.append(
            Check(
                str(_("Hearing date")),
                "fail",
                str(_("The hearing cannot be scheduled in the past.")),
                "",
                "scheduled_for",
            )
        )
    errors += _seat_errors(seats, rules, case)
    if errors:
        raise Refused(errors)
    hearing = PanelHearing.objects.create(
        case=case, scheduled_for=scheduled_for, place=place.strip(), recorded_by=actor
    )
    made = PanelSeat.objects.bulk_create(
        [
            PanelSeat(
                hearing=hearing,
                seat=s["seat"],
                name=s["name"].strip(),
                appointed_by=(s.get("appointed_by") or "").strip() or _("Mayor"),
                substitute_for=(s.get("substitute_for") or "").strip(),
                substitution_reason=(s.get("substitution_reason") or "").strip(),
                impartial=bool(s.get("impartial")),
            )
            for s in seats
        ]
    )
    from notices.services import document_issue

    hearing.notice = document_issue(
        kind=HEARING_NOTICE,
        template=HEARING_NOTICE_TEMPLATE,
        context={
            "case": _case_facts(case),
            "hearing": {
                "scheduled_for": timezone.localtime(scheduled_for),
                "place": hearing.place,
            },
            "panel": [
                {"seat": s.get_seat_display(), "name": s.name, "substitute_for": s.substitute_for}
                for s in made
            ],
            "rights": _hearing_rights(jurisdiction, rules),
            "referral": _referral(case),
        },
        jurisdiction=jurisdiction,
        actor=actor,
        title=_("Notice of hearing before the Animal Control Review Panel"),
        number=case.number,
        subject=case,
        owner_user=case.owner.user,
        now=now,
    )
    hearing.save(update_fields=["notice"])
    Event.record(
        "dangerous_dogs.hearing.scheduled",
        case,
        actor=actor,
        at=now,
        summary=_("Review Panel hearing scheduled for %(when)s at %(place)s (%(c)s)")
        % {
            "when": date_format(timezone.localtime(scheduled_for), "DATETIME_FORMAT"),
            "place": hearing.place,
            "c": panel_citation(jurisdiction),
        },
        data={"hearing": hearing.pk, "document": hearing.notice.pk, "seats": len(made)},
    )
    return hearing


def _referral(case) -> dict | None:
    """The City Attorney's referral, frozen on the hearing notice (and shown from it)."""
    decision = (
        Decision.objects.filter(**_subject_filter(case), kind=ATTORNEY_REVIEW).order_by("pk").last()
    )
    if decision is None:
        return None
    return {
        "by": decision.decided_by_name,
        "on": decision.decided_on,
        "outcome": decision.get_outcome_display(),
        "evidence": decision.evidence,
        "reasons": decision.reasons,
        "citation": decision.citation,
    }


def _service_record(case, *, document, method, served_at, served_to, actor, received_on=None, **kw):
    return ServiceRecord.objects.create(
        document=document,
        jurisdiction=case.jurisdiction,
        subject_type=ContentType.objects.get_for_model(DesignationCase),
        subject_id=case.pk,
        method=method,
        served_to=served_to[:200],
        served_by_name=_actor_name(actor),
        served_at=served_at,
        received_on=received_on,
        succeeded=True,
        recorded_by=actor,
        **kw,
    )


@refusing()
@transaction.atomic
def hearing_notice_served(
    *,
    hearing: PanelHearing,
    method: str,
    served_at: datetime,
    received_on: date | None,
    actor,
    served_to: str = "",
    now: datetime | None = None,
) -> ServiceRecord:
    """How the hearing notice reached the owner, and when they received it."""
    now = now or timezone.now()
    hearing = PanelHearing.objects.select_related(
        "case__jurisdiction", "case__owner", "notice"
    ).get(pk=hearing.pk)
    case = hearing.case
    refuse_unless_serves(actor, case.jurisdiction)
    methods = get_rule(case.jurisdiction, "dd_service_methods", on=timezone.localdate(now))
    if method not in methods.value:
        raise Refused.because(
            _("Method"),
            _("Serve it by one of: %(m)s.")
            % {"m": ", ".join(str(ServiceMethod(m).label).lower() for m in methods.value)},
            methods.citation,
            field="method",
        )
    if hearing.notice is None:
        raise Refused.because(_("Hearing notice"), _("No hearing notice was issued."))
    if ServiceRecord.objects.filter(document=hearing.notice).exists():
        raise Refused.because(_("Hearing notice"), _("Its service is recorded already."))
    if served_at > now:
        raise Refused.because(
            _("Served at"), _("The date cannot be in the future."), field="served_at"
        )
    if served_at < hearing.notice.issued_at:
        raise Refused.because(
            _("Served at"), _("The notice was issued later than that."), field="served_at"
        )
    if received_on is not None:
        refuse_if_future(
            received_on, _("Received on"), field="received_on", today=timezone.localdate(now)
        )
        if received_on < timezone.localdate(served_at):
            raise Refused.because(
                _("Received on"),
                _("The owner cannot have received it before it was served."),
                field="received_on",
            )
    if method == ServiceMethod.POSTED and not served_to.strip():
        raise Refused.because(
            _("Served on or posted at"), _("Say where it was posted."), field="served_to"
        )
    owner = case.owner
    record = _service_record(
        case,
        document=hearing.notice,
        method=method,
        served_at=served_at,
        served_to=served_to.strip() or f"{owner.name}, {owner.address}",
        received_on=received_on,
        actor=actor,
        posted_where=served_to.strip() if method == ServiceMethod.POSTED else "",
        result=_("Hearing notice served"),
    )
    Event.record(
        "dangerous_dogs.hearing.notice_served",
        case,
        actor=actor,
        at=now,
        summary=_("Hearing notice served (%(how)s)%(received)s")
        % {
            "how": record.get_method_display().lower(),
            "received": (_("; received %(d)s") % {"d": date_format(received_on)})
            if received_on
            else "",
        },
        data={"service_record": record.pk},
    )
    return record


# --- The hearing's record and the tally (DD-07) ------------------------------------------


@dataclass(frozen=True)
class Tally:
    members: int
    majority: int
    dangerous: int
    potentially: int
    not_upheld: int
    absent: int
    finding: str

    @property
    def upheld(self) -> bool:
        return self.finding != HearingFinding.NOT_UPHELD


def tally(votes: list[str], *, noticed: str = Designation.DANGEROUS) -> Tally:
    """The panel's finding from each member's vote (Subd. 15(D)).

    The majority is of the **members** of the panel (every seat that sat), not of those
    present: ``members // 2 + 1``; an absent member counts for no finding.

    Our reading, stated on the case page too: a member who votes "dangerous" finds the
    facts for the lesser designation as well, so the dangerous votes count toward a
    "potentially dangerous" finding when they alone are not a majority.

    The finding never exceeds the designation in the notice of intent (``noticed``): the
    owner was told what the city sought (Subd. 15(A)); a panel of a potentially dangerous
    notice finds at most a potentially dangerous dog.
    """
    members = len(votes)
    majority = members // 2 + 1
    dangerous = votes.count(Vote.DANGEROUS)
    potentially = votes.count(Vote.POTENTIALLY_DANGEROUS)
    if dangerous >= majority and noticed == Designation.DANGEROUS:
        finding = HearingFinding.DANGEROUS
    elif dangerous + potentially >= majority:
        finding = HearingFinding.POTENTIALLY_DANGEROUS
    else:
        finding = HearingFinding.NOT_UPHELD
    return Tally(
        members=members,
        majority=majority,
        dangerous=dangerous,
        potentially=potentially,
        not_upheld=votes.count(Vote.NOT_UPHELD),
        absent=votes.count(Vote.ABSENT),
        finding=finding,
    )


def hearing_tally(hearing: PanelHearing, seats=None) -> Tally | None:
    """The tally of a held hearing from its seats (pass them when already read)."""
    seats = list(hearing.seats.all()) if seats is None else seats
    if not seats or any(not s.vote for s in seats):
        return None
    return tally([s.vote for s in seats], noticed=hearing.case.designation)


def _pdd_statement(jurisdiction, on: date) -> dict:
    """DD-30: what a potentially dangerous designation requires, if the city says."""
    try:
        rule = get_optional(jurisdiction, "pdd_requirements", on=on)
    except RuleNotSet as exc:
        return {
            "text": _(
                "The ordinance attaches no requirement to a potentially dangerous dog. If the "
                "dog later aggressively bites, attacks or endangers a person or a domestic "
                "animal, it may be declared dangerous."
            ),
            "citation": exc.citation,
        }
    if rule is None:
        return {"text": "", "citation": ""}
    return {"text": str(rule.value), "citation": rule.citation}


def _compliance_notice(case, finding: str, on: date) -> dict:
    if finding == HearingFinding.DANGEROUS:
        rule = get_rule(case.jurisdiction, "dd_compliance_days", on=on)
        return {
            "dangerous": True,
            "days": rule.display(),
            "citation": rule.citation,
            "requirements": [str(r.label) for r in Requirement],
        }
    if finding == HearingFinding.POTENTIALLY_DANGEROUS:
        return {"dangerous": False, "pdd": _pdd_statement(case.jurisdiction, on)}
    return {}


@refusing()
@transaction.atomic
def hearing_record(
    *,
    hearing: PanelHearing,
    held_on: date,
    witnesses: str,
    exhibits: str,
    owner_appeared: bool,
    owner_evidence: str,
    votes: dict,
    reasons: str,
    actor,
    ruled_on: date | None = None,
    now: datetime | None = None,
) -> PanelHearing:
    """Record the hearing, each member's vote, the finding and its reasons; issue the
    written findings (C28) and put the designation in force or dismiss the case."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    hearing = (
        PanelHearing.objects.select_for_update(of=("self",))
        .select_related("case__jurisdiction", "case__animal", "case__owner__user")
        .get(pk=hearing.pk)
    )
    case = hearing.case
    jurisdiction = case.jurisdiction
    citation = panel_citation(jurisdiction)
    refuse_unless_serves(actor, jurisdiction)
    case.ensure_may("hold_hearing")
    if hearing.held_on is not None:
        raise Refused.because(
            _("Hearing"),
            _("This hearing was recorded already (%(date)s).")
            % {"date": date_format(hearing.held_on)},
        )
    ruled_on = ruled_on or held_on
    errors = []
    if not (reasons or "").strip():
        errors.append(
            Check(
                str(_("Reasons")),
                "fail",
                str(_("The panel's decision is in writing with its reasons: enter them.")),
                findings_citation(jurisdiction),
                "reasons",
            )
        )
    with gathered(errors):
        refuse_if_future(held_on, _("Held on"), field="held_on", today=today)
        if held_on < timezone.localdate(hearing.scheduled_for):
            raise Refused.because(
                _("Held on"),
                _("The hearing was scheduled for %(date)s.")
                % {"date": timezone.localdate(hearing.scheduled_for)},
                field="held_on",
            )
    if ruled_on > today or ruled_on < held_on:
        errors.append(
            Check(
                str(_("Ruling date")),
                "fail",
                str(_("The ruling is on or after the hearing and not in the future.")),
                "",
                "ruled_on",
            )
        )
    seats = list(hearing.seats.all())
    for seat in seats:
        vote = votes.get(seat.pk) or votes.get(str(seat.pk))
        if vote not in Vote.values:
            errors.append(
                Check(
                    seat.name,
                    "fail",
                    str(
                        _("Record %(name)s's vote (or that they did not vote).")
                        % {"name": seat.name}
                    ),
                    citation,
                    f"vote_{seat.pk}",
                )
            )
    if errors:
        raise Refused(errors)
    for seat in seats:
        seat.vote = votes.get(seat.pk) or votes.get(str(seat.pk))
    PanelSeat.objects.bulk_update(seats, ["vote"])
    result = tally([s.vote for s in seats], noticed=case.designation)
    rules = panel_rules(jurisdiction, on=held_on)
    hearing.held_on = held_on
    hearing.witnesses = witnesses.strip()
    hearing.exhibits = exhibits.strip()
    hearing.owner_appeared = owner_appeared
    hearing.owner_evidence = owner_evidence.strip()
    hearing.finding = result.finding
    hearing.reasons = reasons.strip()
    finding_label = str(HearingFinding(result.finding).label)
    hearing.decision = Decision.objects.create(
        jurisdiction=jurisdiction,
        subject=case,
        kind=PANEL_FINDING,
        outcome=DecisionOutcome.UPHELD if result.upheld else DecisionOutcome.NOT_UPHELD,
        decided_by_name=str(_("Animal Control Review Panel")),
        decided_by_capacity=str(_("Review Panel")),
        decided_on=ruled_on,
        reasons=f"{finding_label}: {reasons.strip()}",
        evidence="\n".join(x for x in (hearing.witnesses, hearing.exhibits) if x),
        citation=citation,
        recorded_by=actor,
    )
    appeal_due, appeal_citation = (None, "")
    if result.upheld:
        appeal_due, appeal_citation = deadline(jurisdiction, "dd_appeal_days", ruled_on)
        appeal_rule = get_rule(jurisdiction, "dd_appeal_days", on=ruled_on)
    from notices.services import document_issue

    vote_labels = dict(Vote.choices)
    hearing.findings = document_issue(
        kind=FINDINGS,
        template=FINDINGS_TEMPLATE,
        context={
            "case": _case_facts(case),
            "hearing": {
                "held_on": held_on,
                "place": hearing.place,
                "witnesses": hearing.witnesses,
                "exhibits": hearing.exhibits,
                "owner_appeared": owner_appeared,
                "owner_evidence": hearing.owner_evidence,
            },
            "finding": finding_label,
            "upheld": result.upheld,
            "dangerous": result.finding == HearingFinding.DANGEROUS,
            "votes": [
                {
                    "name": s.name,
                    "seat": s.get_seat_display(),
                    "substitute_for": s.substitute_for,
                    "vote": str(vote_labels[s.vote]),
                }
                for s in seats
            ],
            "tally": {
                "members": result.members,
                "majority": result.majority,
                "rule": rules.majority.display(),
                "citation": rules.majority.citation,
            },
            "reasons": hearing.reasons,
            "standard": _hearing_rights(jurisdiction, rules),
            "ruled_on": ruled_on,
            "distribution": [str(label) for label in RECIPIENTS.values()],
            "appeal": {
                "days": appeal_rule.display(),
                "due": appeal_due,
                "citation": appeal_citation,
            }
            if result.upheld
            else {},
            "compliance": _compliance_notice(case, result.finding, ruled_on),
            "citation": findings_citation(jurisdiction),
        },
        jurisdiction=jurisdiction,
        actor=actor,
        title=_("Findings of the Animal Control Review Panel"),
        number=case.number,
        subject=case,
        owner_user=case.owner.user,
        now=now,
    )
    hearing.save(
        update_fields=[
            "held_on",
            "witnesses",
            "exhibits",
            "owner_appeared",
            "owner_evidence",
            "finding",
            "reasons",
            "decision",
            "findings",
        ]
    )
    Event.record(
        "dangerous_dogs.hearing.recorded",
        case,
        actor=actor,
        at=now,
        summary=_("Review Panel hearing held %(date)s: %(finding)s (%(d)s of %(m)s members)")
        % {
            "date": date_format(held_on),
            "finding": finding_label.lower(),
            "d": result.dangerous + result.potentially if result.upheld else result.not_upheld,
            "m": result.members,
        },
        data={
            "hearing": hearing.pk,
            "finding": result.finding,
            "votes": {str(s.pk): s.vote for s in seats},
            "decision": hearing.decision.pk,
            "document": hearing.findings.pk,
        },
    )
    if result.upheld:
        declaration.declare(
            case,
            designation=result.finding,
            by=DeclaredBy.PANEL,
            on=ruled_on,
            document=hearing.findings,
            actor=actor,
            at=now,
            citation=findings_citation(jurisdiction),
        )
    else:
        case.closed_on = ruled_on
        case.closing_note = _("Not upheld by the Review Panel.")
        case.apply(
            "hold_hearing",
            to=CaseStatus.DISMISSED,
            actor=actor,
            at=now,
            summary=_("Not upheld by the Review Panel on %(date)s (%(c)s)")
            % {"date": date_format(ruled_on), "c": citation},
            citation=citation,
            data={"hearing": hearing.pk},
            fields=["closed_on", "closing_note"],
        )
    return hearing


# --- Distribution of the findings (DD-08) -----------------------------------------------


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
    today = timezone.localdate(now)
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
    errors = []
    for key, label in RECIPIENTS.items():
        copy = served.get(key) or {}
        if copy.get("method") not in DISTRIBUTION_METHODS:
            errors.append(
                Check(
                    str(label),
                    "fail",
                    str(_("Say how the copy was delivered.")),
                    citation,
                    f"{key}_method",
                )
            )
        at = copy.get("served_at")
        if at is None:
            errors.append(
                Check(
                    str(label),
                    "fail",
                    str(_("Enter when it was delivered.")),
                    citation,
                    f"{key}_served_at",
                )
            )
        elif at > now or at < hearing.findings.issued_at:
            errors.append(
                Check(
                    str(label),
                    "fail",
                    str(_("It is delivered after the findings were issued and not in the future.")),
                    citation,
                    f"{key}_served_at",
                )
            )
    with gathered(errors):
        refuse_if_future(
            owner_received_on, _("Received on"), field="owner_received_on", today=today
        )
    if errors:
        raise Refused(errors)
    owner = case.owner
    default_to = {
        "officer": case.investigated_by_name,
        "police": str(RECIPIENTS["police"]),
        "owner": f"{owner.name}, {owner.address}",
    }
    records = [
        _service_record(
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
