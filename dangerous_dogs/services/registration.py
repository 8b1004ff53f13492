"""The certificate of registration of a dangerous dog (C30; DD-01, DD-12, DD-15; MN-05).

``registration_issue`` is refused while the annual fee is not set (fee code
``dd_registration``, Glencoe's ``dd_annual_fee`` blank: Subd. 15(E)(3), Appendix D G14),
when the fee is above the governing cap (Glencoe's blank, so Minn. Stat. 347.51 subd. 2's
$500), and until the enclosure, coverage and microchip are verified. It takes the fee as
a numbered receipt the way the counter and the impound redemption do
(``receipt_create`` + ``receipt_documents_issue``), records the fee as a proof, issues the
certificate PDF (kind ``dd_registration``), and moves DECLARED -> REGISTERED.

``registration_renew`` (DD-15) re-verifies that the bond or policy is unexpired and
charges the fee again; the new registration ``renews`` the old, on the anniversary
(``dd_registration_term_months`` from the old expiry, or from today if it lapsed).

``registration_status`` is the one answer every page gives about the dog's registration.
"""

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from dangerous_dogs.models import (
    CaseStatus,
    ComplianceProof,
    Designation,
    DesignationCase,
    Registration,
    Requirement,
)
from kernel.checks import refuse_unless_serves
from licensing.models import PaymentMethod
from licensing.services.documents import receipt_documents_issue
from licensing.services.receipts import fee_line, receipt_create
from ordinance.calendar import due_date
from ordinance.fees import FeeAmount, fee_amount
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import Rule, rule_citation, rule_in_force, rules_in_force

from .common import procedure_or_refuse
from .compliance import PROVEN_FIRST, check_dangerous, compliance_checklist, latest_proofs

FEE_CODE = "dd_registration"
TERM_KEY = "dd_registration_term_months"


class RegState:
    NOT_REQUIRED = "not_required"
    UNREGISTERED = "unregistered"
    IN_FORCE = "in_force"
    LAPSED = "lapsed"


@dataclass(frozen=True)
class RegistrationStatus:
    """The dog's registration on a date, for every page (DD-01, DD-15)."""

    state: str
    registration: Registration | None
    message: str
    citation: str = ""

    @property
    def in_force(self) -> bool:
        return self.state == RegState.IN_FORCE

    @property
    def renewal_due_on(self) -> date | None:
        return self.registration.expires_on if self.registration else None


def latest_registration(case: DesignationCase) -> Registration | None:
    """The newest registration (reads ``case.registrations.all()``, which a page
    prefetches)."""
    rows = list(case.registrations.all())
    return max(rows, key=lambda r: (r.issued_on, r.pk)) if rows else None


def registration_status(case: DesignationCase, *, on: date) -> RegistrationStatus:
    latest = latest_registration(case)
    dangerous = case.declared_designation == Designation.DANGEROUS and case.in_force
    if not dangerous:
        return RegistrationStatus(
            RegState.NOT_REQUIRED,
            latest,
            _("No registration is required: the dog is not declared dangerous."),
        )
    if latest is None:
        return RegistrationStatus(
            RegState.UNREGISTERED,
            None,
            _("Not registered: a dangerous dog must be registered."),
            case.compliance_citation,
        )
    if latest.expires_on >= on:
        return RegistrationStatus(
            RegState.IN_FORCE,
            latest,
            _("Registered: certificate %(n)s, renew by %(d)s.")
            % {"n": latest.number, "d": date_format(latest.expires_on)},
            latest.renewal_citation,
        )
    return RegistrationStatus(
        RegState.LAPSED,
        latest,
        _("Registration lapsed: certificate %(n)s was to be renewed by %(d)s.")
        % {"n": latest.number, "d": date_format(latest.expires_on)},
        latest.renewal_citation,
    )


@dataclass(frozen=True)
class FeeCheck:
    fee: FeeAmount
    cap: Rule


