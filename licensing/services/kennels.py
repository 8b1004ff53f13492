"""Kennel licenses: application, review steps, fee, issue, denial, appeal, revocation.

People decide; the software records (architecture.md). Each review step of the city's
profile (``kennel_review_steps``) is a KennelDecision: who decided, in what capacity,
when, the outcome, the reasons and the rule applied. The service gates issuance on every
step being satisfied (KEN-04) and computes fee, expiry and appeal deadline from the
profile (FEE-02, LIC-13, KEN-05, KEN-07). Non-commercial or cat-only applicants are
flagged for a person, never denied by the software (KEN-03).
"""

from datetime import date, datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l

from licensing.models import (
    Animal,
    KennelAnimal,
    KennelDecision,
    KennelLicense,
    KennelStatus,
    LicenseSeries,
    Receipt,
)
from licensing.services.assessment import annual_term, fee_lines, is_late
from licensing.services.documents import receipt_documents_issue
from licensing.services.numbering import license_number_allocate
from licensing.services.receipts import FeeLine, fee_line, receipt_create
from licensing.services.registry import owner_premises
from ordinance.calendar import due_date
from ordinance.fees import fee_amount
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import RuleUnavailable, get_optional, get_rule, get_rules, rule_citation
from ordinance.sweeps import SweepResult, run_sweep

Outcome = KennelDecision.Outcome
SATISFIED = (Outcome.APPROVED, Outcome.CONDITIONS)
REVOCATION_NOTICE = "Revocation notice and hearing"
REVOCATION_DECISION = "Revocation decision"
APPEAL_DECISION = "Council decision on appeal"


KENNEL = _l("Kennel license")


def _refused(message, where, rule: str = "KEN-04") -> Refused:
    """A kennel action the rules or the current state do not allow, citing the section of
    ``where``'s city (a kennel or its owner) for ``rule`` (a rules.md ID)."""
    return Refused.because(KENNEL, message, rule_citation(where.jurisdiction, rule))


def _event(action, kennel, actor, summary, *, at: datetime | None, **data):
    """The Event stamped with when the thing happened (``at``; None: now), so history
    entered after the fact (demo data, paper records) reads in its real order."""
    Event.record(action, kennel, actor=actor, summary=summary, data=data, at=at)


def _require(kennel, *statuses, rule: str = "KEN-04"):
    kennel._require(*statuses, rule=rule)


# --- Application and screening -------------------------------------------------------


@refusing()
def kennel_apply(
    *,
    owner,
    premises,
    business_nature: str,
    dog_count: int,
    cat_count: int,
    cup_reference: str,
    actor,
    on: date,
    became_subject_on: date | None = None,
    now: datetime | None = None,
) -> KennelLicense:
    """Record an application (KEN-03, KEN-04); nothing is decided here."""
    if owner.jurisdiction_id != premises.jurisdiction_id:
        raise _refused(_("The owner and the premises must be in the same city."), owner)
    if became_subject_on and became_subject_on > on:
        raise _refused(
            _("The date the kennel became subject to licensing cannot be after the application."),
            owner,
        )
    with transaction.atomic():
        kennel = KennelLicense.objects.create(
            jurisdiction_id=owner.jurisdiction_id,
            owner=owner,
            premises=premises,
            business_nature=business_nature,
            dog_count=dog_count,
            cat_count=cat_count,
            cup_reference=cup_reference,
            applied_on=on,
            recorded_by=actor,
            became_subject_on=became_subject_on,
        )
        _event(
            "licensing.kennel.applied", kennel, actor, "Kennel license application recorded", at=now
        )
    return kennel


def kennel_premises_for(owner):
    """The owner's address as a Premises of their city: the registry's one rule."""
    return owner_premises(owner)


