"""The rules page shows the Minnesota dangerous-dog floors beside Glencoe's values, each with
its section, and which governs (Appendix H MN-05..MN-08; DD-11, DD-12, DD-13, DD-25)."""

import re

import pytest
from django.urls import reverse

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-11-24T10:00")]


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#x27;", "'")


@pytest.fixture
def page(client_as, glencoe_clerk, glencoe, django_assert_max_num_queries):
    url = reverse("ordinance:profile_detail", args=[glencoe.slug])
    response = client_as(glencoe_clerk).get(url)
    assert response.status_code == 200
    return _text(response.content.decode())


def test_the_bond_floor_governs_over_glencoes_fifty_dollars_with_why(page):
    assert "$300,000.00" in page and "Minn. Stat. 347.51 subd. 2" in page
    assert "Glencoe 701 Subd. 15(E)(2), (J)(2)" in page
    assert re.search(r"Minn\. Stat\. 347\.51 subd\. 2 \(at least \$300,000\.00\) governs", page)
    assert "weaker than state law allows" in page


def test_the_fee_cap_microchip_review_sterilization_and_hearing_rows(page):
    assert "$500.00" in page  # the fee cap (347.51 subd. 2) where Glencoe left it blank
    assert "Minn. Stat. 347.515" in page and "Minn. Stat. 347.51 subd. 2; 347.515" in page
    assert "Minn. Stat. 347.51 subd. 3a" in page  # review from six months, annually
    assert "Minn. Stat. 347.52(d) sets at most 30 days; Glencoe's ordinance leaves it blank" in page
    assert (
        "Minn. Stat. 347.541 subd. 4 sets “A dangerous designation is heard by an impartial "
        "hearing officer” (Yes)" in page
    )
    assert "Minnesota law governs" in page
    assert "Glencoe's ordinance leaves it blank (Glencoe 701 Subd. 15(E)(3), (J)(3))" in page
