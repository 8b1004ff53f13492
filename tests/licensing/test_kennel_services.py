"""Kennel licenses: review steps recorded as decisions, fee, issue, denial and appeal,
revocation (KEN-03..08, FEE-02, LIC-13). People decide; the software records and gates."""

from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.utils import timezone

from licensing.models import KennelDecision, KennelStatus
from licensing.services.kennels.animals import kennel_animal_add, kennel_animal_remove
from licensing.services.kennels.applications import (
    KennelRequest,
    kennel_apply,
    kennel_decision_record,
    kennel_premises_for,
    kennel_screening,
    step_progress,
)
from licensing.services.kennels.common import DecidedBy
from licensing.services.kennels.denials import (
    appeal_rule,
    kennel_appeal_decide,
    kennel_appeal_file,
    kennel_denials_finalise,
    kennel_deny,
)
from licensing.services.kennels.documents import kennel_document_issue
from licensing.services.kennels.issuance import kennel_issue
from licensing.services.kennels.payments import kennel_fee_collect, kennel_fee_lines
from licensing.services.kennels.revocations import (
    REVOCATION_DECISION,
    REVOCATION_NOTICE,
    kennel_revocation_decide,
    kennel_revocation_notice,
)
from licensing.services.kennels.terms import kennel_expiry, kennel_term_warning
from notices.services import document_pdf
from ordinance.models import Event
from ordinance.refusals import Refused
from tests.licensing.factories import AnimalFactory, OwnerFactory
from tests.pdf import pdf_text

CHICAGO = ZoneInfo("America/Chicago")
NB_STEPS = [
    "CUP approved by Council",
    "Zoning and CUP conditions met",
    "Minn. Stat. 347.30-347.40 complied with",
]
GL_STEPS = ["City Administrator review", "Planning Division zoning referral", "Issue or deny"]


def at(y, m, d, hh=10):
    return datetime(y, m, d, hh, 0, tzinfo=CHICAGO)


def apply(jurisdiction, clerk, on, **extra):
    owner = OwnerFactory(jurisdiction=jurisdiction)
    values = {
        "business_nature": "Breeding and boarding",
        "dog_count": 6,
        "cat_count": 0,
        "cup_reference": "CUP-2026-04",
    } | extra
    return kennel_apply(
        owner=owner,
        premises=kennel_premises_for(owner),
        actor=clerk,
        on=on,
        application=KennelRequest(**values),
    )


def decide(kennel, step, clerk, on, outcome=KennelDecision.Outcome.APPROVED, conditions=""):
    return kennel_decision_record(
        kennel=kennel,
        step=step,
        outcome=outcome,
        decided=DecidedBy(
            name="Jane Roe",
            capacity="City Council" if "Council" in step else "City Administrator",
            on=on,
            reasons="Meets the requirements.",
        ),
        actor=clerk,
        conditions=conditions,
    )


@pytest.fixture
def nb_clerk(clerk):
    return clerk


def test_north_branch_issuance_is_blocked_until_every_step_is_recorded(north_branch, nb_clerk):
    kennel = apply(north_branch, nb_clerk, date(2026, 1, 10))
    assert [s for s, _ in step_progress(kennel, on=date(2026, 1, 10))] == NB_STEPS
    decide(kennel, NB_STEPS[0], nb_clerk, date(2026, 1, 12))
    decide(kennel, NB_STEPS[1], nb_clerk, date(2026, 1, 13))
    kennel.refresh_from_db()
    assert kennel.status == KennelStatus.UNDER_REVIEW
    with pytest.raises(Refused):
        kennel_issue(kennel=kennel, actor=nb_clerk, now=at(2026, 1, 14), method="cash")
    decide(kennel, NB_STEPS[2], nb_clerk, date(2026, 1, 14))
    kennel.refresh_from_db()
    assert kennel.status == KennelStatus.APPROVED
    kennel_issue(kennel=kennel, actor=nb_clerk, now=at(2026, 1, 14), method="cash")
    kennel.refresh_from_db()
    assert kennel.status == KennelStatus.ACTIVE
    assert kennel.expires_on == date(2026, 12, 31)  # NB Sec. 6-65(b), KEN-05
    assert kennel.number == "2026-0001"
    lines = list(kennel.receipt.lines.values_list("code", "amount", "authority"))
    assert lines == [("kennel_license", Decimal("50.00"), "Demo Res. 2025-01")]
    decisions = list(kennel.decisions.values_list("step", "decided_by_name", "citation"))
    assert decisions[0] == (NB_STEPS[0], "Jane Roe", "North Branch Sec. 6-65(a), (b)")
    assert Event.objects.filter(action="licensing.kennel.issued").count() == 1