def kennel_screening(kennel, *, on: date) -> list[str]:
    """Flags for a person to look at (KEN-03): shown, never acted on by the software."""
    flags = []
    cite = {"cite": rule_citation(kennel.jurisdiction, "KEN-03")}  # KEN-03
    min_dogs = _optional_rule(kennel.jurisdiction, "kennel_min_dogs_commercial", on)
    if not kennel.business_nature.strip():
        flags.append(
            _(
                "No commercial business stated: the ordinance's kennel license is for "
                "buying, selling, breeding or boarding; a person must decide the "
                "route (%(cite)s)."
            )
            % cite
        )
    if kennel.dog_count == 0 and kennel.cat_count:
        flags.append(
            _(
                "Cats only: the kennel license as written covers dogs; a person must "
                "decide the route (%(cite)s)."
            )
            % cite
        )
    if min_dogs is not None and min_dogs.value is not None and kennel.dog_count < min_dogs.value:
        flags.append(
            _(
                "Fewer than %(n)s dogs (%(cite)s): a person must decide whether a kennel "
                "license applies."
            )
            % {"n": min_dogs.value, "cite": min_dogs.citation}
        )
    requires_cup = _optional_rule(kennel.jurisdiction, "kennel_requires_cup", on)
    if requires_cup is not None and requires_cup.value is True and not kennel.cup_reference:
        flags.append(
            _("No conditional use permit reference yet (%(cite)s).")
            % {"cite": requires_cup.citation}
        )
    return flags


def _optional_rule(jurisdiction, key, on):
    try:
        return get_optional(jurisdiction, key, on=on)
    except RuleUnavailable:
        return None


# --- Review steps -------------------------------------------------------------------


@refusing()
def review_steps(kennel, *, on: date):
    """The profile's review steps (KEN-04) as a Rule: ``.value`` is the list of names."""
    return get_rule(kennel.jurisdiction, "kennel_review_steps", on=on)


def _fresh_decisions(kennel) -> list[KennelDecision]:
    """Read from the database: a page's prefetched ``decisions`` may predate this change."""
    return list(KennelDecision.objects.filter(kennel_license=kennel).order_by("decided_on", "pk"))


@refusing()
def step_progress(kennel, *, on: date, decisions=None) -> list[tuple[str, KennelDecision | None]]:
    """Each review step with its latest recorded decision (pages pass none: prefetched)."""
    latest = {}
    for decision in kennel.decisions.all() if decisions is None else decisions:
        latest[decision.step] = decision
    return [(step, latest.get(step)) for step in review_steps(kennel, on=on).value]


@refusing()
def steps_outstanding(kennel, *, on: date) -> list[str]:
    return [
        step
        for step, d in step_progress(kennel, on=on, decisions=_fresh_decisions(kennel))
        if d is None or d.outcome not in SATISFIED
    ]


@refusing()
def kennel_decision_record(
    *,
    kennel,
    step: str,
    outcome: str,
    decided_by_name: str,
    decided_by_capacity: str,
    decided_on: date,
    reasons: str,
    actor,
    conditions: str = "",
    now: datetime | None = None,
) -> KennelDecision:
    """Record one review step's outcome, decided by a person (KEN-04).

    A denial goes through ``kennel_deny`` (it starts the appeal clock).
    """
    _require(kennel, KennelStatus.APPLIED, KennelStatus.UNDER_REVIEW, KennelStatus.APPROVED)
    rule = review_steps(kennel, on=decided_on)
    if step not in rule.value:
        raise _refused(_("“%(step)s” is not a review step of this city.") % {"step": step}, kennel)
    if outcome == Outcome.DENIED:
        raise _refused(
            _(
                "Use “Deny” to record a denial; it records the notification and the appeal "
                "deadline."
            ),
            kennel,
        )
    with transaction.atomic():
        decision = _decision(
            kennel,
            step,
            outcome,
            decided_by_name,
            decided_by_capacity,
            decided_on,
            reasons,
            rule.citation,
            actor,
        )
        remaining = steps_outstanding(kennel, on=decided_on)
        kennel.review(
            actor=actor,
            step=step,
            outcome=outcome,
            complete=not remaining,
            conditions=conditions,
            at=now,
        )
    return decision


