"""The owner's request to review a dangerous designation (DD-25, C35; Minn. Stat. 347.51
subd. 3a, MN-06).

From ``dd_review_first_after_months`` after the declaration, and then not within
``dd_review_frequency`` months of the previous request ("annually"): a refusal names the
first date a request is possible and the section. The owner shows that the dog's
behavior changed (age, neutering, environment, obedience training that includes
modifying aggressive behavior, other factors). The authority's decision is a
``notices.Decision`` (kind ``dd_review``): *rescind* closes the case as rescinded,
*uphold* leaves it in force. Only a dangerous designation is reviewed (DD-30).
"""

from datetime import date, datetime

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from dangerous_dogs.models import (
    Designation,
    DesignationCase,
    ReviewRequest,
)
from kernel.checks import refuse_if_future, refuse_unless_serves
from notices.models import Decision, DecisionOutcome
from ordinance.models import Event
from ordinance.refusals import Refused, refusing
from ordinance.rules import rule_in_force

from .common import deadline, locked, procedure_or_refuse

REVIEW_KIND = "dd_review"
REASONS = ("age", "neutering", "environment", "training")
RESCIND, UPHOLD = "rescind", "uphold"
# The designation is reviewed: "not upheld" is a rescission, as for the panel's finding.
OUTCOMES = {RESCIND: DecisionOutcome.NOT_UPHELD, UPHOLD: DecisionOutcome.UPHELD}


def review_opens_on(case: DesignationCase, last: ReviewRequest | None) -> tuple[date, str]:
    """The first date the owner may ask for a review, and the section that sets it."""
    first, citation = deadline(case.jurisdiction, "dd_review_first_after_months", case.declared_on)
    if last is not None:
        again, again_citation = deadline(
            case.jurisdiction, "dd_review_frequency", last.requested_on
        )
        if again > first:
            return again, again_citation
    return first, citation


def _dangerous_in_force(case: DesignationCase) -> None:
    if not (case.in_force and case.declared_designation == Designation.DANGEROUS):
        raise Refused.because(
            _("Dangerous-dog case"),
            _("Case %(n)s is %(status)s: a review is of a dangerous designation in force.")
            % {"n": case.number, "status": case.get_status_display().lower()},
        )


@refusing()
@transaction.atomic
def review_request(
    *,
    case: DesignationCase,
    requested_on: date,
    reasons,
    evidence: str,
    actor,
    other: str = "",
    evidence_file=None,
    now: datetime | None = None,
) -> ReviewRequest:
    """Record the owner's request, if the ordinance allows one on ``requested_on``."""
    now = now or timezone.now()
    today = timezone.localdate(now)
    case = locked(case)
    refuse_unless_serves(actor, case.jurisdiction)
    procedure_or_refuse(case.jurisdiction, on=today)
    _dangerous_in_force(case)
    refuse_if_future(requested_on, _("Requested on"), field="requested_on", today=today)
    citation = _check_when(case, requested_on)
    chosen = set(reasons or ())
    _check_grounds(chosen, other, evidence, citation)
    request = ReviewRequest(
        case=case,
        requested_on=requested_on,
        changed_by_age="age" in chosen,
        changed_by_neutering="neutering" in chosen,
        changed_by_environment="environment" in chosen,
        changed_by_training="training" in chosen,
        changed_by_other=other.strip()[:200],
        evidence=evidence.strip(),
        recorded_by=actor,
    )
    if evidence_file:
        request.evidence_file = evidence_file
    request.save()
    Event.record(
        "dangerous_dogs.review.requested",
        case,
        actor=actor,
        at=now,
        summary=_("Review of the designation requested on %(date)s (%(section)s)")
        % {"date": date_format(requested_on), "section": citation},
        data={"review": request.pk, "reasons": sorted(chosen), "other": request.changed_by_other},
    )
    return request


def _check_when(case: DesignationCase, requested_on: date) -> str:
    """A request only once the last is decided, and not before the ordinance allows the
    next one; the section that sets the date."""
    requests = list(case.reviews.order_by("requested_on", "pk"))
    last = requests[-1] if requests else None
    if last is not None and last.decision_id is None:
        raise Refused.because(
            _("Review"),
            _("The request of %(date)s is not decided yet.")
            % {"date": date_format(last.requested_on)},
        )
    opens_on, citation = review_opens_on(case, last)
    if requested_on >= opens_on:
        return citation
    if last is None:
        message = _(
            "A review may be asked for from %(date)s, %(after)s after the declaration of "
            "%(declared)s."
        )
    else:
        message = _(
            "A review may be asked for again from %(date)s, %(after)s after the request of "
            "%(last)s."
        )
    key = "dd_review_first_after_months" if last is None else "dd_review_frequency"
    rule = rule_in_force(case.jurisdiction, key, on=requested_on)
    raise Refused.because(
        _("Requested on"),
        message
        % {
            "date": date_format(opens_on),
            "after": rule.display(),
            "declared": date_format(case.declared_on),
            "last": date_format(last.requested_on) if last else "",
        },
        citation,
        field="requested_on",
    )


