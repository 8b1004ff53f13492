"""demo_data's permits: Glencoe's horse permit checked and waiting for the
Council (its fee is blank, FEE-13), a temporary permit approved for a show; none in
North Branch; made once."""

import pytest
from django.utils import timezone

from demo.jurisdictions import ensure_demo_jurisdictions
from demo.permits import fill_demo_permits
from demo.users import ensure_demo_users
from permits.models import HorsePermit, HorseStatus, TemporaryPermit, TemporaryStatus


@pytest.mark.django_db
@pytest.mark.clock("2026-11-24T10:00")
def test_the_demo_has_glencoe_permits_once():
    cities = ensure_demo_jurisdictions()
    users = {u.username: u for u in ensure_demo_users({j.slug: j for j in cities})}
    assert fill_demo_permits(cities, users=users, now=timezone.now()) == {"glencoe": 2}
    horse = HorsePermit.objects.get()
    assert horse.jurisdiction.slug == "glencoe" and horse.status == HorseStatus.CHECKED
    assert not horse.issued_on  # waits for the Council; the fee is not set (FEE-13)
    show = TemporaryPermit.objects.get()
    assert show.status == TemporaryStatus.ISSUED and show.starts_on > timezone.localdate()
    assert fill_demo_permits(cities, users=users, now=timezone.now()) == {}
    assert HorsePermit.objects.count() == TemporaryPermit.objects.count() == 1
