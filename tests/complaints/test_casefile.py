"""The case file: every complaint, entry or inspection, warning,
citation and impoundment about an animal, an owner or a premises, oldest first, in one
query; on the animal's and owner's pages and the premises' own page, within the page
query budget however many records there are; the user's cities only; never residents."""

import pytest
from django.urls import reverse

from complaints import casefile
from complaints.casefile import Scope, case_file
from complaints.models import Entry, Outcome
from complaints.services import entry_record, record_outcome
from licensing.models import Premises
from tests.citations.helpers import cite
from tests.complaints.helpers import at, take_complaint
from tests.impound.factories import make_pound
from tests.impound.helpers import impound, owned_dog

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-06-20T12:00")]

ADDRESS = "12 North Elm Street"
PAGE_BUDGET = 10  # tests/test_every_page.py QUERY_BUDGET


def _premises(city, address=ADDRESS):
    return Premises.objects.create(
        jurisdiction=city, address_line=address, city="North Branch", postal_code="55056"
    )


@pytest.fixture
def dog(north_branch):
    dog = owned_dog(north_branch, name="Rufus")
    dog.premises = _premises(north_branch)
    dog.save()
    return dog


@pytest.fixture
def history(north_branch, glencoe, clerk, officer, dog):
    """A barking complaint with an inspection and a warning, then a complaint at large
    with a citation, then an impoundment; and a Glencoe complaint the NB clerk never sees."""
    first = take_complaint(
        north_branch, clerk, when=at(2026, 6, 1, 21, 0), animal=dog, address_line=ADDRESS
    )
    entry_record(
        complaint=first,
        actor=officer,
        basis="exhibit_dog_or_license",
        entered_at=at(2026, 6, 2, 9, 0),
        findings="Dog in the yard.",
        now=at(2026, 6, 2, 9, 30),
    )
    record_outcome(
        complaint=first, actor=officer, outcome=Outcome.WARNING, now=at(2026, 6, 3, 10, 0)
    )
    second = take_complaint(
        north_branch,
        clerk,
        kind="running_at_large",
        when=at(2026, 6, 10, 8, 0),
        animal=dog,
        owner=dog.owner,
        address_line=ADDRESS,
    )
    citation = cite(north_branch, officer, dog, when=at(2026, 6, 10, 15, 0))
    case = impound(
        north_branch, make_pound(north_branch), officer, animal=dog, placed_at=at(2026, 6, 12, 7)
    )
    gl_dog = owned_dog(glencoe, name="Zzglencoe")
    take_complaint(glencoe, officer, when=at(2026, 6, 5, 9, 0), animal=gl_dog)
    return {"first": first, "second": second, "citation": citation, "case": case}


def _kinds(rows):
    return [(r.kind, r.at) for r in rows]


def test_the_animal_case_file_is_in_time_order(history, dog, clerk):
    rows = case_file(Scope(jurisdiction_ids=tuple(clerk.jurisdiction_ids), animal=dog))
    assert _kinds(rows) == [
        ("complaint", at(2026, 6, 1, 21, 0)),
        ("entry", at(2026, 6, 2, 9, 0)),
        ("warning", at(2026, 6, 3, 10, 0)),
        ("complaint", at(2026, 6, 10, 8, 0)),
        ("citation", at(2026, 6, 10, 15, 0)),
        ("impoundment", at(2026, 6, 12, 7)),
    ]
    citation = rows[4]
    assert citation.number == str(history["citation"].number)
    assert citation.section == history["citation"].violation_citation
    assert citation.url == reverse("citations:detail", args=[history["citation"].pk])
    assert rows[5].number == history["case"].number
    assert rows[5].due == history["case"].hold_ends_on
    assert rows[1].url == rows[2].url == reverse("complaints:detail", args=[history["first"].pk])


def test_the_owner_and_premises_files_gather_the_same_records(history, dog, clerk):
    ids = tuple(clerk.jurisdiction_ids)
    owner_rows = case_file(Scope(jurisdiction_ids=ids, owner=dog.owner))
    premises_rows = case_file(Scope(jurisdiction_ids=ids, premises=dog.premises))
    # The first complaint names the dog, not the owner: the owner's file finds it through
    # the dog; the premises' file through the address matched at intake.
    # (the citation carries the dog's premises, as issued).
    expected = ["complaint", "entry", "warning", "complaint", "citation", "impoundment"]
    assert [r.kind for r in owner_rows] == expected
    assert [r.kind for r in premises_rows] == expected