def _decision(kennel, step, outcome, name, capacity, on, reasons, citation, actor):
    return KennelDecision.objects.create(
        kennel_license=kennel,
        step=step,
        outcome=outcome,
        decided_by_name=name,
        decided_by_capacity=capacity,
        decided_on=on,
        reasons=reasons,
        citation=citation,
        recorded_by=actor,
    )


# --- Fee and issuance -----------------------------------------------------------------


KENNEL_TERM_KEYS = (
    "kennel_license_expiry",
    "renewal_window_days_before_term",
    "renewal_window_days_after_term_start",
    "new_subject_grace_days",
    "late_penalty_rate",
)


def _kennel_term_rules(kennel, *, on: date) -> dict | None:
    """The term and penalty rules, or None where the ordinance sets no kennel term or no
    penalty (Glencoe: KEN-05 blank, LIC-13 not in ordinance): then no penalty applies."""
    try:
        return get_rules(kennel.jurisdiction, KENNEL_TERM_KEYS, on=on)
    except RuleUnavailable:
        return None


def kennel_term(kennel, *, on: date, rules=None) -> tuple[date, date, bool] | None:
    """(term_start, expires_on, renewal) of a kennel license paid on ``on`` (KEN-05), by
    the same annual-term rule as dog licenses; None where the city sets no term."""
    rules = rules or _kennel_term_rules(kennel, on=on)
    if rules is None:
        return None
    return annual_term(
        expiry_md=rules["kennel_license_expiry"].value,
        on=on,
        days_before=rules["renewal_window_days_before_term"].value,
    )


def kennel_is_late(kennel, *, on: date, rules=None) -> bool:
    """LIC-13 for kennels (NB Sec. 6-65(c)): the dog license's lateness rule, with the
    new-subject grace counted from ``kennel.became_subject_on``."""
    rules = rules or _kennel_term_rules(kennel, on=on)
    if rules is None:
        return False
    term_start, _expires, renewal = kennel_term(kennel, on=on, rules=rules)
    return is_late(
        on=on,
        term_start=term_start,
        subject_on=kennel.became_subject_on,
        renewal=renewal,
        rules=rules,
    )


@refusing()
def kennel_fee_lines(kennel, *, on: date) -> list[FeeLine]:
    """The kennel fee (FEE-02) and, when late, the penalty (LIC-13, FEE-03), by the same
    fee-line code as dog licenses. Raises FeeNotSet (a RuleUnavailable) while the council
    has set no fee."""
    fee = fee_amount(kennel.jurisdiction, "kennel_license", on=on)
    rules = _kennel_term_rules(kennel, on=on)
    late = kennel_is_late(kennel, on=on, rules=rules) if rules else False
    return fee_lines(
        fee,
        late=late,
        rate=rules["late_penalty_rate"] if rules else None,
        penalty_code="kennel_license_late_penalty",
    )


@refusing()
def kennel_fee_collect(*, kennel, method: str, reference: str, actor, now: datetime) -> Receipt:
    """Take the fee and issue a numbered receipt (LIC-06, REC-01) through the one receipt
    service; Glencoe takes it with the application (701 Subd. 4(C)), North Branch at the
    latest when issuing."""
    if kennel.fee_paid:
        raise _refused(
            _("The kennel fee has already been paid (receipt %(n)s).")
            % {"n": kennel.receipt.number},
            kennel,
        )
    _require(kennel, KennelStatus.APPLIED, KennelStatus.UNDER_REVIEW, KennelStatus.APPROVED)
    on = timezone.localdate(now)
    lines = kennel_fee_lines(kennel, on=on)  # FEE-02: a fee not yet set refuses (FeeNotSet)
    with transaction.atomic():
        kennel = KennelLicense.objects.select_for_update().select_related("owner").get(pk=kennel.pk)
        if kennel.fee_paid:
            raise _refused(_("The kennel fee has already been paid."), kennel)
        receipt = receipt_create(
            jurisdiction=kennel.jurisdiction,
            payer=kennel.owner,
            lines=lines,
            method=method,
            reference=reference,
            actor=actor,
            now=now,
        )
        kennel.receipt = receipt
        kennel.save(update_fields=["receipt"])
        _event(
            "licensing.kennel.fee_paid",
            kennel,
            actor,
            f"Receipt {receipt.number}",
            at=now,
            receipt=receipt.number,
            total=str(receipt.total),
        )
        receipt_documents_issue(receipt=receipt, actor=actor, now=now)  # REC-01
    return receipt