def _check_grounds(chosen: set, other: str, evidence: str, citation: str) -> None:
    if chosen - set(REASONS) or not (chosen or other.strip()):
        raise Refused.because(
            _("Reasons"),
            _(
                "Say why the dog's behavior changed: age, neutering, environment, training or "
                "another factor."
            ),
            citation,
            field="reasons",
        )
    if not evidence.strip():
        raise Refused.because(
            _("Evidence"),
            _("Describe the evidence that the dog's behavior changed."),
            citation,
            field="evidence",
        )


@refusing()
@transaction.atomic
def review_decide(
    *,
    request: ReviewRequest,
    outcome: str,
    decided_by_name: str,
    capacity: str,
    decided_on: date,
    reasons: str,
    actor,
    now: datetime | None = None,
) -> Decision:
    """The authority's decision: rescind (the case closes) or uphold; recorded once."""
    now = now or timezone.now()
    request = (
        ReviewRequest.objects.select_for_update(of=("self",))
        .select_related("case__jurisdiction")
        .get(pk=request.pk)
    )
    case = DesignationCase.objects.select_for_update(of=("self",)).get(pk=request.case_id)
    jurisdiction = request.case.jurisdiction
    refuse_unless_serves(actor, jurisdiction)
    citation = deadline(jurisdiction, "dd_review_first_after_months", case.declared_on)[1]
    if request.decision_id:
        raise Refused.because(_("Review"), _("This request is decided already."), citation)
    if outcome not in OUTCOMES:
        raise Refused.because(
            _("Decision"), _("Choose rescind or uphold."), citation, field="outcome"
        )
    _check_decision(
        request,
        {"decided_by_name": decided_by_name, "capacity": capacity, "reasons": reasons},
        decided_on,
        timezone.localdate(now),
        citation,
    )
    if outcome == RESCIND:
        _dangerous_in_force(case)
    decision = Decision.objects.create(
        jurisdiction=jurisdiction,
        subject_type=ContentType.objects.get_for_model(DesignationCase),
        subject_id=case.pk,
        kind=REVIEW_KIND,
        outcome=OUTCOMES[outcome],
        decided_by_name=decided_by_name.strip(),
        decided_by_capacity=capacity.strip(),
        decided_on=decided_on,
        reasons=reasons.strip(),
        evidence=request.evidence,
        citation=citation,
        recorded_by=actor,
    )
    request.decision = decision
    request.save(update_fields=["decision"])
    _apply_decision(case, request, outcome, actor=actor, now=now)
    return decision


def _check_decision(request, texts: dict, decided_on: date, today: date, citation: str) -> None:
    labels = {
        "decided_by_name": (_("Decided by"), _("Name who decided.")),
        "capacity": (_("Capacity"), _("Say in which capacity.")),
        "reasons": (_("Reasons"), _("Give the reasons.")),
    }
    errors = [
        Refused.because(label, message, citation, field=field).checks[0]
        for field, (label, message) in labels.items()
        if not texts[field].strip()
    ]
    if errors:
        raise Refused(errors)
    refuse_if_future(decided_on, _("Decided on"), field="decided_on", today=today)
    if decided_on < request.requested_on:
        raise Refused.because(
            _("Decided on"),
            _("The decision cannot come before the request (%(date)s).")
            % {"date": date_format(request.requested_on)},
            citation,
            field="decided_on",
        )


def _apply_decision(case, request, outcome: str, *, actor, now) -> None:
    """Rescinded, the case closes; upheld, the designation stays in force."""
    decision = request.decision
    words = {
        "who": decision.decided_by_name,
        "date": date_format(decision.decided_on),
        "section": decision.citation,
    }
    data = {"review": request.pk, "decision": decision.pk}
    if outcome != RESCIND:
        Event.record(
            "dangerous_dogs.review.upheld",
            case,
            actor=actor,
            at=now,
            summary=_("Designation upheld on review by %(who)s on %(date)s (%(section)s)") % words,
            data=data,
        )
        return
    case.closed_on = decision.decided_on
    case.closing_note = str(_("Designation rescinded on review"))
    case.apply(
        "rescind",
        actor=actor,
        at=now,
        summary=_("Designation rescinded on review by %(who)s on %(date)s (%(section)s)") % words,
        citation=decision.citation,
        data=data,
        fields=["closed_on", "closing_note"],
    )