def test_the_case_file_is_one_query_whatever_its_size(
    history, dog, clerk, officer, django_assert_num_queries
):
    complaint = history["second"]
    Entry.objects.bulk_create(
        Entry(
            complaint=complaint,
            entered_at=at(2026, 6, 11, 8, 0),
            officer=officer,
            basis="exhibit_dog_or_license",
            basis_label="To see the dog",
            basis_citation="Sec. 6-96(5)",
            findings=f"Visit {n}",
            recorded_at=at(2026, 6, 11, 8, 0),
        )
        for n in range(300)
    )
    with django_assert_num_queries(1):
        rows = case_file(Scope(jurisdiction_ids=tuple(clerk.jurisdiction_ids), animal=dog))
        [(r.url, r.what, r.status_label) for r in rows]
    assert len(rows) == 306


def test_another_city_never_shows(history, dog, glencoe_clerk, officer, glencoe):
    assert (
        case_file(Scope(jurisdiction_ids=tuple(glencoe_clerk.jurisdiction_ids), animal=dog)) == []
    )
    gl_dog = history and owned_dog(glencoe)
    assert case_file(Scope(jurisdiction_ids=(glencoe.pk,), animal=gl_dog)) == []


def test_a_registered_source_joins_the_union(history, dog, clerk):
    """Another app's rows in the same query and order (``register_source``)."""
    from complaints.models import Complaint

    def notes(scope):
        found = Complaint.objects.filter(animal=scope.animal, kind="barking")
        return casefile.row_columns(found, kind="note", at="received_at", label="address_line")

    casefile.register_source("note", "complaints:detail", notes)
    try:
        rows = case_file(Scope(jurisdiction_ids=tuple(clerk.jurisdiction_ids), animal=dog))
    finally:
        casefile._extra_sources.pop("note")
        casefile._LINKS.pop("note")
    assert [r.kind for r in rows].count("note") == 1
    assert rows[1].kind == "note" and rows[1].label == ADDRESS


@pytest.mark.clock("2026-06-15T22:00")
def test_the_barking_seizure_is_in_the_premises_file_before_its_impoundment(glencoe, officer):
    from complaints.seizure import seizure_record
    from tests.complaints.seizure_helpers import (
        NOW,
        all_seven,
        earlier_and_now,
        failed_attempt,
        glencoe_pound,
    )

    premises = Premises.objects.create(
        jurisdiction=glencoe, address_line=ADDRESS, city="Glencoe", postal_code="55336"
    )
    earlier, tonight = earlier_and_now(glencoe, officer)
    failed_attempt(tonight, officer)
    seizure = seizure_record(
        complaint=tonight, actor=officer, now=NOW, **all_seven(glencoe_pound(glencoe))
    )
    rows = case_file(Scope(jurisdiction_ids=(glencoe.pk,), premises=premises))
    assert [r.kind for r in rows] == ["complaint", "complaint", "seizure", "impoundment"]
    assert rows[2].url == reverse("complaints:seizure", args=[tonight.pk])
    assert rows[2].section == seizure.citation and rows[2].label == "Front door"
    assert rows[3].number == seizure.impound_case.number


# --- The pages -------------------------------------------------------------------------


@pytest.fixture
def many(history, north_branch, clerk, officer, dog):
    """Hundreds of records around the dog, its owner and its premises."""
    for n in range(40):
        take_complaint(
            north_branch,
            clerk,
            when=at(2026, 6, 13, 8, n),
            animal=dog,
            owner=dog.owner,
            address_line=ADDRESS,
        )
    Entry.objects.bulk_create(
        Entry(
            complaint=history["second"],
            entered_at=at(2026, 6, 11, 8, 0),
            officer=officer,
            basis="exhibit_dog_or_license",
            basis_label="To see the dog",
            basis_citation="Sec. 6-96(5)",
            findings=f"Visit {n}",
            recorded_at=at(2026, 6, 11, 8, 0),
        )
        for n in range(260)
    )
    for day in range(14, 17):
        cite(north_branch, officer, dog, when=at(2026, 6, day, 10, 0))
    return dog


def _warm(client, url):
    client.get(url)  # the user's roles and cities, the rule rows: cached after one page