def test_a_step_not_in_the_profile_is_refused(north_branch, nb_clerk):
    kennel = apply(north_branch, nb_clerk, date(2026, 1, 10))
    with pytest.raises(Refused):
        decide(kennel, "Mayor's blessing", nb_clerk, date(2026, 1, 12))


@pytest.mark.parametrize(
    "paid_on,penalty", [(date(2026, 1, 31), None), (date(2026, 2, 1), Decimal("25.00"))]
)
def test_the_late_penalty_starts_after_the_thirtieth_day_of_the_term(
    north_branch, nb_clerk, paid_on, penalty
):
    kennel = apply(north_branch, nb_clerk, date(2026, 1, 5))
    lines = kennel_fee_lines(kennel, on=paid_on)
    assert lines[0].amount == Decimal("50.00")
    if penalty is None:
        assert len(lines) == 1
    else:
        assert lines[1].amount == penalty and lines[1].authority == "North Branch Sec. 6-65(c)"


def test_non_commercial_and_cat_only_applicants_are_flagged_for_a_person_not_denied(
    north_branch, nb_clerk
):
    kennel = apply(
        north_branch, nb_clerk, date(2026, 1, 10), business_nature="", dog_count=0, cat_count=5
    )
    flags = kennel_screening(kennel, on=date(2026, 1, 10))
    assert any("No commercial business" in f for f in flags)
    assert any("Cats only" in f for f in flags)
    assert any("North Branch Sec. 6-65(a)" in f for f in flags)
    kennel.refresh_from_db()
    assert kennel.status == KennelStatus.APPLIED


def test_glencoe_kennel_is_valid_until_revoked_and_says_its_term_is_blank(glencoe, glencoe_clerk):
    kennel = apply(glencoe, glencoe_clerk, date(2026, 3, 2), cup_reference="")
    # Glencoe takes the fee with the application (701 Subd. 4(C)).
    receipt = kennel_fee_collect(
        kennel=kennel, method="check", reference="1042", actor=glencoe_clerk, now=at(2026, 3, 2)
    )
    assert receipt.total == Decimal("40.00")
    for step in GL_STEPS:
        decide(kennel, step, glencoe_clerk, date(2026, 3, 9))
    kennel.refresh_from_db()
    kennel_issue(kennel=kennel, actor=glencoe_clerk, now=at(2026, 3, 10))
    kennel.refresh_from_db()
    assert kennel.status == KennelStatus.ACTIVE and kennel.expires_on is None
    warning = kennel_term_warning(kennel, on=date(2026, 3, 10))
    assert "blank in the ordinance" in warning and "Glencoe 701 Subd. 4" in warning


@pytest.fixture
def gl_denied(glencoe, glencoe_clerk):
    kennel = apply(glencoe, glencoe_clerk, date(2026, 3, 2))
    decide(kennel, GL_STEPS[0], glencoe_clerk, date(2026, 3, 3))
    kennel_deny(
        kennel=kennel,
        step=GL_STEPS[1],
        decided=DecidedBy(
            name="Pat Planner",
            capacity="Planning Division",
            on=date(2026, 3, 5),
            reasons="Zoning district does not allow kennels.",
        ),
        actor=glencoe_clerk,
        notified_on=date(2026, 3, 6),
    )
    kennel.refresh_from_db()
    return kennel


def test_a_denial_sets_the_appeal_deadline_ten_days_after_notification(gl_denied):
    assert gl_denied.status == KennelStatus.DENIED
    assert gl_denied.appeal_deadline == date(2026, 3, 16)  # Glencoe 701 Subd. 4(E), KEN-07
    assert appeal_rule(gl_denied, on=date(2026, 3, 6)).citation.startswith("Glencoe 701 Subd. 4")


def test_a_late_appeal_is_refused_with_the_deadline(gl_denied, glencoe_clerk):
    with pytest.raises(Refused, match="Mar 16, 2026"):
        kennel_appeal_file(kennel=gl_denied, filed_on=date(2026, 3, 17), actor=glencoe_clerk)


