"""License exemptions (LIC-02, NB Sec. 6-60, 6-96(4)(b)): recorded with their evidence,
the temporary visitor's stay capped at the profile's 30 days, and refusals with a reason.

Every date is passed in: nothing here reads today's date (the counter page tests travel
to a fixed day).
"""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.urls import reverse

from kernel.kept import RecordKept
from licensing.models import ExemptionKind, LicenseExemption
from licensing.services import licenses as svc
from licensing.services.assessment import license_assess
from ordinance.models import Event
from ordinance.refusals import Refused
from tests.licensing.factories import AnimalFactory, OwnerFactory, PremisesFactory

CHICAGO = ZoneInfo("America/Chicago")
ARRIVED = date(2026, 6, 1)
VISITOR_CITATION = "North Branch Sec. 6-60"


@pytest.fixture
def dog(north_branch):
    owner = OwnerFactory(jurisdiction=north_branch, last_name="Visitor")
    return AnimalFactory(
        jurisdiction=north_branch,
        owner=owner,
        name="Juno",
        premises=PremisesFactory(jurisdiction=north_branch),
        date_of_birth=date(2022, 3, 1),
    )


@pytest.fixture
def gl_dog(glencoe):
    owner = OwnerFactory(jurisdiction=glencoe, last_name="Gast")
    return AnimalFactory(
        jurisdiction=glencoe,
        owner=owner,
        name="Lotte",
        premises=PremisesFactory(jurisdiction=glencoe),
    )


def record(animal, actor, kind, starts_on=ARRIVED, ends_on=None, evidence="Arrived June 1"):
    return svc.exemption_record(
        animal=animal,
        kind=kind,
        starts_on=starts_on,
        ends_on=ends_on,
        evidence=evidence,
        actor=actor,
    )


def exemption_checks(animal, on):
    animal = type(animal).objects.prefetch_related("license_exemptions").get(pk=animal.pk)
    return [
        c
        for c in license_assess(animal=animal, owner=animal.owner, on=on).checks
        if c.label == "Exemption"
    ]


# --- The temporary visitor: at most 30 days from arrival (NB Sec. 6-60) ----------------


def test_a_visitors_exemption_ends_30_days_after_arrival(dog, clerk):
    exemption = record(dog, clerk, ExemptionKind.TEMPORARY_VISITOR)
    assert exemption.ends_on == date(2026, 7, 1)
    assert exemption.citation == VISITOR_CITATION
    assert exemption.jurisdiction == dog.jurisdiction and exemption.recorded_by == clerk
    assert exemption.evidence == "Arrived June 1"
    event = Event.objects.for_object(dog).get(action="licensing.exemption.recorded")
    assert event.data == {"exemption": exemption.pk}


@pytest.mark.parametrize(
    "asked, kept",
    [
        (date(2026, 6, 10), date(2026, 6, 10)),  # a shorter stay is kept as stated
        (date(2026, 7, 1), date(2026, 7, 1)),  # exactly the cap
        (date(2026, 7, 2), date(2026, 7, 1)),  # one day over: capped
        (date(2026, 12, 31), date(2026, 7, 1)),  # a stay of months: capped
    ],
)
def test_a_stated_end_past_the_cap_is_cut_to_30_days(dog, clerk, asked, kept):
    exemption = record(dog, clerk, ExemptionKind.TEMPORARY_VISITOR, ends_on=asked)
    assert exemption.ends_on == kept


def test_the_cap_follows_an_amendment_of_the_profile(dog, clerk, administrator):
    """The 30 days are a profile value (LIC-02), not a number in the code."""
    from ordinance.amendments import rule_amend

    rule_amend(
        jurisdiction=dog.jurisdiction,
        key="temp_visitor_exemption_days",
        value=14,
        effective_from=date(2026, 5, 1),
        ordinance_ref="Test Ord. 2026-1",
        actor=administrator,
    )
    assert record(dog, clerk, ExemptionKind.TEMPORARY_VISITOR).ends_on == date(2026, 6, 15)
    earlier = record(dog, clerk, ExemptionKind.TEMPORARY_VISITOR, starts_on=date(2026, 4, 1))
    assert earlier.ends_on == date(2026, 5, 1)  # the 30 days in force on arrival


def test_the_counter_shows_the_exemption_through_day_30_only(dog, clerk):
    """LIC-02: after the 30 days the license falls due (LIC-03); the check disappears."""
    record(dog, clerk, ExemptionKind.TEMPORARY_VISITOR)
    assert exemption_checks(dog, ARRIVED - date.resolution) == []
    for day in (ARRIVED, date(2026, 7, 1)):
        [check] = exemption_checks(dog, day)
        assert "Owner temporarily in the city" in check.message
        assert "Arrived June 1" in check.message and check.citation == VISITOR_CITATION
    assert exemption_checks(dog, date(2026, 7, 2)) == []