@refusing()
def kennel_fee_replace(*, kennel, method: str, reference: str, actor, now: datetime) -> Receipt:
    """Take an issued kennel license's fee again (the first payment failed: a bounced
    check), on a new receipt with the same lines, so the first receipt can then be voided
    without leaving the license unpaid (LIC-06, REC-01, KEN-08)."""
    with transaction.atomic():
        kennel = KennelLicense.objects.select_for_update().get(pk=kennel.pk)
        _require(kennel, *ISSUED)
        if not kennel.fee_paid:
            raise _refused(
                _(
                    "This license's fee receipt is already voided; revoke the "
                    "license or take the fee with a new payment (rules.md KEN-08)."
                ),
                kennel,
            )
        old = kennel.receipt
        lines = [
            FeeLine(ln.code, ln.description, ln.amount, ln.authority) for ln in old.lines.all()
        ]
        receipt = receipt_create(
            jurisdiction=kennel.jurisdiction,
            payer=kennel.owner,
            lines=lines,
            method=method,
            reference=reference,
            actor=actor,
            now=now,
        )
        kennel.receipt = receipt
        kennel._change_reason = f"Fee receipt {old.number} replaced by {receipt.number}"
        kennel.save(update_fields=["receipt"])
        Event.record(
            "licensing.kennel.fee_replaced",
            kennel,
            actor=actor,
            at=now,
            summary=f"Fee receipt {old.number} replaced by receipt {receipt.number}",
            data={
                "old_receipt": old.number,
                "receipt": receipt.number,
                "total": str(receipt.total),
            },
        )
        receipt_documents_issue(receipt=receipt, actor=actor, now=now)  # REC-01
    return receipt


def kennel_fee_voided_reason(kennel) -> str:
    """Why an application whose fee receipt was voided needs the fee again, else ""."""
    if kennel.receipt_id is None or kennel.fee_paid:
        return ""
    return _(
        "The kennel fee receipt %(n)s was voided (void receipt %(v)s): the fee must be "
        "paid again before the license can be issued (rules.md LIC-06)."
    ) % {"n": kennel.receipt.number, "v": kennel.receipt.voided_by.number}


ISSUED = (KennelStatus.ACTIVE, KennelStatus.EXPIRED)


def kennel_receipt_void_refusal(receipt: Receipt) -> str:
    """Why this receipt cannot be voided, else "" (LIC-06, KEN-08): it paid the fee of an
    issued kennel license, and money and license must never disagree. Locks the kennel
    licenses it paid for (call inside ``receipt_void``'s transaction), so an issuance
    running now waits and then sees the void."""
    kennels = list(KennelLicense.objects.select_for_update().filter(receipt=receipt).order_by("pk"))
    issued = [k.number for k in kennels if k.status in ISSUED]
    if not issued:
        return ""
    return _(
        "Receipt %(n)s paid the fee of kennel license %(k)s, which has been issued: "
        "voiding it would leave an issued license unpaid. Revoke the license first "
        "(notice, hearing and decision, rules.md KEN-08), or take the fee again on the "
        "license's page (“Replace the fee payment”) and then void this receipt."
    ) % {"n": receipt.number, "k": ", ".join(issued)}


def kennel_receipt_voided(*, receipt: Receipt, void: Receipt, actor, now: datetime):
    """Record on each kennel license the receipt paid for that its fee was voided: an
    application not yet issued (or denied, or revoked) needs the fee again before it can
    be issued (``KennelLicense.fee_paid``). Called by ``receipt_void`` after
    ``kennel_receipt_void_refusal`` found nothing to refuse."""
    for kennel in KennelLicense.objects.filter(receipt=receipt).order_by("pk"):
        Event.record(
            "licensing.kennel.fee_voided",
            kennel,
            actor=actor,
            at=now,
            summary=f"Fee receipt {receipt.number} voided by receipt {void.number}; "
            f"the fee is due again",
            data={"receipt": receipt.number, "void_receipt": void.number, "status": kennel.status},
        )