def test_an_unappealed_denial_becomes_final_the_day_after_the_deadline(gl_denied):
    with time_machine.travel(at(2026, 3, 16, 23), tick=False):
        assert kennel_denials_finalise(now=timezone.now()).applied == 0
    with time_machine.travel(at(2026, 3, 17, 0), tick=False):
        assert kennel_denials_finalise(now=timezone.now()).applied == 1
        assert kennel_denials_finalise(now=timezone.now()).applied == 0
    gl_denied.refresh_from_db()
    assert gl_denied.status == KennelStatus.DENIED_FINAL


def test_an_appeal_granted_with_conditions_prints_them_on_the_license(gl_denied, glencoe_clerk):
    kennel_appeal_file(kennel=gl_denied, filed_on=date(2026, 3, 16), actor=glencoe_clerk)
    kennel_appeal_decide(
        kennel=gl_denied,
        granted=True,
        conditions="No more than 6 dogs outdoors at once.",
        decided=DecidedBy(
            name="Glencoe City Council",
            capacity="Council",
            on=date(2026, 4, 1),
            reasons="Conditions address zoning.",
        ),
        actor=glencoe_clerk,
    )
    gl_denied.refresh_from_db()
    assert gl_denied.status == KennelStatus.APPROVED
    kennel_issue(kennel=gl_denied, actor=glencoe_clerk, now=at(2026, 4, 2), method="cash")
    gl_denied.refresh_from_db()
    AnimalFactory(
        jurisdiction=gl_denied.jurisdiction,
        owner=gl_denied.owner,
        name="Bramble",
        premises=gl_denied.premises,
    )
    kennel_animal_add(
        kennel=gl_denied,
        animal=gl_denied.owner.animals.get(),
        on=date(2026, 4, 2),
        actor=glencoe_clerk,
    )
    document = kennel_document_issue(kennel=gl_denied, actor=glencoe_clerk, now=at(2026, 4, 2))
    text = pdf_text(document_pdf(document))
    assert "No more than 6 dogs outdoors at once." in text
    assert gl_denied.number in text and "Valid until revoked" in text and "Bramble" in text


def test_an_appeal_denied_is_final(gl_denied, glencoe_clerk):
    kennel_appeal_file(kennel=gl_denied, filed_on=date(2026, 3, 10), actor=glencoe_clerk)
    kennel_appeal_decide(
        kennel=gl_denied,
        granted=False,
        conditions="",
        decided=DecidedBy(
            name="Glencoe City Council", capacity="Council", on=date(2026, 4, 1), reasons="Upheld."
        ),
        actor=glencoe_clerk,
    )
    gl_denied.refresh_from_db()
    assert gl_denied.status == KennelStatus.DENIED_FINAL


def test_revocation_needs_notice_and_hearing_first(glencoe, glencoe_clerk):
    kennel = apply(glencoe, glencoe_clerk, date(2026, 3, 2))
    for step in GL_STEPS:
        decide(kennel, step, glencoe_clerk, date(2026, 3, 3))
    kennel.refresh_from_db()
    kennel_issue(kennel=kennel, actor=glencoe_clerk, now=at(2026, 3, 4), method="cash")
    kennel.refresh_from_db()
    person = {
        "decided_by_name": "Glencoe City Council",
        "decided_by_capacity": "Council",
        "reasons": "Unsanitary (701 Subd. 4(G)).",
    }
    with pytest.raises(Refused, match="notice"):
        kennel_revocation_decide(
            kennel=kennel,
            revoke=True,
            decided=DecidedBy(
                person["decided_by_name"],
                person["decided_by_capacity"],
                date(2026, 6, 1),
                person["reasons"],
            ),
            actor=glencoe_clerk,
        )
    kennel_revocation_notice(
        kennel=kennel,
        served_on=date(2026, 5, 1),
        hearing_on=date(2026, 5, 20),
        actor=glencoe_clerk,
        **person,
    )
    kennel_revocation_decide(
        kennel=kennel,
        revoke=True,
        decided=DecidedBy(
            person["decided_by_name"],
            person["decided_by_capacity"],
            date(2026, 5, 20),
            person["reasons"],
        ),
        actor=glencoe_clerk,
    )
    kennel.refresh_from_db()
    assert kennel.status == KennelStatus.REVOKED
    assert list(kennel.decisions.values_list("step", flat=True))[-2:] == [
        REVOCATION_NOTICE,
        REVOCATION_DECISION,
    ]


