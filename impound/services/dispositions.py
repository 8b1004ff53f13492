"""After the hold: adoption, euthanasia, a veterinary college's temporary care, and the
research release the state forbids.

Rules: IMP-04 (no disposition before the stored hold end without a person's recorded
override: NB Sec. 6-75 humane-destruction judgement, Glencoe Subd. 17, rabies), IMP-09
and IMP-10 (dispositions are a person's decisions), IMP-11/IMP-15 (adoption to "a
responsible and suitable owner", NB Sec. 6-72; Glencoe Subd. 25), IMP-11..14 through
``sterilization``, Minn. Stat. 346.47 subd. 3 (Appendix H MN-04: no release for research
or product testing; a temporary transfer to an accredited college of veterinary medicine
or veterinary technology school for sterilization or needed care is allowed).

Each disposition is a ``notices.Decision`` (a person's ``Judgement``: who, capacity, date,
reasons, section) and, when final, ``case.close(...)``, which records its Event.

The veterinary-college transfer is temporary: the animal comes back. It records a
Decision and an Event and leaves the case open in its status (TRANSFERRED is a closed
status, and closing would end the case before the animal's real disposition).

The research release is always refused. The state layer's ``research_release_forbidden``
gives the statute's citation; where that layer is not present, the refusal cites the
city's own provision (NB Sec. 6-74(b), Glencoe Subd. 13) as superseded by state law.
"""

from dataclasses import dataclass, fields
from datetime import date, datetime

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from impound.models import CaseStatus, DepositStatus, GateKind, ImpoundCase
from kernel.checks import refuse_unless_serves
from licensing.models import Owner
from notices.models import Decision, DecisionOutcome
from notices.services import document_issue
from ordinance.fees import FeeNotSet, fee_amount
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import RuleNotInOrdinance, rule_citation, rule_in_force, rules_in_force

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
        provision, state = rules_in_force(jurisdiction, keys, on=on).values()  # one query
    except RuleNotInOrdinance:
        provision, state = (rule_in_force(jurisdiction, key, on=on, optional=True) for key in keys)
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


class _FormData:
    @classmethod
    def of(cls, data: dict):
        """From a form's cleaned data: the fields this holds."""
        return cls(**{f.name: data[f.name] for f in fields(cls) if f.name in data})


@dataclass(frozen=True)
class Judgement(_FormData):
    """A person's decision on a disposition (IMP-09, IMP-10): who, in which capacity,
    when and why; before the hold ends, also the reason for overriding it (IMP-04)."""

    decided_by_name: str
    capacity: str
    decided_on: date
    reasons: str
    override_reason: str = ""


@dataclass(frozen=True)
class Adoption(_FormData):
    """The adopter the officer found "a responsible and suitable owner" (IMP-11, IMP-15)
    and what they agreed to; ``adopter`` is the registered owner a deposit receipt names."""

    adopter_name: str
    adopter_address: str
    suitable: bool
    adopter: Owner | None = None
    sterilization_agreed: bool = False
    humane_society_undertakes: bool = False
    payment_method: str = ""
    payment_reference: str = ""

    @property
    def name(self) -> str:
        return self.adopter_name.strip()

    @property
    def address(self) -> str:
        return self.adopter_address.strip()


@dataclass(frozen=True)
class VetCollegeTransfer(_FormData):
    """Where a temporary transfer goes and why (Minn. Stat. 346.47 subd. 3)."""

    institution: str
    institution_address: str
    accredited: bool
    purpose: str  # "sterilization" or "care"


def check_disposable(case: ImpoundCase, judgement: Judgement) -> bool:
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
    if not judgement.override_reason.strip() or not judgement.decided_by_name.strip():
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


def _decide(case, judgement: Judgement, *, kind, citation, actor, override, evidence=""):
    """The ``notices.Decision`` of a disposition, with the override's reason in it."""
    if not judgement.decided_by_name.strip() or not judgement.reasons.strip():
        raise Refused.because(
            _("Decision"), _("Record who decided and the reasons."), citation, field="reasons"
        )
    text = judgement.reasons.strip()
    if override:
        text = _("%(r)s\n\nOverride of the hold running through %(d)s (%(c)s): %(o)s") % {
            "r": text,
            "d": date_format(case.hold_ends_on),
            "c": case.hold_citation,
            "o": judgement.override_reason.strip(),
        }
    return Decision.objects.create(
        jurisdiction=case.jurisdiction,
        subject_type=ContentType.objects.get_for_model(ImpoundCase),
        subject_id=case.pk,
        kind=kind,
        outcome=DecisionOutcome.ORDERED,
        decided_by_name=judgement.decided_by_name.strip(),
        decided_by_capacity=judgement.capacity.strip(),
        decided_on=judgement.decided_on,
        reasons=text,
        evidence=evidence,
        citation=citation,
        recorded_by=actor,
    )