def kennel_expiry(kennel, *, on: date) -> date | None:
    """Expiry per ``kennel_license_expiry`` (NB Dec 31, KEN-05), for the term the fee paid
    on ``on`` is for (from Dec 2 the next term, LIC-13); None where the ordinance sets no
    term (Glencoe 701 Subd. 4): valid until revoked, and the pages warn."""
    try:
        rule = get_rule(kennel.jurisdiction, "kennel_license_expiry", on=on)
    except RuleUnavailable:
        return None
    term = kennel_term(kennel, on=on)
    return term[1] if term else rule.value.on_year(on.year)


def kennel_term_warning(kennel, *, on: date) -> str:
    """The RuleNotSet sentence when the city's ordinance sets no kennel term, else ""."""
    try:
        get_rule(kennel.jurisdiction, "kennel_license_expiry", on=on)
    except RuleUnavailable as exc:
        return str(exc)
    return ""


@refusing()
def kennel_issue(*, kennel, actor, now: datetime, method: str = "", reference: str = ""):
    """Issue an approved kennel license (KEN-04): every review step satisfied, fee paid."""
    on = timezone.localdate(now)
    _require(kennel, KennelStatus.APPROVED)
    outstanding = steps_outstanding(kennel, on=on)
    if outstanding and not _appeal_granted(kennel):
        raise _refused(
            _("Not every review step is recorded as satisfied: %(steps)s.")
            % {"steps": "; ".join(outstanding)},
            kennel,
        )
    if not kennel.fee_paid:
        if not method:
            raise _refused(
                kennel_fee_voided_reason(kennel)
                or _("Take the kennel fee first (choose a payment method)."),
                kennel,
            )
        kennel_fee_collect(kennel=kennel, method=method, reference=reference, actor=actor, now=now)
    with transaction.atomic():
        # Locked and re-read: a receipt void running now either sees the license issued
        # (and is refused) or has voided the fee first (and issuance is refused here).
        KennelLicense.objects.select_for_update().filter(pk=kennel.pk).exists()
        kennel.refresh_from_db()
        _require(kennel, KennelStatus.APPROVED)
        if not kennel.fee_paid:
            raise _refused(
                kennel_fee_voided_reason(kennel)
                or _("Take the kennel fee first (choose a payment method)."),
                kennel,
            )
        kennel.issue(
            actor=actor,
            on=on,
            expires_on=kennel_expiry(kennel, on=on),
            at=now,
            number=license_number_allocate(
                jurisdiction=kennel.jurisdiction, kind=LicenseSeries.Kind.KENNEL, year=on.year
            ),
        )
        # REC-17, KEN-07: the license PDF with its conditions, in the same use case.
        kennel_document_issue(kennel=kennel, actor=actor, now=now)
    return kennel


def _appeal_granted(kennel) -> bool:
    return any(
        d.step == APPEAL_DECISION and d.outcome in SATISFIED for d in _fresh_decisions(kennel)
    )


# --- Denial, appeal, final denial ---------------------------------------------------------


@refusing()
def kennel_deny(
    *,
    kennel,
    step: str,
    decided_by_name: str,
    decided_by_capacity: str,
    decided_on: date,
    reasons: str,
    actor,
    notified_on: date | None = None,
    now: datetime | None = None,
):
    """Record a denial at a review step (KEN-04, KEN-07); the notification starts the clock."""
    _require(kennel, KennelStatus.APPLIED, KennelStatus.UNDER_REVIEW, KennelStatus.APPROVED)
    rule = review_steps(kennel, on=decided_on)
    if step not in rule.value:
        raise _refused(_("“%(step)s” is not a review step of this city.") % {"step": step}, kennel)
    with transaction.atomic():
        _decision(
            kennel,
            step,
            Outcome.DENIED,
            decided_by_name,
            decided_by_capacity,
            decided_on,
            reasons,
            rule.citation,
            actor,
        )
        kennel.deny(actor=actor, step=step, on=decided_on, at=now)
        if notified_on:
            kennel_denial_notified(kennel=kennel, notified_on=notified_on, actor=actor, now=now)
    return kennel


