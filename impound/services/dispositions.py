"""After the hold: adoption, euthanasia, a veterinary college's temporary care, and the
research release the state forbids.

Rules: IMP-04 (no disposition before the stored hold end without a person's recorded
override: NB Sec. 6-75 humane-destruction judgement, Glencoe Subd. 17, rabies), IMP-09
and IMP-10 (dispositions are a person's decisions), IMP-11/IMP-15 (adoption to "a
responsible and suitable owner", NB Sec. 6-72; Glencoe Subd. 25), IMP-11..14 through
``sterilization``, Minn. Stat. 346.47 subd. 3 (Appendix H MN-04: no release for research
or product testing; a temporary transfer to an accredited college of veterinary medicine
or veterinary technology school for sterilization or needed care is allowed).

Each disposition is a ``notices.Decision`` (who, capacity, date, reasons, section) and,
when final, ``case.close(...)``, which records its Event.

The veterinary-college transfer is temporary: the animal comes back. It records a
Decision and an Event and leaves the case open in its status (TRANSFERRED is a closed
status, and closing would end the case before the animal's real disposition).

The research release is always refused. The state layer's ``research_release_forbidden``
gives the statute's citation; where that layer is not present, the refusal cites the
city's own provision (NB Sec. 6-74(b), Glencoe Subd. 13) as superseded by state law.
"""

from dataclasses import dataclass
from datetime import date, datetime

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from impound.models import CaseStatus, GateKind, ImpoundCase
from kernel.checks import refuse_unless_serves
from notices.models import Decision, DecisionOutcome
from notices.services import document_issue
from ordinance.fees import FeeNotSet, fee_amount
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import (
    RuleNotInOrdinance,
    get_optional,
    get_rule,
    get_rules,
    rule_citation,
)

from . import sterilization


@dataclass(frozen=True)
class ResearchBlock:
    """Why a research release is refused: the statute (or the superseded city section)."""

    citation: str
    message: str
    superseded: str  # the city's provision, with its section


def research_block(jurisdiction, *, on: date) -> ResearchBlock:
    keys = ["research_transfer_provision", "research_release_forbidden"]
    try:
        provision, state = get_rules(jurisdiction, keys, on=on).values()  # one query
    except RuleNotInOrdinance:
        provision, state = (get_optional(jurisdiction, key, on=on) for key in keys)
    superseded = str(provision) if provision else ""
    if state is not None:
        return ResearchBlock(
            citation=state.citation,
            message=_(
                "State law forbids releasing an impounded animal for research or product "
                "testing (%(c)s); %(p)s is superseded."
            )
            % {"c": state.citation, "p": superseded or _("the city's provision")},
            superseded=superseded,
        )
    return ResearchBlock(
        citation=provision.citation if provision else "",
        message=_(
            "State law forbids releasing an impounded animal for research or product "
            "testing; %(p)s is superseded and may not be used."
        )
        % {"p": superseded or _("the city's provision")},
        superseded=superseded,
    )


def check_disposable(case: ImpoundCase, *, override_reason: str, decided_by_name: str) -> bool:
    """True when this is an override of a hold still running (IMP-04); Refused when
    the case's status allows no disposition (``ImpoundCase.TRANSITIONS``)."""
    if not case.may("dispose"):
        raise Refused.because(
            _("Impound case"),
            _("Case %(n)s is %(s)s.") % {"n": case.number, "s": case.get_status_display().lower()},
            rule_citation(case.jurisdiction, "IMP-09") or case.hold_citation,
        )
    if not case.hold_running:
        return False
    if not override_reason.strip() or not decided_by_name.strip():
        raise Refused.because(
            _("Hold"),
            _(
                "The hold runs through %(d)s: no disposition before it ends unless a person "
                "records an override and its reason (a humane-destruction judgement, "
                "summary destruction, a rabies case)."
            )
            % {"d": date_format(case.hold_ends_on)},
            case.hold_citation,
            field="override_reason",
        )
    return True


