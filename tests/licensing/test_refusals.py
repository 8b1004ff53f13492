"""One refusal type: a blank rule value refuses with its section, never another
exception (architecture.md "Rules as data": "the software refuses to use it until the city
fills it in, and says which section is blank").

Each test blanks the one value a service needs (a ``RuleValue`` row with value null,
effective before the day of the action, citing ``BLANK``) and asserts ``Refused`` carrying
that section. Services that read no rule (close, void, kennel apply and revocation, tag
stock, the registry's writes) refuse from a wrong state with a section instead.
"""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.urls import reverse

from licensing.models import KennelDecision, LicenseExemption
from licensing.services import licenses as svc
from licensing.services import registry
from licensing.services.assessment import license_assess
from licensing.services.kennels.applications import (
    KennelRequest,
    kennel_apply,
    kennel_decision_record,
    kennel_premises_for,
    review_steps,
)
from licensing.services.kennels.common import DecidedBy
from licensing.services.kennels.denials import (
    kennel_appeal_file,
    kennel_denial_notified,
    kennel_deny,
)
from licensing.services.kennels.issuance import kennel_issue
from licensing.services.kennels.payments import kennel_fee_collect
from licensing.services.kennels.revocations import kennel_revocation_decide
from licensing.services.kennels.transfers import kennel_transfer
from licensing.services.limits import premises_limit_status
from licensing.services.tags import tag_replace_lost, tag_stock_receive
from licensing.services.voids import receipt_void
from ordinance.models import FeeScheduleEntry, RuleValue
from ordinance.refusals import Check, Refused, refusing
from ordinance.rules import RuleNotSet
from tests.licensing.factories import AnimalFactory, OwnerFactory, RabiesVaccinationFactory
from tests.licensing.license_factories import TagStockFactory

CHICAGO = ZoneInfo("America/Chicago")
ON = date(2026, 1, 15)
BLANK_FROM = date(2026, 1, 2)
BLANK = "Sec. 9-99 (blanked for the test)"
NB_STEPS = [
    "CUP approved by Council",
    "Zoning and CUP conditions met",
    "Minn. Stat. 347.30-347.40 complied with",
]


def at(d: date, hh=10):
    return datetime(d.year, d.month, d.day, hh, tzinfo=CHICAGO)


def blank(jurisdiction, key, effective_from=BLANK_FROM):
    """The city's value of ``key`` is blank from ``effective_from`` on (rules.md Section 0)."""
    RuleValue.objects.create(
        jurisdiction=jurisdiction,
        key=key,
        value=None,
        effective_from=effective_from,
        citation=BLANK,
        ordinance_ref="Ord. 2026-99",
    )


def blank_fee(jurisdiction, code, rule_key) -> str:
    """A fee the ordinance leaves to a council resolution (FEE-01, FEE-02) with none in
    force: returns the section that leaves it blank."""
    # A city that never set this fee: the app refuses to delete fee rows (they are
    # superseded), so the test removes them below the model.
    rows = FeeScheduleEntry.objects.filter(jurisdiction=jurisdiction, code=code)
    rows._raw_delete(rows.db)
    return RuleValue.objects.filter(jurisdiction=jurisdiction, key=rule_key).first().citation


def assert_refused_with_section(excinfo, section=BLANK):
    assert type(excinfo.value) is Refused
    assert section in str(excinfo.value)
    assert section in excinfo.value.sections


# --- The module ------------------------------------------------------------------------


def test_refused_carries_checks_with_label_message_and_section():
    refused = Refused.because("Tag", "No tags left.", "North Branch Sec. 6-63", field="tag_number")
    [check] = refused.checks
    assert (check.label, check.message, check.section, check.field) == (
        "Tag",
        "No tags left.",
        "North Branch Sec. 6-63",
        "tag_number",
    )
    assert str(refused) == "No tags left. (North Branch Sec. 6-63)"


def test_a_section_already_in_the_message_is_not_repeated():
    assert str(Check("Fee", "fail", "Blank (NB Sec. 6-62).", "NB Sec. 6-62")) == (
        "Blank (NB Sec. 6-62)."
    )


def test_refusing_turns_the_rule_layer_error_into_refused():
    @refusing("Fee")
    def service():
        raise RuleNotSet("The fee is blank (NB Sec. 6-62).", key="x", citation="NB Sec. 6-62")

    with pytest.raises(Refused) as excinfo:
        service()
    assert excinfo.value.checks[0].label == "Fee"
    assert excinfo.value.sections == ["NB Sec. 6-62"]
    assert isinstance(excinfo.value.__cause__, RuleNotSet)


def test_refusing_lets_other_errors_through():
    with pytest.raises(KeyError), refusing():
        raise KeyError("a bug is not a refusal")


# --- Dog licenses ----------------------------------------------------------------------


