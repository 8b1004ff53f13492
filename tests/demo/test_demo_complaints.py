"""demo_data's complaints: North Branch's at-large dog cited from its complaint
(Secs. 6-28, 6-69) and an open barking complaint with a follow-up date; Glencoe's repeat
barking address and a litter warning; made once."""

import pytest
from django.utils import timezone

from citations.models import Citation
from complaints.models import Complaint, Outcome
from complaints.services import earlier_at_address
from demo.complaints import fill_demo_complaints
from demo.jurisdictions import ensure_demo_jurisdictions
from demo.registry import fill_demo_registry
from demo.users import ensure_demo_users


@pytest.mark.django_db
@pytest.mark.clock("2026-11-24T10:00")
def test_the_demo_has_an_officers_day_of_complaints_once():
    cities = ensure_demo_jurisdictions()
    users = {u.username: u for u in ensure_demo_users({j.slug: j for j in cities})}
    fill_demo_registry(cities, today=timezone.localdate(), resident_user=users["resident"])
    made = fill_demo_complaints(cities, users=users, now=timezone.now())
    assert made == {"north-branch": 2, "glencoe": 3}

    cited = Complaint.objects.get(jurisdiction__slug="north-branch", kind="running_at_large")
    assert cited.outcome == Outcome.CITATION and cited.restraint_facts.leash_length_ft == 10
    citation = Citation.objects.get()
    assert citation.source == cited and citation.animal == cited.animal
    assert citation.appearance_on > timezone.localdate()
    open_barking = Complaint.objects.get(jurisdiction__slug="north-branch", kind="barking")
    assert open_barking.follow_up_on > timezone.localdate() and not open_barking.outcome

    later = Complaint.objects.filter(jurisdiction__slug="glencoe", kind="barking").latest(
        "occurred_at"
    )
    assert earlier_at_address(later).count() == 1
    warned = Complaint.objects.get(jurisdiction__slug="glencoe", kind="litter")
    assert warned.outcome == Outcome.WARNING

    assert fill_demo_complaints(cities, users=users, now=timezone.now()) == {}
    assert Complaint.objects.count() == 5 and Citation.objects.count() == 1