# --- One receipt service and one fee-line code for kennels (LIC-06, LIC-13) -----------


def test_a_kennel_that_became_subject_after_the_term_started_has_the_grace_days(
    north_branch, nb_clerk
):
    """LIC-13 applies to kennels: subject on March 1, paid March 31 (within 30 days): no
    penalty; paid April 1: the penalty (NB Sec. 6-65(c))."""
    kennel = apply(north_branch, nb_clerk, date(2026, 3, 5), became_subject_on=date(2026, 3, 1))
    assert [ln.code for ln in kennel_fee_lines(kennel, on=date(2026, 3, 31))] == ["kennel_license"]
    late = kennel_fee_lines(kennel, on=date(2026, 4, 1))
    assert [ln.code for ln in late] == ["kennel_license", "kennel_license_late_penalty"]
    assert late[1].amount == Decimal("25.00") and late[1].authority == "North Branch Sec. 6-65(c)"


def test_a_kennel_without_a_subject_date_pays_the_penalty_after_the_window(north_branch, nb_clerk):
    kennel = apply(north_branch, nb_clerk, date(2026, 3, 5))
    assert len(kennel_fee_lines(kennel, on=date(2026, 3, 31))) == 2


def test_kennel_renewal_in_december_is_for_next_term_without_penalty(north_branch, nb_clerk):
    """From December 2 an application is for the next term (LIC-13), which ends Dec 31
    of the next year (KEN-05)."""
    kennel = apply(north_branch, nb_clerk, date(2026, 12, 2))
    assert len(kennel_fee_lines(kennel, on=date(2026, 12, 2))) == 1
    assert kennel_expiry(kennel, on=date(2026, 12, 2)) == date(2027, 12, 31)
    assert kennel_expiry(kennel, on=date(2026, 12, 1)) == date(2026, 12, 31)


def test_a_subject_date_after_the_application_is_refused(north_branch, nb_clerk):
    with pytest.raises(Refused):
        apply(north_branch, nb_clerk, date(2026, 3, 5), became_subject_on=date(2026, 3, 6))


def test_glencoe_kennel_fee_has_no_penalty(glencoe, glencoe_clerk):
    """Glencoe's ordinance has no late penalty (LIC-13: not in ordinance): an application
    in June, months after the term started, pays the council's fee alone (FEE-02; the
    demo schedule's $40.00 of Demo Res. 2025-01)."""
    kennel = apply(glencoe, glencoe_clerk, date(2026, 6, 1))
    lines = kennel_fee_lines(kennel, on=date(2026, 6, 1))
    assert [(ln.code, ln.amount, ln.authority) for ln in lines] == [
        ("kennel_license", Decimal("40.00"), "Demo Res. 2025-01")
    ]


def test_kennel_fee_takes_the_next_number_of_the_one_receipt_series(north_branch, nb_clerk):
    """Dog and kennel payments share the city's gap-free series (LIC-06, REC-01): the
    receipt service records the receipt event, the kennel records the payment."""
    from licensing.services.receipts import FeeLine, receipt_create

    kennel = apply(north_branch, nb_clerk, date(2026, 1, 5))
    with time_machine.travel(at(2026, 1, 6), tick=False):
        from django.db import transaction

        with transaction.atomic():
            first = receipt_create(
                jurisdiction=north_branch,
                payer=kennel.owner,
                lines=[FeeLine("x", "x", Decimal("1.00"), "x")],
                method="cash",
                reference="",
                actor=nb_clerk,
                now=timezone.now(),
            )
        receipt = kennel_fee_collect(
            kennel=kennel, method="cash", reference="", actor=nb_clerk, now=timezone.now()
        )
    assert receipt.number == first.number + 1
    assert receipt.payer == kennel.owner and receipt.payer_name == kennel.owner.name
    assert Event.objects.filter(action="licensing.receipt.issued").count() == 2
    assert Event.objects.filter(action="licensing.kennel.fee_paid").count() == 1
    with pytest.raises(Refused):
        kennel_fee_collect(
            kennel=kennel, method="cash", reference="", actor=nb_clerk, now=timezone.now()
        )


def _kennel_events(kennel):
    return list(
        Event.objects.filter(action__startswith="licensing.kennel.", subject_id=str(kennel.pk))
        .order_by("pk")
        .values_list("action", "at")
    )