@pytest.fixture
def stock(north_branch, clerk):
    return TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2026, last_number=10)


@pytest.fixture
def dog(north_branch):
    dog = AnimalFactory(jurisdiction=north_branch, date_of_birth=date(2022, 3, 1))
    RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))
    return dog


@pytest.fixture
def issued(stock, dog, clerk):
    return svc.license_issue(animal=dog, owner=dog.owner, actor=clerk, on=ON, method="cash")


def test_issue_refuses_a_blank_term_rule(north_branch, stock, dog, clerk):
    blank(north_branch, "license_expiry")
    with pytest.raises(Refused) as excinfo:
        svc.license_issue(animal=dog, owner=dog.owner, actor=clerk, on=ON, method="cash")
    assert_refused_with_section(excinfo)
    assert not dog.licenses.exists()


def test_issue_refuses_a_blank_license_fee(north_branch, stock, dog, clerk):
    section = blank_fee(north_branch, "dog_license", "dog_license_fee")
    with pytest.raises(Refused) as excinfo:
        svc.license_issue(animal=dog, owner=dog.owner, actor=clerk, on=ON, method="cash")
    assert_refused_with_section(excinfo, section)
    assert "North Branch Sec." in section


def test_renew_refuses_a_blank_renewal_window(north_branch, issued, clerk):
    # LIC-13: from December 2 a license is for the next term; the window is the profile's.
    blank(north_branch, "renewal_window_days_before_term", date(2026, 11, 1))
    TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2027, last_number=5)
    dog = issued.license.animal
    with pytest.raises(Refused) as excinfo:
        svc.license_issue(
            animal=dog, owner=dog.owner, actor=clerk, on=date(2026, 12, 10), method="cash"
        )
    assert_refused_with_section(excinfo)
    assert dog.licenses.count() == 1


def test_transfer_refuses_a_blank_transfer_fee(north_branch, issued, clerk):
    blank(north_branch, "transfer_fee")
    new_owner = OwnerFactory(jurisdiction=north_branch)
    with pytest.raises(Refused) as excinfo:
        svc.license_transfer(
            license=issued.license,
            new_owner=new_owner,
            actor=clerk,
            on=date(2026, 5, 1),
            method="cash",
        )
    assert_refused_with_section(excinfo)
    issued.license.refresh_from_db()
    assert issued.license.owner_id != new_owner.pk


def test_duplicate_tag_refuses_a_blank_duplicate_tag_fee(north_branch, issued, clerk):
    blank(north_branch, "duplicate_tag_fee")
    with pytest.raises(Refused) as excinfo:
        tag_replace_lost(license=issued.license, actor=clerk, on=date(2026, 5, 1), method="cash")
    assert_refused_with_section(excinfo)
    assert issued.license.tags.get().status == "issued"


def test_address_change_refuses_a_blank_notice_period(north_branch, issued, clerk):
    blank(north_branch, "address_change_notice_days")
    with pytest.raises(Refused) as excinfo:
        svc.license_address_change(
            license=issued.license,
            moved_on=date(2026, 5, 1),
            reported_on=date(2026, 5, 2),
            within_city=True,
            address=svc.NewAddress(address_line="9 Oak Street"),
            actor=clerk,
        )
    assert_refused_with_section(excinfo)


def test_close_reads_no_rule_and_refuses_a_closed_license_with_its_section(issued, clerk):
    svc.license_close(license=issued.license, reason="deceased", on=date(2026, 6, 1), actor=clerk)
    with pytest.raises(Refused) as excinfo:
        svc.license_close(
            license=issued.license, reason="deceased", on=date(2026, 6, 2), actor=clerk
        )
    assert_refused_with_section(excinfo, "North Branch Sec. 6-61")


def test_void_refuses_a_second_void_with_its_section(issued, clerk):
    receipt_void(receipt=issued.receipt, actor=clerk, reason="Bounced check")
    with pytest.raises(Refused) as excinfo:
        receipt_void(receipt=issued.receipt, actor=clerk, reason="Again")
    assert_refused_with_section(excinfo, "North Branch Sec. 6-61, 6-62")


def test_exemption_refuses_a_blank_visitor_period(north_branch, dog, clerk):
    blank(north_branch, "temp_visitor_exemption_days")
    with pytest.raises(Refused) as excinfo:
        svc.exemption_record(
            animal=dog, kind="temporary_visitor", starts_on=ON, evidence="Arrived", actor=clerk
        )
    assert_refused_with_section(excinfo)
    assert excinfo.value.checks[0].label == "Exemption"


def test_exemption_dated_before_the_ordinance_refuses_with_its_section(dog, clerk):
    # North Branch adopted its ordinance in 2015: in 2014 no value was in force.
    with pytest.raises(Refused) as excinfo:
        svc.exemption_record(
            animal=dog,
            kind="temporary_visitor",
            starts_on=date(2014, 6, 1),
            evidence="Arrived",
            actor=clerk,
        )
    assert_refused_with_section(excinfo, "North Branch Sec. 6-60")