@refusing()
def kennel_denial_notified(*, kennel, notified_on: date, actor, now: datetime | None = None):
    """The applicant was notified: appeal deadline = notification + the appeal days (KEN-07)."""
    _require(kennel, KennelStatus.DENIED, rule="KEN-07")
    if kennel.denied_on and notified_on < kennel.denied_on:
        raise _refused(_("The notification cannot come before the denial."), kennel, "KEN-07")
    deadline = None
    if get_optional(kennel.jurisdiction, "kennel_denial_appeal_days", on=notified_on):
        deadline, _rule = due_date(kennel.jurisdiction, "kennel_denial_appeal_days", notified_on)
    kennel.denial_notified_on = notified_on
    kennel.appeal_deadline = deadline
    kennel.save(update_fields=["denial_notified_on", "appeal_deadline"])
    _event(
        "licensing.kennel.denial_notified",
        kennel,
        actor,
        "Denial notified",
        at=now,
        notified_on=notified_on.isoformat(),
        appeal_deadline=deadline.isoformat() if deadline else None,
    )
    return kennel


def appeal_rule(kennel, *, on: date):
    return _optional_rule(kennel.jurisdiction, "kennel_denial_appeal_days", on)


@refusing()
def kennel_appeal_file(*, kennel, filed_on: date, actor, now: datetime | None = None):
    """The applicant appealed to the Council within the deadline (KEN-07)."""
    _require(kennel, KennelStatus.DENIED, rule="KEN-07")
    if kennel.appeal_deadline is None:
        raise _refused(
            _(
                "This city's ordinance provides no appeal of a kennel denial, or "
                "the notification date is not recorded yet."
            ),
            kennel,
            "KEN-07",
        )
    if filed_on > kennel.appeal_deadline:
        rule = appeal_rule(kennel, on=filed_on)
        raise Refused.because(
            KENNEL,
            _(
                "The appeal deadline was %(deadline)s (%(cite)s); an appeal filed on %(filed)s "
                "is late."
            )
            % {
                "deadline": kennel.appeal_deadline,
                "filed": filed_on,
                "cite": rule.citation if rule else "",
            },
            rule.citation if rule else rule_citation(kennel.jurisdiction, "KEN-07"),
        )
    kennel.appeal(actor=actor, filed_on=filed_on, at=now)
    return kennel


@refusing()
def kennel_appeal_decide(
    *,
    kennel,
    granted: bool,
    conditions: str,
    decided_by_name: str,
    decided_by_capacity: str,
    decided_on: date,
    reasons: str,
    actor,
    now: datetime | None = None,
):
    """The Council grants (with conditions) or denies the appeal (KEN-07, Subd. 4(E))."""
    _require(kennel, KennelStatus.APPEALED, rule="KEN-07")
    rule = appeal_rule(kennel, on=decided_on)
    approved = Outcome.CONDITIONS if conditions else Outcome.APPROVED
    outcome = approved if granted else Outcome.DENIED
    with transaction.atomic():
        _decision(
            kennel,
            APPEAL_DECISION,
            outcome,
            decided_by_name,
            decided_by_capacity,
            decided_on,
            reasons,
            rule.citation if rule else "",
            actor,
        )
        kennel.decide_appeal(actor=actor, granted=granted, conditions=conditions, at=now)
    return kennel


def kennel_denials_finalise(*, now: datetime, dry_run: bool = False) -> SweepResult:
    """A denial not appealed by its deadline becomes final (KEN-07): the day after it."""
    today = timezone.localdate(now)
    return run_sweep(
        name="kennel denials become final",
        action="licensing.kennel.denied_final",
        due=KennelLicense.objects.filter(status=KennelStatus.DENIED, appeal_deadline__lt=today),
        still_applies=lambda k: k.status == KennelStatus.DENIED,
        transition=_finalise,
        now=now,
        dry_run=dry_run,
        transition_records=True,
    )


