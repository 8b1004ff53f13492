"""The read API and its done-when walk: a token for one city gets 404 for
the other city's records; without the personal-data scope, owners come back without
names and addresses. Token only, read only, scoped, paginated, throttled, logged."""

from datetime import timedelta

import pytest
import time_machine
from django.core.cache import cache
from django.urls import reverse

from api.models import ApiCall, Integration, Scope
from api.services import integration_revoke
from tests.api.helpers import (
    ALL_SCOPES,
    ENDPOINTS,
    NON_PERSONAL,
    NOW,
    auth,
    bulk,
    city_records,
    token_for,
)

PERSONAL_OWNER_FIELDS = {"first_name", "last_name", "address_line", "phone", "email"}


@pytest.fixture
def frozen():
    with time_machine.travel(NOW, tick=False) as traveller:
        yield traveller


@pytest.fixture
def records(frozen, north_branch, glencoe, clerk, glencoe_clerk):
    nb = city_records(north_branch, clerk, first="Nina", last="Nbowner", street="1 Main St")
    gl = city_records(glencoe, glencoe_clerk, first="Gail", last="Zzglowner", street="9 Zzgl St")
    return nb, gl


def _list(endpoint):
    return reverse(f"api:{endpoint[:-1]}-list")


def _detail(endpoint, pk):
    return reverse(f"api:{endpoint[:-1]}-detail", args=[pk])


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_a_token_for_one_city_gets_404_for_the_other_citys_records(
    endpoint, records, client, north_branch, administrator
):
    nb, gl = records
    _, token = token_for([north_branch], administrator)
    own = client.get(_detail(endpoint, nb.pk_of(endpoint)), **auth(token))
    assert own.status_code == 200 and own.json()["city"] == north_branch.slug
    assert client.get(_detail(endpoint, gl.pk_of(endpoint)), **auth(token)).status_code == 404
    listed = client.get(_list(endpoint), **auth(token)).json()["results"]
    assert {row["id"] for row in listed} == {nb.pk_of(endpoint)}


def test_ids_beyond_the_database_integer_range_are_404(
    records, client, north_branch, administrator
):
    _, token = token_for([north_branch], administrator)
    for endpoint in ENDPOINTS:
        assert client.get(_detail(endpoint, 2**63), **auth(token)).status_code == 404


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_a_token_for_both_cities_reads_both(
    endpoint, records, client, north_branch, glencoe, administrator
):
    nb, gl = records
    _, token = token_for([north_branch, glencoe], administrator)
    rows = client.get(_list(endpoint), **auth(token)).json()["results"]
    assert {r["id"] for r in rows} == {nb.pk_of(endpoint), gl.pk_of(endpoint)}
    only_gl = client.get(_list(endpoint), {"city": glencoe.slug}, **auth(token)).json()
    assert [r["id"] for r in only_gl["results"]] == [gl.pk_of(endpoint)]


def test_without_personal_data_owners_come_back_without_names_and_addresses(
    records, client, north_branch, administrator
):
    nb, _ = records
    _, token = token_for([north_branch], administrator, scopes=NON_PERSONAL)
    for url in (_list("owners"), _detail("owners", nb.owner.pk)):
        body = client.get(url, **auth(token)).content.decode()
        assert "Nina" not in body and "Nbowner" not in body and "1 Main St" not in body
        assert "555-0147" not in body and "example.org" not in body
    row = client.get(_detail("owners", nb.owner.pk), **auth(token)).json()
    assert row["id"] == nb.owner.pk and row["kind"] == "person"
    assert not PERSONAL_OWNER_FIELDS & set(row)
    # Nor do the payer on a receipt or the premises' address of an animal.
    receipt = client.get(_detail("receipts", nb.receipt.pk), **auth(token)).json()
    assert "payer_name" not in receipt and "payer_address" not in receipt
    assert receipt["payer"] == nb.owner.pk
    animal = client.get(_detail("animals", nb.animal.pk), **auth(token)).json()
    assert "premises_address" not in animal and animal["owner"] == nb.owner.pk


def test_with_personal_data_owners_come_back_with_names_and_addresses(
    records, client, north_branch, administrator
):
    nb, _ = records
    _, token = token_for([north_branch], administrator, scopes=ALL_SCOPES)
    row = client.get(_detail("owners", nb.owner.pk), **auth(token)).json()
    assert (row["first_name"], row["last_name"]) == ("Nina", "Nbowner")
    assert row["address_line"] == "1 Main St" and row["email"] == "nina@example.org"
    receipt = client.get(_detail("receipts", nb.receipt.pk), **auth(token)).json()
    assert receipt["payer_name"] == "Nina Nbowner"


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_an_endpoint_outside_the_tokens_scopes_is_403(
    endpoint, records, client, north_branch, administrator
):
    nb, _ = records
    others = [s for s in ALL_SCOPES if s != endpoint]
    _, token = token_for([north_branch], administrator, scopes=others)
    assert client.get(_list(endpoint), **auth(token)).status_code == 403
    assert client.get(_detail(endpoint, nb.pk_of(endpoint)), **auth(token)).status_code == 403


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_no_token_a_wrong_one_or_a_revoked_one_is_401(
    endpoint, records, client, north_branch, administrator
):
    integration, token = token_for([north_branch], administrator)
    url = _list(endpoint)
    assert client.get(url).status_code == 401
    assert client.get(url, **auth(token + "x")).status_code == 401
    assert client.get(url, HTTP_AUTHORIZATION="Bearer").status_code == 401
    assert client.get(url, HTTP_AUTHORIZATION="Bearer a b").status_code == 401
    assert client.get(url, **auth(token)).status_code == 200
    integration_revoke(integration=integration, actor=administrator, reason="Left", now=NOW)
    answer = client.get(url, **auth(token))
    assert answer.status_code == 401 and answer["WWW-Authenticate"].startswith("Bearer")