def registration_fee(jurisdiction, *, on: date) -> FeeCheck:
    """The annual fee and the governing cap; ``FeeNotSet`` (a ``RuleUnavailable``) while
    the fee is blank, naming Subd. 15(E)(3); refused above the cap (DD-12, MN-05)."""
    fee = fee_amount(jurisdiction, FEE_CODE, on=on)
    cap = rule_in_force(jurisdiction, "dd_annual_fee_cap", on=on)
    rule_in_force(jurisdiction, "dd_microchip_statute", on=on)  # a blank refuses, naming it
    if fee.amount > cap.value:
        why = f" {cap.why}" if cap.why else ""
        raise Refused.because(
            _("Fee"),
            _("The annual fee of %(fee)s (%(authority)s) is more than the %(cap)s allowed.%(why)s")
            % {
                "fee": fee.display(),
                "authority": fee.authority,
                "cap": cap.display(),
                "why": why,
            },
            cap.citation,
            field="method",
        )
    return FeeCheck(fee, cap)


def _number(case: DesignationCase) -> str:
    return f"{case.number}-R{case.registrations.count() + 1}"


def _check_method(method: str) -> None:
    if method not in PaymentMethod.values:
        raise Refused.because(_("Payment"), _("Choose a payment method."), field="method")


def certificate_context(registration: Registration, *, case: DesignationCase) -> dict:
    proofs = latest_proofs(case)
    rules = rules_in_force(
        case.jurisdiction, ["dd_min_bond", "dd_microchip_statute"], on=registration.issued_on
    )
    enclosure = proofs.get(Requirement.ENCLOSURE)
    coverage = proofs.get(Requirement.COVERAGE)
    chip = proofs.get(Requirement.MICROCHIP)
    animal, owner = case.animal, registration.owner
    return {
        "registration": {
            "number": registration.number,
            "issued_on": registration.issued_on,
            "expires_on": registration.expires_on,
            "renewal_citation": registration.renewal_citation,
            "fee": registration.fee,
            "receipt": registration.receipt.number if registration.receipt else "",
            "renews": registration.renews.number if registration.renews else "",
        },
        "case": {"number": case.number, "declared_on": case.declared_on},
        "owner": {"name": owner.name, "address": owner.address, "phone": owner.phone},
        "animal": {
            "name": animal.name,
            "species": animal.get_species_display(),
            "breed": animal.breed,
            "color": animal.color,
            "sex": animal.get_sex_display(),
        },
        "enclosure": {"verified_on": enclosure.verified_on, "details": enclosure.details},
        "coverage": {
            "kind": coverage.get_coverage_kind_display(),
            "issuer": coverage.issuer,
            "number": coverage.policy_number,
            "amount": coverage.amount,
            "expires_on": coverage.expires_on,
        },
        "microchip": {
            "number": chip.microchip,
            "manufacturer": chip.microchip_manufacturer,
            "implanted_on": chip.implanted_on,
            "veterinarian": chip.veterinarian,
        },
        "citations": {
            "registration": rule_citation(case.jurisdiction, "DD-01"),
            "renewal": registration.renewal_citation,
            "coverage": rules["dd_min_bond"].citation,
            "fee": registration.receipt.lines.first().authority if registration.receipt else "",
            "microchip": rules["dd_microchip_statute"].value,
        },
    }


def _issue(
    case,
    *,
    fees,
    actor,
    now,
    method,
    reference,
    tendered=None,
    renews: Registration | None,
    expires_on,
    citation,
):
    from notices.services import document_issue

    today = timezone.localdate(now)
    receipt = receipt_create(
        jurisdiction=case.jurisdiction,
        payer=case.owner,
        lines=[fee_line(fees.fee)],
        method=method,
        reference=reference,
        tendered=tendered,
        actor=actor,
        now=now,
    )
    receipt_documents_issue(receipt=receipt, actor=actor, now=now)
    ComplianceProof.objects.create(
        case=case,
        requirement=Requirement.FEE,
        details=_("Annual fee %(fee)s, receipt %(r)s")
        % {"fee": fees.fee.display(), "r": receipt.number},
        amount=fees.fee.amount,
        receipt=receipt,
        verified_on=today,
        verified_by=actor,
    )
    registration = Registration.objects.create(
        case=case,
        jurisdiction=case.jurisdiction,
        number=_number(case),
        owner=case.owner,
        issued_on=today,
        expires_on=expires_on,
        renewal_citation=citation,
        fee=fees.fee.amount,
        receipt=receipt,
        renews=renews,
        issued_by=actor,
    )
    registration.document = document_issue(
        kind="dd_registration",
        template="dangerous_dogs/registration_certificate.html",
        context=certificate_context(registration, case=case),
        jurisdiction=case.jurisdiction,
        actor=actor,
        title=_("Certificate of registration of a dangerous dog"),
        number=registration.number,
        subject=registration,
        owner_user=case.owner.user,
        now=now,
    )
    registration.save(update_fields=["document"])
    return registration