def _finalise(kennel, now):
    kennel.finalise_denial(actor=None, at=now, summary="kennel denials become final (automatic)")


# --- Revocation (KEN-08) --------------------------------------------------------------------


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
    """Notice of the alleged violation and of the hearing (Glencoe 701 Subd. 4(F))."""
    _require(kennel, KennelStatus.ACTIVE, rule="KEN-08")
    if hearing_on < served_on:
        raise _refused(_("The hearing must come after the notice is served."), kennel, "KEN-08")
    reasons = _("Hearing on %(hearing)s. %(reasons)s") % {"hearing": hearing_on, "reasons": reasons}
    decision = _decision(
        kennel,
        REVOCATION_NOTICE,
        Outcome.REFERRED,
        decided_by_name,
        decided_by_capacity,
        served_on,
        reasons,
        rule_citation(kennel.jurisdiction, "KEN-08"),
        actor,
    )
    _event(
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
    decided_by_name: str,
    decided_by_capacity: str,
    decided_on: date,
    reasons: str,
    actor,
    now: datetime | None = None,
):
    """After notice and hearing the Council revokes or keeps the license (KEN-08)."""
    _require(kennel, KennelStatus.ACTIVE, rule="KEN-08")
    notice = next(
        (d for d in reversed(_fresh_decisions(kennel)) if d.step == REVOCATION_NOTICE), None
    )
    if notice is None:
        raise _refused(_("Revocation needs notice and a hearing first."), kennel, "KEN-08")
    if decided_on < notice.decided_on:
        raise _refused(_("The decision cannot come before the notice."), kennel, "KEN-08")
    with transaction.atomic():
        _decision(
            kennel,
            REVOCATION_DECISION,
            Outcome.DENIED if revoke else Outcome.APPROVED,
            decided_by_name,
            decided_by_capacity,
            decided_on,
            reasons,
            rule_citation(kennel.jurisdiction, "KEN-08"),
            actor,
        )
        if revoke:
            kennel.revoke(actor=actor, at=now)
        else:
            _event(
                "licensing.kennel.revocation_decided",
                kennel,
                actor,
                "Revocation refused",
                at=now,
                revoked=False,
            )
    return kennel


# --- Animals and the license document ----------------------------------------------------------


@refusing()
def kennel_animal_add(
    *, kennel, animal: Animal, on: date, actor, now: datetime | None = None
) -> KennelAnimal:
    """List an animal under the license; one that was removed earlier is listed again
    (the history keeps both periods)."""
    if animal.jurisdiction_id != kennel.jurisdiction_id:
        raise _refused(_("That animal is registered in another city."), kennel)
    member = kennel.kennel_animals.filter(animal=animal).first()
    if member is not None and member.removed_on is None:
        raise _refused(_("That animal is already listed under this kennel license."), kennel)
    if member is None:
        member = KennelAnimal.objects.create(kennel_license=kennel, animal=animal, added_on=on)
    else:
        member.added_on, member.removed_on = on, None
        member.save(update_fields=["added_on", "removed_on"])
    _event(
        "licensing.kennel.animal_added", kennel, actor, f"{animal} added", at=now, animal=animal.pk
    )
    return member


@refusing()
def kennel_animal_remove(
    *, kennel, animal: Animal, on: date, actor, now: datetime | None = None
) -> KennelAnimal:
    """The animal is no longer kept under the license (sold, died, moved): ``removed_on``."""
    member = kennel.kennel_animals.filter(animal=animal, removed_on__isnull=True).first()
    if member is None:
        raise _refused(_("That animal is not listed under this kennel license."), kennel)
    if on < member.added_on:
        raise _refused(
            _("The removal cannot come before the animal was added (%(d)s).")
            % {"d": member.added_on},
            kennel,
        )
    member.removed_on = on
    member.save(update_fields=["removed_on"])
    _event(
        "licensing.kennel.animal_removed",
        kennel,
        actor,
        f"{animal} removed",
        at=now,
        animal=animal.pk,
        on=on.isoformat(),
    )
    return member


