"""demo_data's clinic: the ``vet`` login is the person of a clinic serving both
cities; its certificates matched demo dogs on their own, a mover and a newcomer wait in
each city's queue; made once."""

import pytest
from django.utils import timezone

from clinics.models import CertificateSubmission, ClinicMember, SubmissionStatus
from demo.clinics import MATCHED_PER_CITY, fill_demo_clinics
from demo.jurisdictions import ensure_demo_jurisdictions
from demo.registry import fill_demo_registry
from demo.users import ensure_demo_users


@pytest.mark.django_db
@pytest.mark.clock("2026-11-24T10:00")
def test_the_demo_clinic_sends_certificates_once():
    cities = ensure_demo_jurisdictions()
    users = {u.username: u for u in ensure_demo_users({j.slug: j for j in cities})}
    fill_demo_registry(cities, today=timezone.localdate(), resident_user=users["resident"])
    made = fill_demo_clinics(cities, users=users, now=timezone.now())
    assert made == {c.slug: MATCHED_PER_CITY + 2 for c in cities}
    member = ClinicMember.objects.get(user=users["vet"])
    assert set(member.clinic.jurisdictions.all()) == set(cities)
    for city in cities:
        sent = CertificateSubmission.objects.filter(jurisdiction=city)
        matched = sent.filter(status=SubmissionStatus.MATCHED)
        assert matched.count() == MATCHED_PER_CITY
        assert all(s.vaccination and s.animal for s in matched)
        assert sent.filter(status=SubmissionStatus.QUEUED).count() == 2
    assert fill_demo_clinics(cities, users=users, now=timezone.now()) == {}
    assert CertificateSubmission.objects.count() == sum(made.values())