def _override_event(case, actor, now, judgement: Judgement, decision):
    Event.record(
        "impound.case.hold_overridden",
        case,
        actor=actor,
        at=now,
        summary=_("Hold through %(d)s overridden: %(o)s")
        % {"d": date_format(case.hold_ends_on), "o": judgement.override_reason},
        data={"decision": decision.pk, "hold_ends_on": str(case.hold_ends_on)},
    )


def _data(decision, override):
    return {"decision": decision.pk, "kind": decision.kind, "override": override}


# --- Adoption ------------------------------------------------------------------------------


@refusing()
@transaction.atomic
def case_adopt(
    *,
    case: ImpoundCase,
    actor,
    adoption: Adoption,
    judgement: Judgement,
    date_of_birth: date | None = None,
    issue_documents: bool = True,
    now: datetime | None = None,
) -> ImpoundCase:
    """Adoption by a person found "a responsible and suitable owner" (IMP-11, IMP-15),
    with the sterilization agreement the animal needs (``date_of_birth``: the animal's,
    when known; else estimated from its age at intake)."""
    now = now or timezone.now()
    refuse_unless_serves(actor, case.jurisdiction)
    on = judgement.decided_on
    provision = rule_in_force(case.jurisdiction, "adoption_provision", on=on)
    override = check_disposable(case, judgement)
    check_may_leave(case)
    _check_adopter(adoption, provision)
    terms = sterilization.sterilization_terms(case, adopted_on=on, date_of_birth=date_of_birth)
    _check_sterilization(case, terms, adoption, override=override, on=on)
    decision = _decide(
        case,
        judgement,
        kind="adoption",
        citation=provision.citation,
        actor=actor,
        override=override,
        evidence=_("Found a responsible and suitable owner"),
    )
    if override:
        _override_event(case, actor, now, judgement, decision)
    agreement = None
    if terms is not None:
        agreement = sterilization.agreement_create(
            case=case, terms=terms, actor=actor, adoption=adoption, adopted_on=on, now=now
        )
    case.close(
        CaseStatus.ADOPTED,
        on=on,
        at=now,
        actor=actor,
        note=_("Adopted by %(a)s (%(c)s)") % {"a": adoption.name, "c": provision.citation},
        to_name=adoption.name,
        to_address=adoption.address,
        data=_data(decision, override),
    )
    if issue_documents:
        adoption_documents_issue(
            case=case, decision=decision, agreement=agreement, actor=actor, now=now
        )
    return case


def _check_adopter(adoption: Adoption, provision) -> None:
    if not adoption.name or not adoption.address:
        raise Refused.because(
            _("Adopter"),
            _("Give the adopter's name and address."),
            provision.citation,
            field="adopter_name",
        )
    if not adoption.suitable:
        raise Refused.because(
            _("Suitability"),
            _("The officer must find the adopter a responsible and suitable owner: %(p)s.")
            % {"p": provision.value},
            provision.citation,
            field="suitable",
        )


def _check_sterilization(case, terms, adoption: Adoption, *, override: bool, on: date) -> None:
    """The agreement the terms ask for was signed (or the humane society undertakes it);
    a blank deposit is refused before anything is recorded."""
    if terms is None:
        return
    if override:
        sterilization.check_pound_may_sterilize(case)
    agreed = adoption.sterilization_agreed or (
        terms.humane_society_option and adoption.humane_society_undertakes
    )
    if not agreed:
        message = (
            _(
                "An unspayed stray female is adopted only if the adopter agrees to have her "
                "spayed or the humane society undertakes to."
            )
            if terms.humane_society_option
            else _(
                "An animal not sterilized is adopted only with a signed agreement to sterilize it."
            )
        )
        raise Refused.because(
            _("Sterilization agreement"), message, terms.citation, field="sterilization_agreed"
        )
    if terms.deposit_fee:
        sterilization.deposit_fee(case.jurisdiction, on=on)


def adoption_context(*, case, decision, agreement) -> dict:
    """What the adoption agreement (C17) prints: the adopter, the animal, the decision
    and, with an agreement, its sterilization terms."""
    provision = rule_in_force(case.jurisdiction, "adoption_provision", on=decision.decided_on)
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
    return {
        "adopter_name": case.transferred_to_name,
        "adopter_address": case.transferred_to_address,
        "animal": {
            "species": case.get_species_display(),
            "breed": case.breed,
            "sex": case.get_sex_display(),
            "color": case.color,
            "age_months": case.approximate_age_months,
            "case": case.number,
        },
        "adopted_on": decision.decided_on.isoformat(),
        "provision": provision.value,
        "citation": provision.citation,
        "decided_by": decision.decided_by_name,
        "capacity": decision.decided_by_capacity,
        "sterilization": terms,
    }