def kennel_transfer_fee(kennel, *, on: date):
    """The transfer fee in force (LIC-12), or the sentence saying why there is none."""
    try:
        return fee_amount(kennel.jurisdiction, "transfer", on=on)
    except RuleUnavailable as exc:
        return str(exc)


@refusing()
def kennel_transfer(
    *,
    kennel,
    new_owner,
    actor,
    on: date,
    method: str,
    reference: str = "",
    now: datetime | None = None,
) -> Receipt:
    """LIC-12 for kennels (NB Sec. 6-65(d)): the new owner takes over the current license,
    same number and expiry, for the transfer fee; a city without the fee cannot transfer."""
    now = now or timezone.now()
    if new_owner.pk == kennel.owner_id or new_owner.jurisdiction_id != kennel.jurisdiction_id:
        raise _refused(_("Choose a different owner in the same city."), kennel, "LIC-12")
    fee = fee_amount(kennel.jurisdiction, "transfer", on=on)  # LIC-12: no fee, no transfer
    with transaction.atomic():
        kennel = KennelLicense.objects.select_for_update().select_related("owner").get(pk=kennel.pk)
        if not kennel.is_current(on):
            raise _refused(_("Only a current kennel license can be transferred."), kennel, "LIC-12")
        previous = kennel.owner
        receipt = receipt_create(
            jurisdiction=kennel.jurisdiction,
            payer=new_owner,
            lines=[fee_line(fee)],
            method=method,
            reference=reference,
            actor=actor,
            now=now,
        )
        kennel.owner = new_owner
        kennel._change_reason = f"Transferred, receipt {receipt.number}"
        kennel.save(update_fields=["owner"])
        _event(
            "licensing.kennel.transferred",
            kennel,
            actor,
            f"{previous.name} → {new_owner.name}",
            at=now,
            from_owner=previous.pk,
            to_owner=new_owner.pk,
            receipt=receipt.number,
        )
        # LIC-12, REC-01: the new owner's receipt and the license in their name.
        receipt_documents_issue(receipt=receipt, actor=actor, now=now)
        kennel_document_issue(kennel=kennel, actor=actor, now=now)
    return receipt


@refusing()
def kennel_document_issue(*, kennel, actor, now: datetime):
    """The kennel license PDF with its conditions (REC-17, KEN-07), archived as issued."""
    from notices.services import document_issue

    _require(kennel, KennelStatus.ACTIVE)
    on = timezone.localdate(now)
    context = {
        "number": kennel.number,
        "owner_name": kennel.owner.name,
        "owner_address": kennel.owner.address,
        "premises": kennel.premises.address,
        "business_nature": kennel.business_nature,
        "dog_count": kennel.dog_count,
        "cat_count": kennel.cat_count,
        "cup_reference": kennel.cup_reference,
        "conditions": [c for c in kennel.conditions.splitlines() if c.strip()],
        "issued_on": kennel.issued_on,
        "expires_on": kennel.expires_on,
        "term_warning": kennel_term_warning(kennel, on=on),
        "decisions": [
            {
                "step": d.step,
                "outcome": d.get_outcome_display(),
                "by": d.decided_by_name,
                "capacity": d.decided_by_capacity,
                "on": d.decided_on,
                "citation": d.citation,
            }
            for d in _fresh_decisions(kennel)
        ],
        "animals": [
            {
                "name": m.animal.name,
                "species": m.animal.get_species_display(),
                "breed": m.animal.breed,
            }
            for m in kennel.kennel_animals.select_related("animal")
            if m.removed_on is None
        ],
        "citation": review_steps(kennel, on=on).citation,
    }
    return document_issue(
        kind="kennel_license",
        template="kennel_license.html",
        context=context,
        jurisdiction=kennel.jurisdiction,
        actor=actor,
        title=_("Kennel license"),
        number=kennel.number,
        subject=kennel,
        owner_user=kennel.owner.user if kennel.owner.user_id else None,
        now=now,
    )
