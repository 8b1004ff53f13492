"""Named transitions on the models (style.md "State, time and jobs";
rules.md REC-18): from each allowed state a transition records exactly one Event; from any
other state it refuses with its section and changes nothing."""

from datetime import date

import pytest

from licensing.models import (
    AnimalStatus,
    KennelLicense,
    KennelStatus,
    License,
    LicenseStatus,
    Tag,
    TagStatus,
)
from licensing.services.registry import owner_premises
from ordinance.models import Event
from ordinance.refusals import Refused
from tests.licensing.factories import AnimalFactory, OwnerFactory
from tests.licensing.license_factories import LicenseFactory, TagStockFactory

ON = date(2026, 3, 2)


def events(obj):
    return list(Event.objects.for_object(obj))


def assert_unchanged(obj, before: dict):
    fresh = type(obj).objects.get(pk=obj.pk)
    assert {f: getattr(fresh, f) for f in before} == before
    assert events(obj) == []


# --- License ------------------------------------------------------------------------------


@pytest.fixture
def license_in(north_branch, clerk):
    def make(status):
        return LicenseFactory(jurisdiction=north_branch, issued_by=clerk, status=status)

    return make


@pytest.mark.parametrize("status", [LicenseStatus.ACTIVE, LicenseStatus.EXPIRED])
def test_close_from_an_allowed_state_records_one_event(license_in, clerk, status):
    license = license_in(status)
    license.close(actor=clerk, on=ON, reason="Animal died")
    license = License.objects.get(pk=license.pk)
    assert (license.status, license.status_changed_on, license.status_reason) == (
        LicenseStatus.CLOSED,
        ON,
        "Animal died",
    )
    [event] = events(license)
    assert event.action == "licensing.license.closed" and event.actor == clerk


@pytest.mark.parametrize("status", [LicenseStatus.CLOSED, LicenseStatus.VOID])
def test_close_from_another_state_refuses_and_changes_nothing(license_in, clerk, status):
    license = license_in(status)
    with pytest.raises(Refused) as excinfo:
        license.close(actor=clerk, on=ON, reason="Animal died")
    assert "North Branch Sec. 6-61" in excinfo.value.sections
    assert_unchanged(license, {"status": status, "status_changed_on": None})


@pytest.mark.parametrize(
    "status", [LicenseStatus.ACTIVE, LicenseStatus.EXPIRED, LicenseStatus.CLOSED]
)
def test_void_from_an_allowed_state_records_one_event(license_in, clerk, status):
    license = license_in(status)
    license.void(actor=clerk, on=ON, reason="Bounced check")
    assert License.objects.get(pk=license.pk).status == LicenseStatus.VOID
    assert [e.action for e in events(license)] == ["licensing.license.voided"]


def test_void_twice_refuses_and_changes_nothing(license_in, clerk):
    license = license_in(LicenseStatus.VOID)
    with pytest.raises(Refused) as excinfo:
        license.void(actor=clerk, on=ON, reason="Again")
    assert "North Branch Sec. 6-61, 6-62" in excinfo.value.sections
    assert_unchanged(license, {"status": LicenseStatus.VOID, "status_reason": ""})


# --- Tag ------------------------------------------------------------------------------------


@pytest.fixture
def tag_in(north_branch, clerk, license_in):
    stock = TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, last_number=10)

    def make(status):
        tag = stock.tags.get(number=1 + Tag.objects.exclude(status=TagStatus.AVAILABLE).count())
        if status != TagStatus.AVAILABLE:
            Tag.objects.filter(pk=tag.pk).update(
                status=status, license=license_in(LicenseStatus.ACTIVE)
            )
            tag.refresh_from_db()
        return tag

    return make


def test_issue_an_available_tag_records_one_event(tag_in, license_in, clerk):
    tag, license = tag_in(TagStatus.AVAILABLE), license_in(LicenseStatus.ACTIVE)
    tag.issue(license=license, actor=clerk, on=ON)
    tag = Tag.objects.get(pk=tag.pk)
    assert (tag.status, tag.license, tag.issued_on) == (TagStatus.ISSUED, license, ON)
    assert [e.action for e in events(tag)] == ["licensing.tag.issued"]


@pytest.mark.parametrize("status", [TagStatus.ISSUED, TagStatus.LOST, TagStatus.VOID])
def test_issue_a_tag_out_of_stock_refuses(tag_in, license_in, clerk, status):
    tag = tag_in(status)
    with pytest.raises(Refused) as excinfo:
        tag.issue(license=license_in(LicenseStatus.ACTIVE), actor=clerk, on=ON)
    assert "North Branch Sec. 6-63" in excinfo.value.sections
    assert_unchanged(tag, {"status": status, "issued_on": None})


@pytest.mark.parametrize(
    "transition, to, action",
    [
        ("mark_lost", TagStatus.LOST, "licensing.tag.lost"),
        ("void", TagStatus.VOID, "licensing.tag.voided"),
    ],
)
def test_an_issued_tag_is_lost_or_voided_with_one_event(tag_in, clerk, transition, to, action):
    tag = tag_in(TagStatus.ISSUED)
    kwargs = {"reason": "Receipt voided"} if transition == "void" else {}
    getattr(tag, transition)(actor=clerk, on=ON, **kwargs)
    assert Tag.objects.get(pk=tag.pk).status == to
    assert [e.action for e in events(tag)] == [action]


