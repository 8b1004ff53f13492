"""Sterilization on adoption: the agreement, its due date, deposit, certificate, waiver.

Rules: IMP-11 (North Branch Sec. 6-72: a stray unspayed female is adopted only if the
adopter agrees to have her spayed, or the humane society undertakes to, and a
veterinarian's certificate follows within ``nb_spay_certificate_days``), IMP-12 (Glencoe
701 Subd. 26(A)-(D), C19: any intact dog or cat; sterilized by ``sterilize_by_age_months``
of age if younger at adoption, else within ``sterilize_within_days``; an animal exactly
that age is in neither rule: the day rule, flagged, Appendix D G37; a deposit remitted to
the veterinarian less the administrative fee, or forfeited), IMP-13 (Subd. 26(E): the
purebred waiver on written application, an officer's decision), IMP-14 (Subd. 26(F):
the pound sterilizes nothing reclaimed or still within its reclaim period).

Which rules apply is the profile's: ``spay_stray_female_required`` (NB) and
``sterilization_on_adoption`` (GL); a city with neither asks for no agreement.

"Astray" (Sec. 6-72 "impounded because of its being astray"): every North Branch ground
is a dog found at large except the rabies confinement of Sec. 6-96(6), a dog taken after
a bite, which is not astray; ``NOT_ASTRAY_GROUNDS`` names that code.
"""

from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from impound.models import (
    CaseStatus,
    DepositStatus,
    ImpoundCase,
    SterilizationAgreement,
    Sterilized,
)
from kernel.checks import refuse_unless_serves
from licensing.models.registry import Sex, Species
from licensing.services.receipts import fee_line, receipt_create
from notices.models import Decision, DecisionOutcome
from ordinance.calendar import add_months, due_date
from ordinance.fees import FeeNotSet, fee_amount
from ordinance.models import Event
from ordinance.money import ZERO
from ordinance.refusals import Refused, refusing
from ordinance.rules import profile_for, rule_citation, rule_in_force

if TYPE_CHECKING:  # the adoption imports this module
    from .dispositions import Adoption

# Sec. 6-96(6): a dog taken in as a rabies suspect after a bite is not "astray".
NOT_ASTRAY_GROUNDS = frozenset({"rabies_suspect"})

DEPOSIT_FEE = "sterilization_deposit"
ADMIN_FEE = "sterilization_admin"
AGREEMENT_KIND = "impound_sterilization_agreement"


@dataclass(frozen=True)
class Terms:
    """What an adoption of this animal requires: the agreement's due date and section."""

    due_on: date
    citation: str
    basis: str
    flagged: bool
    humane_society_option: bool  # NB: "or the humane society agrees to do so"
    deposit_fee: bool  # GL: the profile has a deposit to collect

    @property
    def required(self) -> bool:
        return True


def sterilization_terms(
    case: ImpoundCase, *, adopted_on: date, date_of_birth: date | None = None
) -> Terms | None:
    """The agreement an adoption on ``adopted_on`` needs, or None when none is needed."""
    if case.sterilized == Sterilized.YES:
        return None
    j = case.jurisdiction
    nb = rule_in_force(j, "spay_stray_female_required", on=adopted_on, optional=True)
    if nb is not None and nb.value:
        if case.sex != Sex.FEMALE or case.ground in NOT_ASTRAY_GROUNDS:
            return None
        due, rule = due_date(j, "nb_spay_certificate_days", adopted_on)
        return Terms(
            due_on=due,
            citation=rule.citation,
            basis=_("Spay certificate within %(n)s after adoption (%(c)s)")
            % {"n": rule.display(), "c": rule.citation},
            flagged=False,
            humane_society_option=True,
            deposit_fee=False,
        )
    gl = rule_in_force(j, "sterilization_on_adoption", on=adopted_on, optional=True)
    if gl is None or not gl.value or case.species not in (Species.DOG, Species.CAT):
        return None
    return _glencoe_terms(case, adopted_on, date_of_birth)


def estimated_birth(case: ImpoundCase) -> date:
    """Date of birth estimated from the age the officer gave at intake."""
    placed_on = timezone.localtime(case.placed_at).date()
    return add_months(placed_on, -case.approximate_age_months)


