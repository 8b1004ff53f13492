"""Addresses spelled "licence" before the rename to the ordinance's word redirect."""

import pytest
from django.urls import reverse


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("/licences/12/", "/licenses/12/"),
        ("/licences/12/transfer/?q=smith", "/licenses/12/transfer/?q=smith"),
        ("/reports/licences-issued/?format=csv", "/reports/licenses-issued/?format=csv"),
        ("/kennels/3/licence.pdf", "/kennels/3/license.pdf"),
    ],
)
def test_an_old_address_redirects_permanently_to_the_new_one(client, old, new):
    response = client.get(old)
    assert response.status_code == 301
    assert response["Location"] == new


def test_the_new_address_is_a_page_that_still_checks_who_asks(client):
    response = client.get("/licenses/12/")
    assert response.status_code == 302 and response["Location"].startswith(
        reverse("accounts:login")
    )
