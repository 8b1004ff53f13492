"""The administrator's integration pages: administrators only, their
cities only (404 otherwise); the token is shown once, on the answer to the creation, and
never again; revoking stops the token; bad input is answered beside its field."""

import pytest
import time_machine
from django.urls import reverse

from api.models import Integration, Scope, token_digest
from base.roles import ADMINISTRATOR
from tests.api.helpers import NOW, auth, bulk, token_for
from tests.conftest import make_user


@pytest.fixture(autouse=True)
def frozen():
    with time_machine.travel(NOW, tick=False):
        yield


@pytest.fixture
def nb_admin(north_branch):
    return make_user("ned", ADMINISTRATOR, [north_branch])


@pytest.fixture
def gl_admin(glencoe):
    return make_user("gladys", ADMINISTRATOR, [glencoe])


def test_an_administrator_creates_an_integration_and_sees_its_token_once(
    client, nb_admin, north_branch
):
    client.force_login(nb_admin)
    page = client.get(reverse("integrations:create"))
    assert page.status_code == 200
    assert 'name="cities"' in page.content.decode()  # hidden: one city, no picker
    answer = client.post(
        reverse("integrations:create"),
        {
            "name": "County dispatch",
            "cities": [north_branch.pk],
            "scopes": [Scope.OWNERS, Scope.PERSONAL_DATA],
        },
    )
    assert answer.status_code == 200 and answer["Cache-Control"] == "no-store"
    token = answer.context["token"]
    assert token in answer.content.decode()
    integration = Integration.objects.get(name="County dispatch")
    assert integration.token_hash == token_digest(token) and integration.created_by == nb_admin
    assert [c.pk for c in integration.cities.all()] == [north_branch.pk]
    assert integration.history.count() == 1
    # Never shown again: not on its page, not in the list.
    for url in (
        reverse("integrations:detail", args=[integration.pk]),
        reverse("integrations:list"),
    ):
        text = client.get(url).content.decode()
        assert token not in text and integration.token_prefix in text
    client.logout()
    assert client.get(reverse("api:owner-list"), **auth(token)).status_code == 200


def test_revoking_stops_the_token_and_is_in_the_history(client, nb_admin, north_branch):
    integration, token = token_for([north_branch], nb_admin)
    client.force_login(nb_admin)
    url = reverse("integrations:revoke", args=[integration.pk])
    answer = client.post(url, {"reason": "Contract ended"})
    assert answer.status_code == 302
    integration.refresh_from_db()
    assert integration.revoked_at is not None and integration.revoked_by == nb_admin
    assert integration.history.first().history_change_reason == "Contract ended"
    assert client.get(reverse("api:owner-list"), **auth(token)).status_code == 401
    again = client.post(url, {"reason": "Twice"})
    assert again.status_code == 400 and "already revoked" in again.content.decode()


@pytest.mark.parametrize(
    "data, field",
    [
        ({"name": "", "scopes": ["owners"]}, "name"),
        ({"name": "x" * 121, "scopes": ["owners"]}, "name"),
        ({"name": "a\x00b", "scopes": ["owners"]}, "name"),
        ({"name": "GIS", "scopes": ["everything"]}, "scopes"),
        ({"name": "GIS", "scopes": []}, "scopes"),
        ({"name": "GIS", "scopes": ["owners"], "cities": ["-1"]}, "cities"),
        ({"name": "GIS", "scopes": ["owners"], "cities": []}, "cities"),
    ],
)
def test_bad_input_on_the_new_integration_is_answered_beside_the_field(
    data, field, client, administrator, north_branch
):
    client.force_login(administrator)
    data = {"cities": [north_branch.pk], **data}
    answer = client.post(reverse("integrations:create"), data)
    assert answer.status_code == 400
    assert answer.context["form"].errors[field]
    assert not Integration.objects.exists()


def test_a_city_the_administrator_does_not_serve_cannot_be_chosen(
    client, nb_admin, glencoe, north_branch
):
    client.force_login(nb_admin)
    answer = client.post(
        reverse("integrations:create"),
        {"name": "GIS", "cities": [north_branch.pk, glencoe.pk], "scopes": ["animals"]},
    )
    assert answer.status_code == 400 and answer.context["form"].errors["cities"]
    assert not Integration.objects.exists()


def test_a_bad_revocation_reason_is_answered_beside_the_field(client, nb_admin, north_branch):
    integration, _ = token_for([north_branch], nb_admin)
    client.force_login(nb_admin)
    for reason in ("", "r" * 201, "a\x00b"):
        answer = client.post(
            reverse("integrations:revoke", args=[integration.pk]), {"reason": reason}
        )
        assert answer.status_code == 400 and answer.context["revoke_form"].errors["reason"]
    integration.refresh_from_db()
    assert integration.revoked_at is None


@pytest.mark.parametrize("persona", ["clerk", "officer", "resident"])
def test_other_roles_get_403(persona, request, client, north_branch, administrator):
    integration, _ = token_for([north_branch], administrator)
    client.force_login(request.getfixturevalue(persona))
    for url in (
        reverse("integrations:list"),
        reverse("integrations:create"),
        reverse("integrations:detail", args=[integration.pk]),
    ):
        assert client.get(url).status_code == 403
    assert (
        client.post(
            reverse("integrations:revoke", args=[integration.pk]), {"reason": "x"}
        ).status_code
        == 403
    )
    integration.refresh_from_db()
    assert integration.revoked_at is None


def test_an_administrator_of_another_city_gets_404(
    client, gl_admin, nb_admin, north_branch, glencoe, administrator
):
    nb_only, _ = token_for([north_branch], administrator, name="Zznb finance")
    both, _ = token_for([north_branch, glencoe], administrator, name="Zzboth county")
    client.force_login(gl_admin)
    for integration in (nb_only, both):
        assert client.get(reverse("integrations:detail", args=[integration.pk])).status_code == 404
        revoke = client.post(reverse("integrations:revoke", args=[integration.pk]), {"reason": "x"})
        assert revoke.status_code == 404
    listed = client.get(reverse("integrations:list")).content.decode()
    assert "Zznb" not in listed and "Zzboth" not in listed
    client.force_login(nb_admin)  # serves North Branch only: the two-city one is not theirs
    listed = client.get(reverse("integrations:list")).content.decode()
    assert "Zznb finance" in listed and "Zzboth" not in listed
    client.force_login(administrator)
    listed = client.get(reverse("integrations:list")).content.decode()
    assert "Zznb finance" in listed and "Zzboth county" in listed


def test_the_pages_stay_within_ten_queries_with_many_integrations_and_calls(
    client, administrator, north_branch, glencoe, clerk, django_assert_max_num_queries
):
    bulk(north_branch, clerk, 5)
    tokens = [token_for([north_branch, glencoe], administrator, name=f"I{i}") for i in range(30)]
    integration, token = tokens[0]
    for _ in range(60):
        client.get(reverse("api:owner-list"), **auth(token))
    client.force_login(administrator)
    for url in (
        reverse("integrations:list"),
        reverse("integrations:detail", args=[integration.pk]),
        reverse("integrations:create"),
    ):
        with django_assert_max_num_queries(10):
            assert client.get(url).status_code == 200