def sterilization_agreement_context(jurisdiction, *, on: date, adoption: dict) -> dict:
    """What the sterilization agreement (C19) adds to the adoption's: the administrative
    fee and the fine cap, each with its section (printed blank while not set)."""
    cap = sterilization.fine_cap(jurisdiction, on=on)
    try:
        admin = fee_amount(jurisdiction, sterilization.ADMIN_FEE, on=on)
    except FeeNotSet:  # blank until the council sets it: printed as such
        admin = None
    return {
        **adoption,
        "admin_fee": f"{admin.amount}" if admin else "",
        "admin_citation": admin.authority if admin else "",
        "fine_cap": cap.display() if cap else "",
        "fine_citation": cap.citation if cap else "",
    }


def adoption_documents_issue(*, case, decision, agreement, actor, now):
    """C17 (and, with a Glencoe agreement, C19) as archived PDFs."""
    j = case.jurisdiction
    context = adoption_context(case=case, decision=decision, agreement=agreement)
    issue = {"jurisdiction": j, "actor": actor, "number": case.number, "now": now}
    docs = [
        document_issue(
            kind="impound_adoption_agreement",
            template="impound/adoption_agreement.html",
            context=context,
            title=_("Adoption agreement"),
            subject=case,
            **issue,
        )
    ]
    if agreement is not None and agreement.deposit_status != DepositStatus.NONE:
        docs.append(
            document_issue(
                kind="impound_sterilization_agreement",
                template="impound/sterilization_agreement.html",
                context=sterilization_agreement_context(
                    j, on=decision.decided_on, adoption=context
                ),
                title=_("Sterilization agreement"),
                subject=agreement,
                **issue,
            )
        )
    return docs


# --- Euthanasia and the veterinary college ---------------------------------------------------


@refusing()
@transaction.atomic
def case_euthanize(
    *, case: ImpoundCase, actor, judgement: Judgement, now: datetime | None = None
) -> ImpoundCase:
    """Humane euthanasia (IMP-09, IMP-10): a person's decision, recorded."""
    now = now or timezone.now()
    refuse_unless_serves(actor, case.jurisdiction)
    provision = rule_in_force(case.jurisdiction, "euthanasia_provision", on=judgement.decided_on)
    override = check_disposable(case, judgement)
    decision = _decide(
        case,
        judgement,
        kind="euthanasia",
        citation=provision.citation,
        actor=actor,
        override=override,
    )
    if override:
        _override_event(case, actor, now, judgement, decision)
    case.close(
        CaseStatus.EUTHANIZED,
        on=judgement.decided_on,
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
    transfer: VetCollegeTransfer,
    judgement: Judgement,
    now: datetime | None = None,
) -> Decision:
    """A temporary transfer for sterilization or needed care (Minn. Stat. 346.47 subd. 3).

    The case stays open: the animal comes back for its disposition. Sterilization is
    refused within the reclaim period (IMP-14) even with a hold override.
    """
    now = now or timezone.now()
    refuse_unless_serves(actor, case.jurisdiction)
    block = research_block(case.jurisdiction, on=judgement.decided_on)
    citation = block.citation or case.hold_citation
    _check_transfer(case, transfer, citation)
    override = check_disposable(case, judgement)
    check_may_leave(case)
    institution = transfer.institution.strip()
    decision = _decide(
        case,
        judgement,
        kind="vet_college_transfer",
        citation=citation,
        actor=actor,
        override=override,
        evidence=f"{institution}, {transfer.institution_address.strip()} ({transfer.purpose})",
    )
    Event.record(
        "impound.case.vet_college_transfer",
        case,
        actor=actor,
        at=now,
        summary=_("Temporarily transferred to %(i)s for %(p)s (%(c)s)")
        % {"i": institution, "p": transfer.purpose, "c": citation},
        data=_data(decision, override),
    )
    return decision


def _check_transfer(case, transfer: VetCollegeTransfer, citation: str) -> None:
    if not transfer.accredited or not transfer.institution.strip():
        raise Refused.because(
            _("Institution"),
            _(
                "Only an accredited college of veterinary medicine or veterinary technology "
                "school may receive the animal, and only for sterilization or needed care."
            ),
            citation,
            field="accredited",
        )
    if transfer.purpose not in ("sterilization", "care"):
        raise Refused.because(
            _("Purpose"), _("Sterilization or needed care only."), citation, field="purpose"
        )
    if transfer.purpose == "sterilization":
        sterilization.check_pound_may_sterilize(case)


@refusing()
def case_release_for_research(*, case: ImpoundCase, actor, on: date | None = None, **_ignored):
    """Always refused (Minn. Stat. 346.47 subd. 3): the city's provision is superseded."""
    block = research_block(case.jurisdiction, on=on or timezone.localdate())
    raise Refused.because(_("Release for research"), block.message, block.citation)