@pytest.mark.parametrize("persona", ["clerk", "officer"])
def test_the_pages_stay_within_the_query_budget(
    persona, request, client_as, many, django_assert_max_num_queries
):
    client = client_as(request.getfixturevalue(persona))
    for url in (
        reverse("licensing:animal_detail", args=[many.pk]),
        reverse("licensing:owner_detail", args=[many.owner.pk]),
        reverse("complaints:premises_casefile", args=[many.premises_id]),
        reverse("licensing:premises_detail", args=[many.premises_id]),
    ):
        _warm(client, url)
        with django_assert_max_num_queries(PAGE_BUDGET):
            page = client.get(url)
        body = page.content.decode()
        assert page.status_code == 200, url
        assert 'id="casefile-heading"' in body
        assert body.count("Entry or inspection") >= 261, url


def test_the_animal_page_shows_the_file_in_order(client_as, clerk, history, dog):
    body = client_as(clerk).get(reverse("licensing:animal_detail", args=[dog.pk])).content
    body = body.decode()
    start = body.index('id="casefile-heading"')
    positions = [
        body.index(text, start)
        for text in (
            "Complaint " + str(history["first"].pk),
            "Entry or inspection",
            "Warning",
            "Citation " + str(history["citation"].number),
            "Impoundment " + history["case"].number,
        )
    ]
    assert positions == sorted(positions)
    assert history["case"].ground_citation in body
    assert "Zzglencoe" not in body
    assert reverse("complaints:premises_casefile", args=[dog.premises_id]) in body


def test_residents_never_see_the_case_file(client_as, resident, history, dog):
    client = client_as(resident)
    assert (
        client.get(reverse("complaints:premises_casefile", args=[dog.premises_id])).status_code
        == 403
    )
    body = client.get(reverse("licensing:portal_home")).content.decode()
    assert "casefile-heading" not in body


def test_another_citys_premises_is_not_found(client_as, glencoe_clerk, dog):
    url = reverse("complaints:premises_casefile", args=[dog.premises_id])
    assert client_as(glencoe_clerk).get(url).status_code == 404


def test_the_sql_compiled_once_answers_each_record_and_set_of_cities_with_its_own(
    history, dog, clerk, officer, north_branch, glencoe
):
    """The union is compiled once per process per shape with stand-in
    keys: each later animal, owner, premises and set of cities still gets its own rows,
    the same as the queryset built afresh gives."""
    gl_dog = owned_dog(glencoe, name="Gladys")
    take_complaint(glencoe, officer, when=at(2026, 6, 6, 9, 0), animal=gl_dog)
    both = (north_branch.pk, glencoe.pk)
    scopes = [
        Scope(jurisdiction_ids=(north_branch.pk,), animal=dog),
        Scope(jurisdiction_ids=(glencoe.pk,), animal=gl_dog),
        Scope(jurisdiction_ids=(north_branch.pk,), animal=gl_dog),  # not this city's
        Scope(jurisdiction_ids=both, animal=gl_dog),
        Scope(jurisdiction_ids=(glencoe.pk, north_branch.pk), animal=dog),
        Scope(jurisdiction_ids=both, owner=dog.owner),
        Scope(jurisdiction_ids=(glencoe.pk,), owner=dog.owner),
        Scope(jurisdiction_ids=(north_branch.pk,), premises=dog.premises),
    ]
    expected_counts = [6, 1, 0, 1, 6, 6, 0, 6]
    for scope, count in zip(scopes, expected_counts, strict=True):
        fresh = [casefile.CaseFileRow(*row) for row in casefile._union(scope)]
        assert case_file(scope) == fresh
        assert len(fresh) == count, scope
    assert isinstance(case_file(scopes[0])[0].at, type(at(2026, 6, 1, 21, 0)))


def test_a_source_that_reads_the_record_into_its_sql_is_refused(history, dog, clerk):
    """The compiled-once SQL holds stand-in keys: a source that reads an attribute of the
    scope's record (not only filters by it) would be wrong for every other record."""
    from django.core.exceptions import ImproperlyConfigured

    from complaints.models import Complaint

    def by_name(scope):
        found = Complaint.objects.filter(address_line=scope.animal.name or "")
        return casefile.row_columns(found, kind="note", at="received_at")

    casefile.register_source("note", "complaints:detail", by_name)
    try:
        with pytest.raises(ImproperlyConfigured):
            case_file(Scope(jurisdiction_ids=tuple(clerk.jurisdiction_ids), animal=dog))
    finally:
        casefile._extra_sources.pop("note")
        casefile._LINKS.pop("note")
        casefile._COMPILED.clear()