def test_tag_stock_refuses_numbers_already_in_stock_with_its_section(north_branch, stock, clerk):
    with pytest.raises(Refused) as excinfo:
        tag_stock_receive(
            jurisdiction=north_branch,
            year=2026,
            first_number=5,
            last_number=20,
            received_on=ON,
            vendor="",
            actor=clerk,
        )
    assert_refused_with_section(excinfo, "North Branch Sec. 6-63")


def test_tag_claim_refuses_when_no_tag_is_left_with_its_section(north_branch, dog, clerk):
    with pytest.raises(Refused) as excinfo:
        svc.license_issue(animal=dog, owner=dog.owner, actor=clerk, on=ON, method="cash")
    assert_refused_with_section(excinfo, "North Branch Sec. 6-63")


# --- Registry --------------------------------------------------------------------------


def test_premises_limit_refuses_a_blank_limit(north_branch, dog):
    blank(north_branch, "max_adult_dogs_without_kennel")
    with pytest.raises(Refused) as excinfo:
        premises_limit_status(premises=dog.premises, on=ON)
    assert_refused_with_section(excinfo)


def test_the_assessment_shows_a_blank_limit_as_a_failing_check(north_branch, dog):
    blank(north_branch, "max_adult_dogs_without_kennel")
    a = license_assess(animal=dog, owner=dog.owner, on=ON)
    assert not a.can_issue
    assert BLANK in [c.citation for c in a.refusals]


def test_registry_refusals_name_the_field_and_section(north_branch, clerk):
    animal = AnimalFactory(jurisdiction=north_branch)
    with pytest.raises(Refused) as excinfo:
        registry.vaccination_record(
            animal=animal,
            actor=clerk,
            on=ON,
            vaccinated_on=ON,
            veterinarian_name="",
            veterinarian_license="",
        )
    assert [c.field for c in excinfo.value.checks] == ["veterinarian_license"]
    assert_refused_with_section(excinfo, "North Branch Sec. 6-77")


def test_registry_refuses_a_second_death(north_branch, clerk):
    animal = AnimalFactory(jurisdiction=north_branch)
    registry.animal_mark_deceased(animal=animal, actor=clerk, on=ON)
    with pytest.raises(Refused):
        registry.animal_mark_deceased(animal=animal, actor=clerk, on=ON)


# --- Kennel licenses -------------------------------------------------------------------


def _apply(jurisdiction, clerk, on=ON):
    owner = OwnerFactory(jurisdiction=jurisdiction)
    return kennel_apply(
        owner=owner,
        premises=kennel_premises_for(owner),
        actor=clerk,
        on=on,
        application=KennelRequest(
            business_nature="Breeding", dog_count=6, cat_count=0, cup_reference="CUP-1"
        ),
    )


def _person(on):
    return {"decided": DecidedBy("Jane Roe", "City Council", on, "Meets the requirements.")}


def _approve(kennel, clerk, on=ON):
    for step in NB_STEPS:
        kennel_decision_record(
            kennel=kennel, step=step, outcome="approved", actor=clerk, **_person(on)
        )
    kennel.refresh_from_db()
    return kennel


@pytest.fixture
def nb_kennel(north_branch, clerk):
    return _apply(north_branch, clerk)


def test_kennel_apply_refuses_an_owner_of_another_city(north_branch, glencoe, clerk):
    owner = OwnerFactory(jurisdiction=north_branch)
    elsewhere = kennel_premises_for(OwnerFactory(jurisdiction=glencoe))
    with pytest.raises(Refused) as excinfo:
        kennel_apply(
            owner=owner,
            premises=elsewhere,
            actor=clerk,
            on=ON,
            application=KennelRequest(
                business_nature="Breeding", dog_count=6, cat_count=0, cup_reference=""
            ),
        )
    assert_refused_with_section(excinfo, "North Branch Sec. 6-65(a)")


def test_kennel_decide_refuses_blank_review_steps(north_branch, nb_kennel, clerk):
    blank(north_branch, "kennel_review_steps")
    with pytest.raises(Refused) as excinfo:
        kennel_decision_record(
            kennel=nb_kennel, step=NB_STEPS[0], outcome="approved", actor=clerk, **_person(ON)
        )
    assert_refused_with_section(excinfo)
    assert not KennelDecision.objects.exists()


def test_kennel_fee_refuses_a_blank_fee(north_branch, nb_kennel, clerk):
    section = blank_fee(north_branch, "kennel_license", "kennel_license_fee")
    with pytest.raises(Refused) as excinfo:
        kennel_fee_collect(kennel=nb_kennel, method="cash", reference="", actor=clerk, now=at(ON))
    assert_refused_with_section(excinfo, section)