def _check_proofs(case, today, label):
    checklist = compliance_checklist(case, on=today, registration_in_force=False)
    refusal = checklist.refusal(PROVEN_FIRST, label)
    if refusal is not None:
        raise refusal


@refusing()
@transaction.atomic
def registration_issue(
    case: DesignationCase,
    *,
    actor,
    now: datetime | None = None,
    method: str,
    reference: str = "",
    tendered: Decimal | None = None,
) -> Registration:
    """Issue the certificate of registration (C30) and move the case to REGISTERED."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    refuse_unless_serves(actor, case.jurisdiction)
    procedure_or_refuse(case.jurisdiction, on=today)
    case = (
        DesignationCase.objects.select_for_update(of=("self",))
        .select_related("jurisdiction", "animal", "owner__user")
        .get(pk=case.pk)
    )
    case.ensure("register")
    check_dangerous(case, today)
    _check_method(method)
    fees = registration_fee(case.jurisdiction, on=today)  # a blank or capped fee first
    _check_proofs(case, today, _("Registration"))
    expires_on, rule = due_date(case.jurisdiction, TERM_KEY, today)
    registration = _issue(
        case,
        fees=fees,
        actor=actor,
        now=now,
        method=method,
        reference=reference,
        tendered=tendered,
        renews=None,
        expires_on=expires_on,
        citation=rule.citation,
    )
    case.apply(
        "register",
        actor=actor,
        at=now,
        summary=_("Certificate of registration %(n)s issued; renew by %(d)s (%(s)s)")
        % {"n": registration.number, "d": date_format(expires_on), "s": rule.citation},
        citation=rule.citation,
        data={"registration": registration.pk, "receipt": registration.receipt.number},
    )
    return registration


@refusing()
@transaction.atomic
def registration_renew(
    registration: Registration,
    *,
    actor,
    now: datetime | None = None,
    method: str,
    reference: str = "",
    tendered: Decimal | None = None,
) -> Registration:
    """Renew for another term (DD-15): coverage unexpired, the fee charged again."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    case = (
        DesignationCase.objects.select_for_update(of=("self",))
        .select_related("jurisdiction", "animal", "owner__user")
        .get(pk=registration.case_id)
    )
    refuse_unless_serves(actor, case.jurisdiction)
    procedure_or_refuse(case.jurisdiction, on=today)
    if case.status != CaseStatus.REGISTERED:
        raise case.not_now(_("renewing the registration"))
    latest = latest_registration(case)
    if latest is None or latest.pk != registration.pk:
        raise Refused.because(
            _("Registration"),
            _("Certificate %(n)s was renewed already.") % {"n": registration.number},
            registration.renewal_citation,
        )
    _check_method(method)
    fees = registration_fee(case.jurisdiction, on=today)
    _check_proofs(case, today, _("Renewal"))
    start = max(registration.expires_on, today)
    expires_on, rule = due_date(case.jurisdiction, TERM_KEY, start, on=today)
    renewed = _issue(
        case,
        fees=fees,
        actor=actor,
        now=now,
        method=method,
        reference=reference,
        tendered=tendered,
        renews=registration,
        expires_on=expires_on,
        citation=rule.citation,
    )
    Event.record(
        "dangerous_dogs.registration.renewed",
        case,
        actor=actor,
        at=now,
        summary=_("Registration renewed: certificate %(n)s, renew by %(d)s (%(s)s)")
        % {"n": renewed.number, "d": date_format(expires_on), "s": rule.citation},
        data={"registration": renewed.pk, "renews": registration.pk},
    )
    return renewed