def _glencoe_terms(case, adopted_on, date_of_birth) -> Terms:
    j = case.jurisdiction
    by_age = rule_in_force(j, "sterilize_by_age_months", on=adopted_on)
    estimated = date_of_birth is None
    born = estimated_birth(case) if estimated else date_of_birth
    reaches = add_months(born, by_age.value)
    born_text = _("born %(d)s%(est)s") % {
        "d": date_format(born),
        "est": _(" (estimated from the age at intake)") if estimated else "",
    }
    deposit = DEPOSIT_FEE in profile_for(j).fees
    if reaches > adopted_on:
        return Terms(
            due_on=reaches,
            citation=by_age.citation,
            basis=_("Under %(age)s at adoption, %(born)s: sterilized by that age (%(c)s)")
            % {"age": by_age.display(), "born": born_text, "c": by_age.citation},
            flagged=False,
            humane_society_option=False,
            deposit_fee=deposit,
        )
    due, within = due_date(j, "sterilize_within_days", adopted_on)
    exactly = reaches == adopted_on
    if exactly:
        basis = _(
            "Exactly %(age)s at adoption, %(born)s: in neither rule; the %(n)s rule applies "
            "and the agreement is flagged for review (Appendix D G37; %(c)s)"
        ) % {
            "age": by_age.display(),
            "born": born_text,
            "n": within.display(),
            "c": within.citation,
        }
    else:
        basis = _("Over %(age)s at adoption, %(born)s: sterilized within %(n)s (%(c)s)") % {
            "age": by_age.display(),
            "born": born_text,
            "n": within.display(),
            "c": within.citation,
        }
    return Terms(
        due_on=due,
        citation=within.citation,
        basis=basis,
        flagged=exactly,
        humane_society_option=False,
        deposit_fee=deposit,
    )


def deposit_fee(jurisdiction, *, on: date):
    """The deposit to collect, or Refused naming the section while the council has not
    set it (profile ``blocks``: "Adoption with a sterilization agreement ...")."""
    try:
        return fee_amount(jurisdiction, DEPOSIT_FEE, on=on)
    except FeeNotSet as exc:
        spec = profile_for(jurisdiction).values.get("sterilization_deposit")
        label = spec.blocks[0] if spec and spec.blocks else _("Sterilization deposit")
        raise Refused.because(label, str(exc), exc.citation, field="deposit") from exc


def check_pound_may_sterilize(case: ImpoundCase) -> None:
    """IMP-14 (Glencoe Subd. 26(F)): nothing reclaimed, nothing within the reclaim period.

    A city whose ordinance has no such rule (North Branch) has no section: no block.
    """
    citation = rule_citation(case.jurisdiction, "IMP-14")
    if not citation:
        return
    if case.hold_running:
        raise Refused.because(
            _("Sterilization"),
            _("The reclaim period runs through %(d)s: the pound may not sterilize before then.")
            % {"d": date_format(case.hold_ends_on)},
            citation,
        )
    if case.status == CaseStatus.REDEEMED:
        raise Refused.because(
            _("Sterilization"),
            _("The owner reclaimed this animal: the pound may not sterilize it."),
            citation,
        )


def agreement_create(
    *,
    case: ImpoundCase,
    terms: Terms,
    actor,
    adoption: "Adoption",
    adopted_on: date,
    now: datetime,
) -> SterilizationAgreement:
    """The agreement signed at adoption, with the deposit taken on a receipt (GL)."""
    deposit, receipt = _deposit_take(case, terms, actor, adoption, adopted_on, now)
    agreement = SterilizationAgreement.objects.create(
        case=case,
        jurisdiction=case.jurisdiction,
        adopter_name=adoption.name,
        adopter_address=adoption.address,
        adopted_on=adopted_on,
        humane_society_undertakes=adoption.humane_society_undertakes,
        due_on=terms.due_on,
        due_citation=terms.citation,
        due_basis=terms.basis[:300],
        flagged=terms.flagged,
        deposit=deposit,
        deposit_status=DepositStatus.HELD if deposit is not None else DepositStatus.NONE,
        deposit_receipt=receipt,
        recorded_by=actor,
        status_changed_at=now,
    )
    Event.record(
        "impound.sterilization.agreed",
        agreement,
        actor=actor,
        at=now,
        summary=_("Sterilization due %(d)s (%(c)s)")
        % {"d": date_format(terms.due_on), "c": terms.citation},
        data={
            "case": case.number,
            "due_on": str(terms.due_on),
            "flagged": terms.flagged,
            "deposit": str(deposit) if deposit is not None else None,
            "receipt": receipt.number if receipt else None,
            "humane_society": adoption.humane_society_undertakes,
        },
    )
    return agreement