def test_kennel_issue_refuses_blank_review_steps(north_branch, nb_kennel, clerk):
    kennel = _approve(nb_kennel, clerk)
    blank(north_branch, "kennel_review_steps", date(2026, 1, 16))
    with pytest.raises(Refused) as excinfo:
        kennel_issue(kennel=kennel, actor=clerk, now=at(date(2026, 1, 20)), method="cash")
    assert_refused_with_section(excinfo)
    kennel.refresh_from_db()
    assert kennel.status == "approved"


def test_kennel_deny_refuses_blank_review_steps(north_branch, nb_kennel, clerk):
    blank(north_branch, "kennel_review_steps")
    with pytest.raises(Refused) as excinfo:
        kennel_deny(kennel=nb_kennel, step=NB_STEPS[0], actor=clerk, **_person(ON))
    assert_refused_with_section(excinfo)


def test_kennel_appeal_clock_refuses_a_blank_appeal_period(glencoe, glencoe_clerk):
    kennel = _apply(glencoe, glencoe_clerk)
    step = review_steps(kennel, on=ON).value[0]
    kennel_deny(kennel=kennel, step=step, actor=glencoe_clerk, **_person(ON))
    blank(glencoe, "kennel_denial_appeal_days")
    with pytest.raises(Refused) as excinfo:
        kennel_denial_notified(kennel=kennel, notified_on=date(2026, 1, 20), actor=glencoe_clerk)
    assert_refused_with_section(excinfo)


def test_kennel_appeal_refuses_without_a_denial_with_no_section_in_north_branch(nb_kennel, clerk):
    """KEN-07 is Glencoe's (701 Subd. 4(E)); North Branch's ordinance has no appeal, so
    the refusal cites no section rather than a made-up one."""
    with pytest.raises(Refused) as excinfo:
        kennel_appeal_file(kennel=nb_kennel, filed_on=ON, actor=clerk)
    assert type(excinfo.value) is Refused
    assert excinfo.value.sections == []


def test_kennel_revoke_refuses_without_notice_and_no_section_in_north_branch(
    north_branch, nb_kennel, clerk
):
    kennel = _approve(nb_kennel, clerk)
    kennel_issue(kennel=kennel, actor=clerk, now=at(date(2026, 1, 20)), method="cash")
    with pytest.raises(Refused) as excinfo:
        kennel_revocation_decide(
            kennel=kennel, revoke=True, actor=clerk, **_person(date(2026, 2, 1))
        )
    assert type(excinfo.value) is Refused  # KEN-08 is Glencoe's (701 Subd. 4(F)) only
    assert excinfo.value.sections == []


def test_kennel_transfer_refuses_a_blank_transfer_fee(north_branch, nb_kennel, clerk):
    kennel = _approve(nb_kennel, clerk)
    kennel_issue(kennel=kennel, actor=clerk, now=at(date(2026, 1, 20)), method="cash")
    blank(north_branch, "transfer_fee")
    with pytest.raises(Refused) as excinfo:
        kennel_transfer(
            kennel=kennel,
            new_owner=OwnerFactory(jurisdiction=north_branch),
            actor=clerk,
            on=date(2026, 2, 1),
            method="cash",
        )
    assert_refused_with_section(excinfo)


# --- The two 500s of the issue are now pages ---------------------------------------------


@time_machine.travel("2026-01-15 10:00 -06:00", tick=False)
def test_an_exemption_dated_2014_is_a_page_with_the_section(client_as, clerk, dog):
    url = reverse("licensing:counter_animal", args=[dog.owner.pk]) + f"?animal={dog.pk}"
    response = client_as(clerk).post(
        url,
        {
            "action": "exemption",
            "ex-kind": "temporary_visitor",
            "ex-starts_on": "2014-06-01",
            "ex-evidence": "Visiting from Duluth since June",
        },
    )
    page = response.content.decode()
    assert response.status_code in (200, 400)
    assert "North Branch Sec. 6-60" in page and "no value in force" in page
    assert "Visiting from Duluth since June" in page and "2014-06-01" in page  # input kept
    assert not LicenseExemption.objects.exists()


@time_machine.travel("2026-05-01 10:00 -05:00", tick=False)
def test_a_blank_fee_at_the_counter_is_a_page_with_the_section(
    client_as, clerk, issued, north_branch
):
    blank(north_branch, "duplicate_tag_fee")
    url = reverse("licensing:license_duplicate_tag", args=[issued.license.pk])
    response = client_as(clerk).post(url, {"method": "check", "reference": "CHQ-4411"})
    page = response.content.decode()
    assert response.status_code in (200, 400)
    assert BLANK in page and "duplicate tag fee" in page
    assert "CHQ-4411" in page  # input kept
