"""Seizure of a dangerous dog and its reclaim (DD-21, DD-23; C36; Appendix D G17, G18, G20,
G25).

``case_seize``: the compliance deadline passed with items missing, or during the
compliance window the dog was found outside a proper enclosure or unrestrained (the
officer records the facts). It opens an impound case through impound's own intake on the
procedure-only ground ``dd_seizure``, holding the dog ``dd_reclaim_days`` calendar days
from the seizure (the later of that and the pound's regular business days, Minn. Stat.
346.47 subd. 2: the impound case stores which governs), behind a release gate the owner's
proof clears (Subd. 15(K)(3)), and issues the seizure notice (kind ``dd_seizure_notice``).

``case_reclaim``: within the hold, the owner proves the requirements will be met (the
enclosure, coverage and microchip verified, part 1); the gate is cleared with that record,
and the owner redeems through impound's ``case_redeem`` (impound and boarding fees, a
numbered receipt), all in one transaction: the dangerous-dog case leaves SEIZED for
REGISTERED (a registration in force) or DECLARED (registration still to come). A dog not
reclaimed in time follows impound's hold end and disposition; the owner is liable for the
costs (stated on the notice).
"""

from datetime import date, datetime
from decimal import Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from dangerous_dogs.models import CaseStatus, DesignationCase, Requirement
from impound.models import CaseGate, GateKind, Pound
from impound.models import CaseStatus as ImpoundStatus
from impound.services.intake import case_intake
from impound.services.notices import custody_conditions
from impound.services.redemption import case_redeem
from kernel.checks import refuse_unless_serves
from notices.models import IssuedDocument
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import RuleNotSet, rule_citation, rule_in_force, rules_in_force

from .common import procedure_or_refuse
from .compliance import (
    PROVEN_FIRST,
    check_dangerous,
    compliance_checklist,
    latest_proofs,
    seizure_citation,
)
from .registration import registration_status

SEIZURE_NOTICE = "dd_seizure_notice"
DEADLINE_PASSED = "deadline"
BREACH = "breach"
GROUNDS = (
    (DEADLINE_PASSED, gettext_lazy("The compliance deadline passed with requirements missing")),
    (
        BREACH,
        gettext_lazy(
            "During the compliance period the dog was not kept in a proper enclosure, or was "
            "outside it without the physical restraint of a responsible person"
        ),
    ),
)


def reclaim_sections(jurisdiction, *, on: date) -> tuple[str, str]:
    """(what the owner proves, its section): the sections of Subd. 15(K)(3) are blank
    (Appendix D G18), so the Subd. 15(E) checklist is named instead until they are set."""
    try:
        rule = rule_in_force(jurisdiction, "dd_reclaim_sections", on=on, optional=True)
    except RuleNotSet as exc:
        return (
            _(
                "Proof that the requirements of Subd. 15(E) will be met: a proper enclosure "
                "and a warning sign with the warning symbol, a surety bond or liability "
                "insurance, and a microchip; the sections named in %(section)s are blank in "
                "the ordinance."
            )
            % {"section": exc.citation},
            exc.citation,
        )
    if rule is None:
        return _("Proof that the requirements will be met"), rule_citation(jurisdiction, "DD-23")
    return (
        _("Proof that the requirements of %(sections)s will be met") % {"sections": rule.value},
        rule.citation,
    )


def seizure_notice(case: DesignationCase) -> IssuedDocument | None:
    from django.contrib.contenttypes.models import ContentType

    return (
        IssuedDocument.objects.filter(
            subject_type=ContentType.objects.get_for_model(DesignationCase),
            subject_id=case.pk,
            kind=SEIZURE_NOTICE,
        )
        .order_by("-pk")
        .first()
    )


def _ground(case, ground, ground_detail, today, checklist):
    compliance = case.compliance_citation
    if case.compliance_deadline is None:
        raise Refused.because(
            _("Ground"),
            _("The owner's receipt of the declaration is not recorded: no compliance clock runs."),
            compliance,
            field="ground",
        )
    if ground == DEADLINE_PASSED:
        if case.compliance_deadline >= today:
            raise Refused.because(
                _("Ground"),
                _("The owner has until %(d)s to comply.")
                % {"d": date_format(case.compliance_deadline)},
                compliance,
                field="ground",
            )
        if not checklist.missing:
            raise Refused.because(
                _("Ground"), _("Every requirement is met."), compliance, field="ground"
            )
        return _("The compliance deadline of %(d)s passed with %(items)s missing") % {
            "d": date_format(case.compliance_deadline),
            "items": checklist.missing_labels,
        }
    if ground == BREACH:
        if today > case.compliance_deadline:
            raise Refused.because(
                _("Ground"),
                _(
                    "A breach is a ground for seizure only within the compliance period "
                    "(through %(d)s)."
                )
                % {"d": date_format(case.compliance_deadline)},
                compliance,
                field="ground",
            )
        if not ground_detail.strip():
            raise Refused.because(
                _("What happened"),
                _("Record the facts of the breach: where, when and what was seen."),
                compliance,
                field="ground_detail",
            )
        return _("Enclosure or restraint breach within the compliance period")
    raise Refused.because(_("Ground"), _("Choose the ground for seizure."), field="ground")