def test_kennel_events_are_stamped_with_the_time_passed_in(north_branch, nb_clerk):
    """Demo data and paper records pass historical times: each Event reads then."""
    owner = OwnerFactory(jurisdiction=north_branch)
    kennel = kennel_apply(
        owner=owner,
        premises=kennel_premises_for(owner),
        application=KennelRequest(
            business_nature="Boarding", dog_count=6, cat_count=0, cup_reference="CUP-9"
        ),
        actor=nb_clerk,
        on=date(2025, 1, 8),
        now=at(2025, 1, 8),
    )
    for day, step in zip((9, 10, 11), NB_STEPS, strict=True):
        kennel_decision_record(
            kennel=kennel,
            step=step,
            outcome=KennelDecision.Outcome.APPROVED,
            decided=DecidedBy(
                name="Jane Roe",
                capacity="City Council",
                on=date(2025, 1, day),
                reasons="Meets them.",
            ),
            actor=nb_clerk,
            now=at(2025, 1, day),
        )
    kennel.refresh_from_db()
    kennel_issue(kennel=kennel, actor=nb_clerk, now=at(2025, 1, 12), method="cash")
    animal = AnimalFactory(jurisdiction=north_branch)
    kennel_animal_add(
        kennel=kennel, animal=animal, on=date(2025, 1, 13), actor=nb_clerk, now=at(2025, 1, 13)
    )
    kennel_animal_remove(
        kennel=kennel, animal=animal, on=date(2025, 1, 14), actor=nb_clerk, now=at(2025, 1, 14)
    )
    person = {
        "decided_by_name": "Jane Roe",
        "decided_by_capacity": "City Council",
        "actor": nb_clerk,
    }
    kennel_revocation_notice(
        kennel=kennel,
        served_on=date(2025, 2, 1),
        hearing_on=date(2025, 2, 15),
        reasons="Complaints",
        now=at(2025, 2, 1),
        **person,
    )
    kennel_revocation_decide(
        kennel=kennel,
        revoke=False,
        decided=DecidedBy(
            person["decided_by_name"], person["decided_by_capacity"], date(2025, 2, 15), "Kept"
        ),
        now=at(2025, 2, 15),
        actor=nb_clerk,
    )
    assert _kennel_events(kennel) == [
        ("licensing.kennel.applied", at(2025, 1, 8)),
        ("licensing.kennel.step_decided", at(2025, 1, 9)),
        ("licensing.kennel.step_decided", at(2025, 1, 10)),
        ("licensing.kennel.step_decided", at(2025, 1, 11)),
        ("licensing.kennel.fee_paid", at(2025, 1, 12)),
        ("licensing.kennel.issued", at(2025, 1, 12)),
        ("licensing.kennel.animal_added", at(2025, 1, 13)),
        ("licensing.kennel.animal_removed", at(2025, 1, 14)),
        ("licensing.kennel.revocation_noticed", at(2025, 2, 1)),
        ("licensing.kennel.revocation_decided", at(2025, 2, 15)),
    ]


def test_denial_and_appeal_events_follow_now(glencoe, glencoe_clerk):
    kennel = apply(glencoe, glencoe_clerk, date(2024, 3, 1))
    kennel_deny(
        kennel=kennel,
        step=GL_STEPS[0],
        decided=DecidedBy("Pat Lee", "City Administrator", date(2024, 3, 4), "Zoning"),
        notified_on=date(2024, 3, 5),
        now=at(2024, 3, 5),
        actor=glencoe_clerk,
    )
    kennel_appeal_file(
        kennel=kennel, filed_on=date(2024, 3, 8), actor=glencoe_clerk, now=at(2024, 3, 8)
    )
    kennel_appeal_decide(
        kennel=kennel,
        granted=True,
        conditions="",
        decided=DecidedBy("Pat Lee", "City Administrator", date(2024, 4, 2), "Granted"),
        now=at(2024, 4, 2),
        actor=glencoe_clerk,
    )
    assert [t for _a, t in _kennel_events(kennel)][1:] == [
        at(2024, 3, 5),
        at(2024, 3, 5),
        at(2024, 3, 8),
        at(2024, 4, 2),
    ]


def test_kennel_events_without_now_are_stamped_now(north_branch, nb_clerk):
    before = timezone.now()
    kennel = apply(north_branch, nb_clerk, date(2026, 1, 10))
    assert all(t >= before for _a, t in _kennel_events(kennel))
