"""The counter's "Issue license" request: the receipt is laid out in
the request, the certificate and the 80 mm slip by the worker after commit. Here the test
transaction never commits, so the timing is the request alone, as the clerk waits for it."""

import statistics
import time
from datetime import date

import pytest
import time_machine
from django.urls import reverse

from tests.licensing.factories import AnimalFactory, RabiesVaccinationFactory
from tests.licensing.license_factories import TagStockFactory

pytestmark = [pytest.mark.bench, pytest.mark.django_db]
ISSUES = {"small": 2, "full": 8}


@time_machine.travel("2026-01-15 10:00 -06:00", tick=True)
def test_counter_issue_request_time(client_as, clerk, north_branch, bench_size):
    TagStockFactory(jurisdiction=north_branch, recorded_by=clerk, year=2026, last_number=50)
    client = client_as(clerk)
    dogs = []
    for n in range(ISSUES[bench_size] + 1):
        dog = AnimalFactory(jurisdiction=north_branch, name=f"Bench {n}")
        RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))
        dogs.append(dog)
    timings = []
    for dog in dogs:
        start = time.perf_counter()
        resp = client.post(
            reverse("licensing:counter_pay", args=[dog.pk]),
            {"method": "cash", "amount_tendered": "100.00"},
        )
        timings.append(time.perf_counter() - start)
        assert resp.status_code == 302
    warm = timings[1:]  # the first request pays for template and font loading
    print(
        f"\n[bench] counter issue request: median {statistics.median(warm):.2f} s, "
        f"max {max(warm):.2f} s over {len(warm)} (cold first {timings[0]:.2f} s)"
    )