# --- The other kinds: no cap, evidence kept ---------------------------------------------


@pytest.mark.parametrize(
    "kind, ends_on, evidence",
    [
        (ExemptionKind.SHOW, date(2026, 6, 3), "Chisago County Fair dog show, June 1-3"),
        (ExemptionKind.SERVICE_ANIMAL, None, "Owner's attestation: guide dog"),
        (ExemptionKind.NONRESIDENT_CONFINED, None, "Nonresident; dog kept in the owner's RV"),
    ],
)
def test_other_exemptions_keep_the_stated_dates_and_evidence(dog, clerk, kind, ends_on, evidence):
    exemption = record(dog, clerk, kind, ends_on=ends_on, evidence=evidence)
    exemption.refresh_from_db()
    assert (exemption.kind, exemption.starts_on, exemption.ends_on, exemption.evidence) == (
        kind,
        ARRIVED,
        ends_on,
        evidence,
    )
    assert exemption.covers(date(2026, 6, 3))
    # No end date: the service or nonresident exemption has no time limit (Sec. 6-96(4)(b)).
    assert exemption.covers(date(2027, 6, 1)) is (ends_on is None)
    [check] = exemption_checks(dog, date(2026, 6, 2))
    assert evidence in check.message


def test_an_exemption_is_not_deleted(dog, clerk):
    """An exemption is a record of what the clerk accepted (style.md: not deleted)."""
    exemption = record(dog, clerk, ExemptionKind.SHOW, ends_on=date(2026, 6, 3))
    with pytest.raises(RecordKept):
        LicenseExemption.objects.filter(pk=exemption.pk).delete()
    assert LicenseExemption.objects.filter(pk=exemption.pk).exists()


# --- Refusals -----------------------------------------------------------------------------


def test_an_end_before_the_start_is_refused(dog, clerk):
    with pytest.raises(Refused, match="must not be before"):
        record(dog, clerk, ExemptionKind.SHOW, ends_on=date(2026, 5, 31))
    assert not LicenseExemption.objects.exists()


def test_an_unknown_kind_is_refused(dog, clerk):
    with pytest.raises(Refused, match="not an exemption"):
        record(dog, clerk, "friend_of_the_mayor")
    assert not LicenseExemption.objects.exists()


def test_glencoe_has_no_visitor_exemption_to_record(gl_dog, glencoe_clerk):
    """Glencoe licenses no dogs (LIC-02: not in ordinance), so it has no 30-day rule."""
    with pytest.raises(Refused, match="Glencoe"):
        record(gl_dog, glencoe_clerk, ExemptionKind.TEMPORARY_VISITOR)
    assert not LicenseExemption.objects.exists()


# --- Through the counter page ---------------------------------------------------------


def _post(client, animal, **fields):
    url = reverse("licensing:counter_animal", args=[animal.owner.pk]) + f"?animal={animal.pk}"
    data = {
        "action": "exemption",
        "ex-kind": ExemptionKind.TEMPORARY_VISITOR,
        "ex-starts_on": "2026-06-01",
        "ex-evidence": "Arrived June 1",
    }
    return client.post(url, data | {f"ex-{k}": v for k, v in fields.items()})


@time_machine.travel(datetime(2026, 6, 5, 10, tzinfo=CHICAGO), tick=False)
def test_the_counter_records_a_visitor_and_shows_the_cap(client_as, clerk, dog):
    client = client_as(clerk)
    response = _post(client, dog, ends_on="2026-08-15")
    assert response.status_code == 302
    assert LicenseExemption.objects.get().ends_on == date(2026, 7, 1)
    page = client.get(response["Location"]).content.decode()
    # The one standing service's sentence (licensing.services.standing), with the evidence.
    assert "Exempt: Owner temporarily in the city until Jul 1, 2026 (Arrived June 1)." in page
    assert VISITOR_CITATION in page


@time_machine.travel(datetime(2026, 6, 5, 10, tzinfo=CHICAGO), tick=False)
def test_the_counter_says_why_an_exemption_is_refused(client_as, clerk, glencoe_clerk, dog, gl_dog):
    response = _post(client_as(clerk), dog, kind=ExemptionKind.SHOW, ends_on="2026-05-01")
    assert response.status_code == 200 and "must not be before" in response.content.decode()
    # Glencoe's counter shows no exemption form (no license to be exempt from); a POST
    # anyway is refused, not a 500, and the page says why there is no license.
    response = _post(client_as(glencoe_clerk), gl_dog)
    assert response.status_code == 200
    assert "does not issue dog licenses" in response.content.decode()
    assert not LicenseExemption.objects.exists()