def _deposit_take(case, terms: Terms, actor, adoption: "Adoption", on: date, now: datetime):
    """(amount, receipt) of the deposit Glencoe takes (Subd. 26), or (None, None)."""
    if not terms.deposit_fee:
        return None, None
    fee = deposit_fee(case.jurisdiction, on=on)
    if adoption.adopter is None:
        raise Refused.because(
            _("Adopter"),
            _(
                "The deposit is taken on a receipt, which names a registered owner: "
                "register the adopter at the counter first."
            ),
            fee.authority,
            field="adopter",
        )
    if not adoption.payment_method:
        raise Refused.because(
            _("Payment"),
            _("Choose how the deposit is paid."),
            fee.authority,
            field="payment_method",
        )
    receipt = receipt_create(
        jurisdiction=case.jurisdiction,
        payer=adoption.adopter,
        lines=[fee_line(fee)],
        method=adoption.payment_method,
        reference=adoption.payment_reference,
        actor=actor,
        now=now,
    )
    return fee.amount, receipt


def _data(agreement, data: dict) -> dict:
    """An agreement event's data: the case's number first."""
    return {"case": agreement.case.number, **data}


@refusing()
@transaction.atomic
def agreement_record_certificate(
    *,
    agreement: SterilizationAgreement,
    actor,
    sterilized_on: date,
    veterinarian: str,
    certificate=None,
    now: datetime | None = None,
) -> SterilizationAgreement:
    """The veterinarian's certificate: pending or overdue -> sterilized (IMP-11, IMP-12)."""
    now = now or timezone.now()
    refuse_unless_serves(actor, agreement.jurisdiction)
    agreement.ensure("certify", citation=agreement.due_citation)
    if not veterinarian.strip():
        raise Refused.because(
            _("Veterinarian"),
            _("Name the veterinarian who certifies it."),
            agreement.due_citation,
            field="veterinarian",
        )
    if sterilized_on > timezone.localdate(now) or sterilized_on < agreement.adopted_on:
        raise Refused.because(
            _("Sterilized on"),
            _("The date must fall between the adoption (%(a)s) and today.")
            % {"a": date_format(agreement.adopted_on)},
            agreement.due_citation,
            field="sterilized_on",
        )
    agreement.sterilized_on, agreement.veterinarian = sterilized_on, veterinarian.strip()
    fields = ["sterilized_on", "veterinarian"]
    if certificate is not None:
        agreement.certificate = certificate
        fields.append("certificate")
    agreement.apply(
        "certify",
        actor=actor,
        at=now,
        summary=_("Sterilized %(d)s, certified by %(v)s")
        % {"d": date_format(sterilized_on), "v": agreement.veterinarian},
        data=_data(
            agreement,
            {"sterilized_on": str(sterilized_on), "late": sterilized_on > agreement.due_on},
        ),
        fields=fields,
        citation=agreement.due_citation,
    )
    return agreement


@refusing()
@transaction.atomic
def agreement_remit(
    *,
    agreement: SterilizationAgreement,
    actor,
    remitted_to: str,
    remitted_on: date,
    now: datetime | None = None,
) -> SterilizationAgreement:
    """Remit the deposit less the administrative fee to the veterinarian (Subd. 26(D))."""
    now = now or timezone.now()
    refuse_unless_serves(actor, agreement.jurisdiction)
    agreement.ensure("remit", citation=agreement.due_citation)
    if not agreement.deposit_held:
        raise Refused.because(
            _("Deposit"),
            _("No deposit is held (%(s)s).") % {"s": agreement.get_deposit_status_display()},
            agreement.due_citation,
        )
    admin = fee_amount(agreement.jurisdiction, ADMIN_FEE, on=remitted_on)
    # An administrative fee above the deposit leaves nothing to remit, never a debt.
    amount = max(agreement.deposit - admin.amount, ZERO)
    agreement.admin_fee, agreement.remitted_amount = admin.amount, amount
    agreement.remitted_to = remitted_to.strip() or agreement.veterinarian
    agreement.remitted_on = remitted_on
    agreement.deposit_status = DepositStatus.REMITTED
    agreement.apply(
        "remit",
        actor=actor,
        at=now,
        summary=_("Deposit %(d)s less administrative fee %(a)s (%(c)s): %(r)s remitted to %(v)s")
        % {
            "d": agreement.deposit,
            "a": admin.amount,
            "c": admin.authority,
            "r": amount,
            "v": agreement.remitted_to,
        },
        data=_data(agreement, {"remitted": str(amount), "admin_fee": str(admin.amount)}),
        fields=["admin_fee", "remitted_amount", "remitted_to", "remitted_on", "deposit_status"],
        citation=agreement.due_citation,
    )
    return agreement