def _check_stay(case, today):
    pending = [a for a in case.appeals.all() if a.pending]
    if not pending:
        return
    try:
        stays = rule_in_force(case.jurisdiction, "appeal_stays_compliance", on=today, optional=True)
    except RuleNotSet:
        return  # the sweep flagged a person; the officer decides
    if stays is not None and stays.value:
        raise Refused.because(
            _("Appeal"),
            _("An appeal is pending and stays the compliance clock."),
            stays.citation,
            field="ground",
        )


def notice_context(case, impound, *, ground_text, ground_detail, today) -> dict:
    proof, proof_citation = reclaim_sections(case.jurisdiction, on=today)
    rules = rules_in_force(case.jurisdiction, ["dd_reclaim_days", "dd_reclaim_anchor"], on=today)
    days, anchor = rules["dd_reclaim_days"], rules["dd_reclaim_anchor"]
    return {
        "case": {"number": case.number, "compliance_deadline": case.compliance_deadline},
        "impound": {
            "number": impound.number,
            "placed_at": timezone.localtime(impound.placed_at),
            "seized_where": impound.seized_where,
            "ground": impound.ground_label,
            "ground_citation": impound.ground_citation,
            "hold_ends_on": impound.hold_ends_on,
            "hold_citation": impound.hold_citation,
            "hold_basis": impound.hold_basis,
            "pound": impound.pound.name,
            "pound_address": impound.pound.address,
            "pound_phone": impound.pound.phone,
        },
        "ground": {"text": ground_text, "detail": ground_detail.strip()},
        "seizure_citation": seizure_citation(case.jurisdiction, on=today),
        "owner": {"name": case.owner.name, "address": case.owner.address},
        "animal": {
            "name": case.animal.name,
            "breed": case.animal.breed,
            "color": case.animal.color,
        },
        "reclaim": {
            "days": days.display(),
            "citation": days.citation,
            "anchor": anchor.value,
            "anchor_citation": anchor.citation,
        },
        "proof": {"text": proof, "citation": proof_citation},
        "fees": custody_conditions(impound, on=today),
    }