def check_may_leave(case: ImpoundCase) -> None:
    """An animal confined under a release order (a rabies quarantine at the facility, NB
    Sec. 6-98(3), Glencoe Subd. 21(E); RAB-16) may not leave the pound, by adoption or
    transfer, until the responsible authority releases it: the gate is cleared by the
    quarantine's release. Euthanasia stays possible as a person's recorded decision (an
    animal showing signs is examined by a laboratory)."""
    gate = case.gates.filter(kind=GateKind.RELEASE_ORDER, cleared_at__isnull=True).first()
    if gate is not None:
        raise Refused.because(
            _("Release"),
            _("%(label)s: the animal may not leave the pound before it is released.")
            % {"label": gate.label},
            gate.citation,
        )


def _decide(
    case,
    *,
    kind,
    citation,
    actor,
    decided_by_name,
    capacity,
    decided_on,
    reasons,
    override,
    override_reason,
    evidence="",
):
    if not decided_by_name.strip() or not reasons.strip():
        raise Refused.because(
            _("Decision"), _("Record who decided and the reasons."), citation, field="reasons"
        )
    text = reasons.strip()
    if override:
        text = _("%(r)s\n\nOverride of the hold running through %(d)s (%(c)s): %(o)s") % {
            "r": text,
            "d": date_format(case.hold_ends_on),
            "c": case.hold_citation,
            "o": override_reason.strip(),
        }
    return Decision.objects.create(
        jurisdiction=case.jurisdiction,
        subject_type=ContentType.objects.get_for_model(ImpoundCase),
        subject_id=case.pk,
        kind=kind,
        outcome=DecisionOutcome.ORDERED,
        decided_by_name=decided_by_name.strip(),
        decided_by_capacity=capacity.strip(),
        decided_on=decided_on,
        reasons=text,
        evidence=evidence,
        citation=citation,
        recorded_by=actor,
    )


def _override_event(case, actor, now, override_reason, decision):
    Event.record(
        "impound.case.hold_overridden",
        case,
        actor=actor,
        at=now,
        summary=_("Hold through %(d)s overridden: %(o)s")
        % {"d": date_format(case.hold_ends_on), "o": override_reason},
        data={"decision": decision.pk, "hold_ends_on": str(case.hold_ends_on)},
    )


def _data(decision, override):
    return {"decision": decision.pk, "kind": decision.kind, "override": override}