def test_a_staff_session_is_not_a_token(records, client, administrator):
    """Token only: the administrator's own login reads nothing through the API."""
    client.force_login(administrator)
    for endpoint in ENDPOINTS:
        assert client.get(_list(endpoint)).status_code == 401


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_the_api_is_read_only(method, records, client, north_branch, administrator):
    nb, _ = records
    _, token = token_for([north_branch], administrator)
    send = getattr(client, method)
    for endpoint in ENDPOINTS:
        for url in (_list(endpoint), _detail(endpoint, nb.pk_of(endpoint))):
            assert send(url, {}, **auth(token)).status_code in (403, 405)
    nb.owner.refresh_from_db()
    assert nb.owner.first_name == "Nina"


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_each_list_is_paged_with_a_bounded_number_of_queries(
    endpoint,
    frozen,
    north_branch,
    glencoe,
    clerk,
    administrator,
    client,
    django_assert_max_num_queries,
):
    bulk(north_branch, clerk, 320)
    _, token = token_for([north_branch, glencoe], administrator)
    seen, url, pages = set(), _list(endpoint) + "?page_size=500", 0
    while url:
        with django_assert_max_num_queries(10):
            body = client.get(url, **auth(token)).json()
        seen |= {row["id"] for row in body["results"]}
        url, pages = body["next"], pages + 1
    assert len(seen) == 320 and pages == 1
    seen, url, pages = set(), _list(endpoint) + "?page_size=100", 0
    while url:
        with django_assert_max_num_queries(10):
            body = client.get(url, **auth(token)).json()
        seen |= {row["id"] for row in body["results"]}
        url, pages = body["next"], pages + 1
    assert len(seen) == 320 and pages == 4


def test_a_page_size_above_the_maximum_is_cut_and_nonsense_is_ignored(
    frozen, north_branch, clerk, administrator, client, settings
):
    settings.API_MAX_PAGE_SIZE = 50
    bulk(north_branch, clerk, 60)
    _, token = token_for([north_branch], administrator)
    assert (
        len(client.get(_list("owners") + "?page_size=9999", **auth(token)).json()["results"]) == 50
    )
    for junk in ("-1", "abc", "\x00", "9" * 50):
        assert client.get(_list("owners"), {"page_size": junk}, **auth(token)).status_code == 200
    assert client.get(_list("owners"), {"cursor": "junk"}, **auth(token)).status_code == 404


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_changed_since_returns_the_records_changed_after_that_moment(
    endpoint, frozen, records, client, north_branch, clerk, administrator
):
    nb, _ = records
    _, token = token_for([north_branch], administrator)
    later = NOW + timedelta(days=3)
    frozen.move_to(later)
    fresh = city_records(
        north_branch, clerk, first="Fay", last="Fresh", street="5 New St", now=later
    )
    since = (NOW + timedelta(days=1)).isoformat()
    rows = client.get(_list(endpoint), {"changed_since": since}, **auth(token)).json()["results"]
    assert {r["id"] for r in rows} == {fresh.pk_of(endpoint)}
    everything = client.get(_list(endpoint), {"changed_since": "2026-01-01"}, **auth(token))
    assert {r["id"] for r in everything.json()["results"]} == {
        nb.pk_of(endpoint),
        fresh.pk_of(endpoint),
    }


def test_changed_since_sees_an_edit_of_an_old_record(
    frozen, records, client, north_branch, clerk, administrator
):
    """An owner who moved is "changed", though created long before: the history says so."""
    from licensing.services import registry as registry_svc

    nb, _ = records
    _, token = token_for([north_branch], administrator)
    frozen.move_to(NOW + timedelta(days=10))
    registry_svc.owner_update(owner=nb.owner, actor=clerk, address_line="2 Moved Ave")
    since = (NOW + timedelta(days=5)).isoformat()
    rows = client.get(_list("owners"), {"changed_since": since}, **auth(token)).json()["results"]
    assert [r["id"] for r in rows] == [nb.owner.pk]