@refusing()
@transaction.atomic
def case_seize(
    case: DesignationCase,
    *,
    pound: Pound,
    placed_at: datetime,
    seized_where: str,
    ground: str,
    ground_detail: str = "",
    actor,
    now: datetime | None = None,
) -> DesignationCase:
    """Seize the dog and open its impound case (DD-21, DD-23, C36)."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    refuse_unless_serves(actor, case.jurisdiction)
    procedure_or_refuse(case.jurisdiction, on=today)
    case = (
        DesignationCase.objects.select_for_update(of=("self",))
        .select_related("jurisdiction", "animal", "owner__user")
        .get(pk=case.pk)
    )
    case.ensure("seize")
    check_dangerous(case, today)
    checklist = compliance_checklist(case, on=today, registration_in_force=False)
    ground_text = _ground(case, ground, ground_detail, today, checklist)
    _check_stay(case, today)
    if not seized_where.strip():
        raise Refused.because(
            _("Where seized"), _("Say where the dog was seized."), field="seized_where"
        )
    _proof, proof_citation = reclaim_sections(case.jurisdiction, on=today)
    release = _("The owner proves the requirements will be met (the Subd. 15(E) checklist)")
    impound = case_intake(
        jurisdiction=case.jurisdiction,
        pound=pound,
        actor=actor,
        ground="dd_seizure",
        placed_at=placed_at,
        seized_on=timezone.localtime(placed_at).date(),
        seized_where=seized_where.strip(),
        brought_by_name=actor.get_full_name() or actor.username,
        brought_by_address=_("Animal control officer, %(city)s") % {"city": case.jurisdiction},
        animal=case.animal,
        hold_key="dd_reclaim_days",
        gates=((GateKind.RELEASE_ORDER, release, proof_citation, True),),
        species="dog",
        color=case.animal.color or "",
    )
    case.impound_case = impound
    case.apply(
        "seize",
        actor=actor,
        at=now,
        summary=_("Seized: %(ground)s; impound case %(n)s, reclaim by %(d)s (%(s)s)")
        % {
            "ground": ground_text,
            "n": impound.number,
            "d": date_format(impound.hold_ends_on),
            "s": impound.hold_citation,
        },
        citation=seizure_citation(case.jurisdiction, on=today),
        data={
            "ground": ground,
            "detail": ground_detail.strip(),
            "impound_case": impound.pk,
            "hold_ends_on": str(impound.hold_ends_on),
        },
        fields=["impound_case"],
    )
    _issue_notice(case, impound, ground_text, ground_detail, actor=actor, now=now)
    return case


def _issue_notice(case, impound, ground_text, ground_detail, *, actor, now):
    from notices.services import document_issue

    return document_issue(
        kind=SEIZURE_NOTICE,
        template="dangerous_dogs/seizure_notice.html",
        context=notice_context(
            case,
            impound,
            ground_text=ground_text,
            ground_detail=ground_detail,
            today=timezone.localdate(now),
        ),
        jurisdiction=case.jurisdiction,
        actor=actor,
        title=_("Notice of seizure of a dangerous dog"),
        number=case.number,
        subject=case,
        owner_user=case.owner.user,
        now=now,
    )


def _proof_record(case, today) -> str:
    proofs = latest_proofs(case)
    enclosure = proofs[Requirement.ENCLOSURE]
    coverage = proofs[Requirement.COVERAGE]
    chip = proofs[Requirement.MICROCHIP]
    return _(
        "Proofs verified: enclosure and sign %(e)s; %(kind)s %(issuer)s no. %(no)s, $%(amt)s "
        "to %(exp)s; microchip %(chip)s"
    ) % {
        "e": date_format(enclosure.verified_on),
        "kind": coverage.get_coverage_kind_display().lower(),
        "issuer": coverage.issuer,
        "no": coverage.policy_number,
        "amt": f"{coverage.amount:,.2f}",
        "exp": date_format(coverage.expires_on),
        "chip": chip.microchip,
    }


@refusing()
@transaction.atomic
def case_reclaim(
    case: DesignationCase,
    *,
    actor,
    method: str,
    reference: str = "",
    tendered: Decimal | None = None,
    licensed: bool | None = None,
    resident: bool | None = None,
    now: datetime | None = None,
):
    """The owner reclaims within the hold: proofs verified, the release gate cleared, the
    impound and boarding fees paid through impound's redemption (DD-23)."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    refuse_unless_serves(actor, case.jurisdiction)
    case = (
        DesignationCase.objects.select_for_update(of=("self",))
        .select_related("jurisdiction", "animal", "owner", "impound_case")
        .get(pk=case.pk)
    )
    case.ensure("reclaim")
    impound = case.impound_case
    days = _check_within_hold(case, today)
    checklist = compliance_checklist(case, on=today, registration_in_force=False)
    refusal = checklist.refusal(PROVEN_FIRST, _("Proof"))
    if refusal is not None:
        raise refusal
    _clear_release_gates(impound, _proof_record(case, today), actor=actor, now=now)
    redemption = case_redeem(
        case=impound,
        owner=case.owner,
        actor=actor,
        method=method,
        reference=reference,
        tendered=tendered,
        now=now,
        licensed=licensed,
        resident=resident,
    )
    status = registration_status(case, on=today)
    new = CaseStatus.REGISTERED if status.in_force else CaseStatus.DECLARED
    case.apply(
        "reclaim",
        to=new,
        actor=actor,
        at=now,
        summary=_("Reclaimed by %(owner)s, receipt %(r)s; %(status)s")
        % {
            "owner": case.owner.name,
            "r": redemption.receipt.number if redemption.receipt else "",
            "status": status.message,
        },
        citation=days.citation,
        data={"impound_case": impound.pk, "redemption": redemption.pk},
    )
    return redemption


def _check_within_hold(case: DesignationCase, today: date):
    """A reclaim only while the impound case holds the dog (DD-23); the reclaim rule."""
    impound = case.impound_case
    days = rule_in_force(case.jurisdiction, "dd_reclaim_days", on=today)
    if impound.status != ImpoundStatus.HELD or impound.hold_ends_on < today:
        raise Refused.because(
            _("Reclaim"),
            _(
                "The period to reclaim ended on %(d)s; the impound case is %(status)s and its "
                "disposition applies, the owner liable for the costs."
            )
            % {
                "d": date_format(impound.hold_ends_on),
                "status": impound.get_status_display().lower(),
            },
            impound.hold_citation or days.citation,
        )
    return days


def _clear_release_gates(impound, record: str, *, actor, now) -> None:
    """The owner's proofs clear the release gate the seizure set (Subd. 15(K)(3))."""
    gates = CaseGate.objects.select_for_update().filter(
        case=impound, kind=GateKind.RELEASE_ORDER, cleared_at__isnull=True
    )
    for gate in gates:
        gate.cleared_at, gate.cleared_by, gate.clearing_record = now, actor, record[:300]
        gate.save(update_fields=["cleared_at", "cleared_by", "clearing_record"])
        Event.record(
            "impound.gate.cleared",
            impound,
            actor=actor,
            at=now,
            summary=_("%(label)s: %(record)s") % {"label": gate.label, "record": record},
            data={"gate": gate.pk, "kind": gate.kind, "citation": gate.citation},
        )