@pytest.mark.parametrize("transition", ["mark_lost", "void"])
@pytest.mark.parametrize("status", [TagStatus.AVAILABLE, TagStatus.LOST, TagStatus.VOID])
def test_only_an_issued_tag_is_lost_or_voided(tag_in, clerk, transition, status):
    tag = tag_in(status)
    kwargs = {"reason": "x"} if transition == "void" else {}
    with pytest.raises(Refused):
        getattr(tag, transition)(actor=clerk, on=ON, **kwargs)
    assert_unchanged(tag, {"status": status})


# --- Animal -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "transition, to, action",
    [
        ("mark_deceased", AnimalStatus.DECEASED, "licensing.animal.deceased"),
        ("mark_moved_out", AnimalStatus.TRANSFERRED_OUT, "licensing.animal.moved_out"),
    ],
)
def test_an_animal_leaves_alive_once(north_branch, clerk, transition, to, action):
    animal = AnimalFactory(jurisdiction=north_branch)
    getattr(animal, transition)(actor=clerk, on=ON)
    assert type(animal).objects.get(pk=animal.pk).status == to
    assert [e.action for e in events(animal)] == [action]
    for again in ("mark_deceased", "mark_moved_out"):
        with pytest.raises(Refused):
            getattr(animal, again)(actor=clerk, on=ON)
    assert type(animal).objects.get(pk=animal.pk).status == to
    assert len(events(animal)) == 1


# --- Kennel license ---------------------------------------------------------------------------

S = KennelStatus
IN_REVIEW = [S.APPLIED, S.UNDER_REVIEW, S.APPROVED]

# transition -> (kwargs, allowed source states, target state, action)
KENNEL = {
    "review": (
        {"step": "Zoning", "outcome": "approved", "complete": True},
        IN_REVIEW,
        S.APPROVED,
        "licensing.kennel.step_decided",
    ),
    "issue": (
        {"number": "2026-K001", "on": ON, "expires_on": date(2026, 12, 31)},
        [S.APPROVED],
        S.ACTIVE,
        "licensing.kennel.issued",
    ),
    "deny": ({"step": "Zoning", "on": ON}, IN_REVIEW, S.DENIED, "licensing.kennel.denied"),
    "appeal": ({"filed_on": ON}, [S.DENIED], S.APPEALED, "licensing.kennel.appealed"),
    "decide_appeal": (
        {"granted": True},
        [S.APPEALED],
        S.APPROVED,
        "licensing.kennel.appeal_decided",
    ),
    "finalise_denial": ({}, [S.DENIED], S.DENIED_FINAL, "licensing.kennel.denied_final"),
    "revoke": ({}, [S.ACTIVE], S.REVOKED, "licensing.kennel.revocation_decided"),
}
CASES = [(name, status, status in KENNEL[name][1]) for name in KENNEL for status in S.values]


@pytest.fixture
def kennel_in(north_branch):
    def make(status):
        owner = OwnerFactory(jurisdiction=north_branch)
        return KennelLicense.objects.create(
            jurisdiction=north_branch,
            owner=owner,
            premises=owner_premises(owner),
            status=status,
            applied_on=date(2026, 1, 10),
            business_nature="Breeding",
        )

    return make


@pytest.mark.parametrize(
    "name, status, allowed", CASES, ids=[f"{n}-from-{s}" for n, s, _a in CASES]
)
def test_kennel_transitions(kennel_in, clerk, name, status, allowed):
    kennel = kennel_in(status)
    kwargs, _sources, target, action = KENNEL[name]
    if allowed:
        getattr(kennel, name)(actor=clerk, **kwargs)
        assert KennelLicense.objects.get(pk=kennel.pk).status == target
        [event] = events(kennel)
        assert event.action == action
        return
    with pytest.raises(Refused) as excinfo:
        getattr(kennel, name)(actor=clerk, **kwargs)
    # The city's own section (North Branch Sec. 6-65); none for Glencoe's appeal (KEN-07)
    # and revocation (KEN-08), which North Branch's ordinance does not have.
    glencoe_only = name in ("appeal", "decide_appeal", "finalise_denial", "revoke")
    assert excinfo.value.sections == ([] if glencoe_only else ["North Branch Sec. 6-65(a)"])
    assert_unchanged(kennel, {"status": status, "number": "", "denied_on": None, "conditions": ""})


def test_review_not_complete_leaves_the_kennel_under_review(kennel_in, clerk):
    kennel = kennel_in(S.APPLIED)
    kennel.review(
        actor=clerk, step="Zoning", outcome="approved", complete=False, conditions="Fence the yard"
    )
    kennel = KennelLicense.objects.get(pk=kennel.pk)
    assert (kennel.status, kennel.conditions) == (S.UNDER_REVIEW, "Fence the yard")


def test_no_status_is_assigned_outside_the_models():
    """The services call the transitions; the expiry sweep's one UPDATE is the only bulk
    transition (licensing/services/expiry.py)."""
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[2] / "licensing"
    assigned = re.compile(r"\.status\s*(,[^=]*)?=[^=]")
    offenders = [
        f"{path.relative_to(root)}:{n}"
        for path in root.rglob("*.py")
        if "models" not in path.parts and "migrations" not in path.parts
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if assigned.search(line)
    ]
    assert offenders == []