@pytest.mark.parametrize(
    "bad", ["yesterday", "2026-02-30", "0001-01-01", "9999-12-31T23:59", "\x00"]
)
def test_a_bad_changed_since_is_a_400_that_says_why(
    bad, records, client, north_branch, administrator
):
    _, token = token_for([north_branch], administrator)
    for endpoint in ENDPOINTS:
        answer = client.get(_list(endpoint), {"changed_since": bad}, **auth(token))
        assert answer.status_code == 400 and "changed_since" in answer.json()


def test_receipts_by_date_range_for_the_finance_export(
    frozen, records, client, north_branch, clerk, administrator
):
    nb, _ = records
    _, token = token_for([north_branch], administrator, scopes=[Scope.RECEIPTS])
    march_5 = NOW + timedelta(days=3)
    frozen.move_to(march_5)
    later = city_records(
        north_branch, clerk, first="Lou", last="Later", street="7 Late St", now=march_5
    )

    def numbers(**query):
        body = client.get(_list("receipts"), query, **auth(token)).json()
        return {r["id"] for r in body["results"]}

    assert numbers(issued_from="2026-03-02", issued_to="2026-03-02") == {nb.receipt.pk}
    assert numbers(issued_from="2026-03-03") == {later.receipt.pk}
    assert numbers(issued_to="2026-03-05") == {nb.receipt.pk, later.receipt.pk}
    row = client.get(_detail("receipts", nb.receipt.pk), **auth(token)).json()
    assert row["total"] == str(nb.receipt.total) and row["lines"]
    assert sum(float(line["amount"]) for line in row["lines"]) == float(row["total"])
    assert row["licenses"] == [nb.license.pk]
    for bad in ("2026-02-30", "9999-12-31", "x"):
        assert client.get(_list("receipts"), {"issued_to": bad}, **auth(token)).status_code == 400


def test_each_integration_is_throttled_at_the_rate_in_settings(
    records, client, north_branch, administrator, settings
):
    settings.API_THROTTLE_RATE = "3/minute"
    cache.clear()
    _, token = token_for([north_branch], administrator, name="Finance")
    _, other = token_for([north_branch], administrator, name="GIS")
    answers = [client.get(_list("owners"), **auth(token)).status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]
    assert client.get(_list("owners"), **auth(other)).status_code == 200  # its own count
    assert ApiCall.objects.filter(status=429).count() == 1


def test_every_call_is_logged_with_its_integration_path_query_status_and_address(
    records, client, north_branch, glencoe, administrator
):
    nb, gl = records
    integration, token = token_for([north_branch], administrator)
    client.get(_list("owners"), {"changed_since": "2026-01-01"}, **auth(token))
    client.get(_detail("owners", gl.owner.pk), **auth(token), REMOTE_ADDR="10.1.2.3")
    client.get(_list("owners"), **auth("wrong"))
    client.get(reverse("api:schema"))
    calls = list(ApiCall.objects.order_by("pk"))
    assert [(c.integration_id, c.path, c.status) for c in calls] == [
        (integration.pk, _list("owners"), 200),
        (integration.pk, _detail("owners", gl.owner.pk), 404),
        (None, _list("owners"), 401),
        (None, reverse("api:schema"), 200),
    ]
    assert calls[0].query == "changed_since=2026-01-01" and calls[1].ip == "10.1.2.3"


def test_a_logged_call_costs_one_insert(records, client, north_branch, administrator):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    _, token = token_for([north_branch], administrator)
    with CaptureQueriesContext(connection) as queries:
        client.get(_list("owners"), **auth(token))
    inserts = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("INSERT")]
    assert len(inserts) == 1 and "api_apicall" in inserts[0]


def test_the_token_is_stored_only_as_its_digest(frozen, north_branch, administrator):
    from django.db import connection

    integration, token = token_for([north_branch], administrator)
    with connection.cursor() as cursor:
        for table in ("api_integration", "api_historicalintegration"):
            cursor.execute(f"SELECT * FROM {table}")  # noqa: S608 (our own table names)
            assert token not in repr(cursor.fetchall())
    assert integration.token_hash and integration.token_hash != token
    assert token.startswith(integration.token_prefix)


def test_an_integration_is_never_deleted(frozen, north_branch, administrator):
    from django.db.models import ProtectedError

    integration, _ = token_for([north_branch], administrator)
    with pytest.raises(ProtectedError):
        integration.delete()
    assert Integration.objects.filter(pk=integration.pk).exists()


def test_the_openapi_schema_is_served_and_names_every_endpoint(client, db):
    answer = client.get(reverse("api:schema"), {"format": "json"})
    assert answer.status_code == 200
    schema = answer.json()
    for endpoint in ENDPOINTS:
        assert f"/api/v1/{endpoint}/" in schema["paths"]
        assert f"/api/v1/{endpoint}/{{id}}/" in schema["paths"]
    params = {p["name"] for p in schema["paths"]["/api/v1/receipts/"]["get"]["parameters"]}
    assert {"changed_since", "issued_from", "issued_to", "cursor", "page_size"} <= params
    assert "bearerAuth" in schema["components"]["securitySchemes"]