@refusing()
@transaction.atomic
def case_adopt(
    *,
    case: ImpoundCase,
    actor,
    adopter_name: str,
    adopter_address: str,
    decided_by_name: str,
    capacity: str,
    decided_on: date,
    reasons: str,
    suitable: bool,
    adopter=None,
    sterilization_agreed: bool = False,
    humane_society_undertakes: bool = False,
    date_of_birth: date | None = None,
    payment_method: str = "",
    payment_reference: str = "",
    override_reason: str = "",
    issue_documents: bool = True,
    now: datetime | None = None,
) -> ImpoundCase:
    """Adoption by a person found "a responsible and suitable owner" (IMP-11, IMP-15)."""
    now = now or timezone.now()
    refuse_unless_serves(actor, case.jurisdiction)
    j = case.jurisdiction
    provision = get_rule(j, "adoption_provision", on=decided_on)
    override = check_disposable(
        case, override_reason=override_reason, decided_by_name=decided_by_name
    )
    check_may_leave(case)
    if not adopter_name.strip() or not adopter_address.strip():
        raise Refused.because(
            _("Adopter"),
            _("Give the adopter's name and address."),
            provision.citation,
            field="adopter_name",
        )
    if not suitable:
        raise Refused.because(
            _("Suitability"),
            _("The officer must find the adopter a responsible and suitable owner: %(p)s.")
            % {"p": provision.value},
            provision.citation,
            field="suitable",
        )
    terms = sterilization.sterilization_terms(
        case, adopted_on=decided_on, date_of_birth=date_of_birth
    )
    if terms is not None:
        if override:
            sterilization.check_pound_may_sterilize(case)
        agreed = sterilization_agreed or (terms.humane_society_option and humane_society_undertakes)
        if not agreed:
            message = (
                _(
                    "An unspayed stray female is adopted only if the adopter agrees to have her "
                    "spayed or the humane society undertakes to."
                )
                if terms.humane_society_option
                else _(
                    "An animal not sterilized is adopted only with a signed agreement to "
                    "sterilize it."
                )
            )
            raise Refused.because(
                _("Sterilization agreement"), message, terms.citation, field="sterilization_agreed"
            )
        if terms.deposit_fee:
            sterilization.deposit_fee(j, on=decided_on)  # blank: refused before anything
    decision = _decide(
        case,
        kind="adoption",
        citation=provision.citation,
        actor=actor,
        decided_by_name=decided_by_name,
        capacity=capacity,
        decided_on=decided_on,
        reasons=reasons,
        override=override,
        override_reason=override_reason,
        evidence=_("Found a responsible and suitable owner"),
    )
    if override:
        _override_event(case, actor, now, override_reason, decision)
    agreement = None
    if terms is not None:
        agreement = sterilization.agreement_create(
            case=case,
            terms=terms,
            actor=actor,
            adopter=adopter,
            adopter_name=adopter_name.strip(),
            adopter_address=adopter_address.strip(),
            adopted_on=decided_on,
            humane_society_undertakes=humane_society_undertakes,
            payment_method=payment_method,
            payment_reference=payment_reference,
            now=now,
        )
    case.close(
        CaseStatus.ADOPTED,
        on=decided_on,
        at=now,
        actor=actor,
        note=_("Adopted by %(a)s (%(c)s)") % {"a": adopter_name.strip(), "c": provision.citation},
        to_name=adopter_name.strip(),
        to_address=adopter_address.strip(),
        data=_data(decision, override),
    )
    if issue_documents:
        adoption_documents_issue(
            case=case, decision=decision, agreement=agreement, actor=actor, now=now
        )
    return case


def adoption_documents_issue(*, case, decision, agreement, actor, now):
    """C17 (and, with a Glencoe agreement, C19) as archived PDFs."""
    j = case.jurisdiction
    on = decision.decided_on
    provision = get_rule(j, "adoption_provision", on=on)
    animal = {
        "species": case.get_species_display(),
        "breed": case.breed,
        "sex": case.get_sex_display(),
        "color": case.color,
        "age_months": case.approximate_age_months,
        "case": case.number,
    }
    terms = None
    if agreement is not None:
        terms = {
            "due_on": agreement.due_on.isoformat(),
            "citation": agreement.due_citation,
            "basis": agreement.due_basis,
            "flagged": agreement.flagged,
            "humane_society": agreement.humane_society_undertakes,
            "deposit": str(agreement.deposit) if agreement.deposit is not None else "",
        }
    context = {
        "adopter_name": case.transferred_to_name,
        "adopter_address": case.transferred_to_address,
        "animal": animal,
        "adopted_on": on.isoformat(),
        "provision": provision.value,
        "citation": provision.citation,
        "decided_by": decision.decided_by_name,
        "capacity": decision.decided_by_capacity,
        "sterilization": terms,
    }
    docs = [
        document_issue(
            kind="impound_adoption_agreement",
            template="impound/adoption_agreement.html",
            context=context,
            jurisdiction=j,
            actor=actor,
            title=_("Adoption agreement"),
            number=case.number,
            subject=case,
            now=now,
        )
    ]
    if agreement is not None and agreement.deposit_status != "none":
        cap = sterilization.fine_cap(j, on=on)
        try:
            admin = fee_amount(j, sterilization.ADMIN_FEE, on=on)
        except FeeNotSet:  # blank until the council sets it: printed as such
            admin = None
        docs.append(
            document_issue(
                kind="impound_sterilization_agreement",
                template="impound/sterilization_agreement.html",
                context={
                    **context,
                    "admin_fee": f"{admin.amount}" if admin else "",
                    "admin_citation": admin.authority if admin else "",
                    "fine_cap": cap.display() if cap else "",
                    "fine_citation": cap.citation if cap else "",
                },
                jurisdiction=j,
                actor=actor,
                title=_("Sterilization agreement"),
                number=case.number,
                subject=agreement,
                now=now,
            )
        )
    return docs