def _decision(
    agreement,
    *,
    kind,
    outcome,
    actor,
    decided_by_name,
    capacity,
    decided_on,
    reasons,
    citation,
    evidence_file=None,
):
    if not decided_by_name.strip() or not reasons.strip():
        raise Refused.because(
            _("Decision"), _("Record who decided and why."), citation, field="reasons"
        )
    return Decision.objects.create(
        jurisdiction=agreement.jurisdiction,
        subject_type=ContentType.objects.get_for_model(SterilizationAgreement),
        subject_id=agreement.pk,
        kind=kind,
        outcome=outcome,
        decided_by_name=decided_by_name.strip(),
        decided_by_capacity=capacity.strip(),
        decided_on=decided_on,
        reasons=reasons.strip(),
        evidence_file=evidence_file or "",
        citation=citation,
        recorded_by=actor,
    )


@refusing()
@transaction.atomic
def agreement_forfeit(
    *,
    agreement: SterilizationAgreement,
    actor,
    decided_by_name: str,
    capacity: str,
    decided_on: date,
    reasons: str,
    now: datetime | None = None,
) -> SterilizationAgreement:
    """An overdue agreement; the officer seized the animal: the deposit is forfeited
    (Subd. 26, after (D)). A person's decision, recorded."""
    now = now or timezone.now()
    refuse_unless_serves(actor, agreement.jurisdiction)
    agreement.ensure("forfeit", citation=agreement.due_citation)
    decision = _decision(
        agreement,
        kind="sterilization_forfeit",
        outcome=DecisionOutcome.ORDERED,
        actor=actor,
        decided_by_name=decided_by_name,
        capacity=capacity,
        decided_on=decided_on,
        reasons=reasons,
        citation=agreement.due_citation,
    )
    fields = []
    if agreement.deposit_held:
        agreement.deposit_status = DepositStatus.FORFEITED
        fields.append("deposit_status")
    agreement.apply(
        "forfeit",
        actor=actor,
        at=now,
        summary=_("Animal seized, deposit forfeited (%(c)s)") % {"c": agreement.due_citation},
        data=_data(agreement, {"decision": decision.pk}),
        fields=fields,
        citation=agreement.due_citation,
    )
    return agreement


@refusing()
@transaction.atomic
def agreement_waive(
    *,
    agreement: SterilizationAgreement,
    actor,
    application,
    decided_by_name: str,
    capacity: str,
    decided_on: date,
    reasons: str,
    now: datetime | None = None,
) -> SterilizationAgreement:
    """The purebred waiver (IMP-13): the adopter's written application and the officer's
    decision. Only where the ordinance has it (Glencoe Subd. 26(E))."""
    now = now or timezone.now()
    refuse_unless_serves(actor, agreement.jurisdiction)
    citation = rule_citation(agreement.jurisdiction, "IMP-13")
    if not citation:
        raise Refused.because(
            _("Waiver"),
            _("%(city)s's ordinance provides no waiver of the spay agreement.")
            % {"city": agreement.jurisdiction},
            agreement.due_citation,
        )
    agreement.ensure("waive", citation=agreement.due_citation)
    if not application:
        raise Refused.because(
            _("Application"),
            _("The waiver needs the adopter's written application."),
            citation,
            field="application",
        )
    decision = _decision(
        agreement,
        kind="sterilization_waiver",
        outcome=DecisionOutcome.APPROVED,
        actor=actor,
        decided_by_name=decided_by_name,
        capacity=capacity,
        decided_on=decided_on,
        reasons=reasons,
        citation=citation,
        evidence_file=application,
    )
    agreement.apply(
        "waive",
        actor=actor,
        at=now,
        summary=_("Waived: verifiable purebred breeding animal (%(c)s)") % {"c": citation},
        data=_data(agreement, {"decision": decision.pk}),
        citation=agreement.due_citation,
    )
    return agreement


def fine_cap(jurisdiction, *, on: date):
    """The petty misdemeanor fine cap for the agreement (Subd. 26), or None."""
    return rule_in_force(jurisdiction, "sterilization_fine_cap", on=on, optional=True)
