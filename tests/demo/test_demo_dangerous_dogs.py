"""demo_data's dangerous dogs: Glencoe's proceeding at three stages and a North Branch
classification, made once (DD-04, DD-09, DD-10, DD-29)."""

import pytest
from django.utils import timezone

from dangerous_dogs.models import CaseStatus, Classification, DesignationCase
from demo.dangerous_dogs import fill_demo_dangerous_dogs
from demo.jurisdictions import ensure_demo_jurisdictions
from demo.registry import fill_demo_registry
from demo.users import ensure_demo_users


@pytest.mark.django_db
@pytest.mark.clock("2026-11-24T10:00")
def test_the_demo_has_each_stage_once_and_a_second_run_adds_nothing():
    cities = ensure_demo_jurisdictions()
    users = {u.username: u for u in ensure_demo_users({j.slug: j for j in cities})}
    fill_demo_registry(cities, today=timezone.localdate(), resident_user=users["resident"])
    made = fill_demo_dangerous_dogs(cities, users=users, now=timezone.now())
    assert made == {"glencoe": 3, "north-branch": 1}
    today = timezone.localdate()
    cases = {c.status: c for c in DesignationCase.objects.all()}
    assert set(cases) == {CaseStatus.NOTICE_SERVED, CaseStatus.DEFAULTED, CaseStatus.DECLARED}
    assert cases[CaseStatus.NOTICE_SERVED].contest_deadline >= today
    assert cases[CaseStatus.DEFAULTED].defaulted_on <= today
    declared = cases[CaseStatus.DECLARED]
    assert declared.declared_designation == "dangerous"
    assert declared.compliance_deadline >= today
    assert declared.compliance_citation.startswith("Glencoe 701 Subd. 15")
    classification = Classification.objects.get()
    assert classification.in_force and classification.citation == "North Branch Sec. 6-73"
    assert fill_demo_dangerous_dogs(cities, users=users, now=timezone.now()) == {}
    assert DesignationCase.objects.count() == 3 and Classification.objects.count() == 1