@refusing()
@transaction.atomic
def case_euthanize(
    *,
    case: ImpoundCase,
    actor,
    decided_by_name: str,
    capacity: str,
    decided_on: date,
    reasons: str,
    override_reason: str = "",
    now: datetime | None = None,
) -> ImpoundCase:
    """Humane euthanasia (IMP-09, IMP-10): a person's decision, recorded."""
    now = now or timezone.now()
    refuse_unless_serves(actor, case.jurisdiction)
    provision = get_rule(case.jurisdiction, "euthanasia_provision", on=decided_on)
    override = check_disposable(
        case, override_reason=override_reason, decided_by_name=decided_by_name
    )
    decision = _decide(
        case,
        kind="euthanasia",
        citation=provision.citation,
        actor=actor,
        decided_by_name=decided_by_name,
        capacity=capacity,
        decided_on=decided_on,
        reasons=reasons,
        override=override,
        override_reason=override_reason,
    )
    if override:
        _override_event(case, actor, now, override_reason, decision)
    case.close(
        CaseStatus.EUTHANIZED,
        on=decided_on,
        at=now,
        actor=actor,
        note=_("Humanely euthanized (%(c)s)") % {"c": provision.citation},
        data=_data(decision, override),
    )
    return case


@refusing()
@transaction.atomic
def case_transfer_vet_college(
    *,
    case: ImpoundCase,
    actor,
    institution: str,
    institution_address: str,
    accredited: bool,
    purpose: str,
    decided_by_name: str,
    capacity: str,
    decided_on: date,
    reasons: str,
    override_reason: str = "",
    now: datetime | None = None,
) -> Decision:
    """A temporary transfer for sterilization or needed care (Minn. Stat. 346.47 subd. 3).

    The case stays open: the animal comes back for its disposition. Sterilization is
    refused within the reclaim period (IMP-14) even with a hold override.
    """
    now = now or timezone.now()
    refuse_unless_serves(actor, case.jurisdiction)
    block = research_block(case.jurisdiction, on=decided_on)
    citation = block.citation or case.hold_citation
    if not accredited or not institution.strip():
        raise Refused.because(
            _("Institution"),
            _(
                "Only an accredited college of veterinary medicine or veterinary technology "
                "school may receive the animal, and only for sterilization or needed care."
            ),
            citation,
            field="accredited",
        )
    if purpose not in ("sterilization", "care"):
        raise Refused.because(
            _("Purpose"), _("Sterilization or needed care only."), citation, field="purpose"
        )
    if purpose == "sterilization":
        sterilization.check_pound_may_sterilize(case)
    override = check_disposable(
        case, override_reason=override_reason, decided_by_name=decided_by_name
    )
    check_may_leave(case)
    decision = _decide(
        case,
        kind="vet_college_transfer",
        citation=citation,
        actor=actor,
        decided_by_name=decided_by_name,
        capacity=capacity,
        decided_on=decided_on,
        reasons=reasons,
        override=override,
        override_reason=override_reason,
        evidence=f"{institution.strip()}, {institution_address.strip()} ({purpose})",
    )
    Event.record(
        "impound.case.vet_college_transfer",
        case,
        actor=actor,
        at=now,
        summary=_("Temporarily transferred to %(i)s for %(p)s (%(c)s)")
        % {"i": institution.strip(), "p": purpose, "c": citation},
        data=_data(decision, override),
    )
    return decision


@refusing()
def case_release_for_research(*, case: ImpoundCase, actor, on: date | None = None, **_ignored):
    """Always refused (Minn. Stat. 346.47 subd. 3): the city's provision is superseded."""
    block = research_block(case.jurisdiction, on=on or timezone.localdate())
    raise Refused.because(_("Release for research"), block.message, block.citation)
