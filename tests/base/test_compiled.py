"""base.compiled: a query compiled once per process and shape, run
with each call's own keys, gives what the queryset built afresh gives; a builder that
reads a record into its SQL is refused; an empty set of keys costs no query."""

from datetime import date

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db.models import F, Q

from base.compiled import CompiledOnce, Fill
from licensing.models import Animal, RabiesVaccination
from licensing.models.search import like_escaped
from tests.licensing.factories import AnimalFactory, OwnerFactory, RabiesVaccinationFactory

pytestmark = pytest.mark.django_db


def _vaccinations(owner, jurisdiction_ids):
    return (
        RabiesVaccination.objects.filter(
            animal__owner=owner, animal__jurisdiction_id__in=jurisdiction_ids
        )
        .annotate(animal_name=F("animal__name"))
        .order_by("vaccinated_on", "pk")
        .values_list("animal_name", "vaccinated_on", "next_due_on")
    )


def _vaccinate(animal, on):
    return RabiesVaccinationFactory(
        animal=animal, vaccinated_on=on, duration_years=1, next_due_on=on.replace(year=on.year + 1)
    )


@pytest.fixture
def owners(north_branch, glencoe):
    nb_owner = OwnerFactory(jurisdiction=north_branch)
    gl_owner = OwnerFactory(jurisdiction=glencoe)
    for owner, city, names in (
        (nb_owner, north_branch, ("Rex", "Bo")),
        (gl_owner, glencoe, ("Juno",)),
    ):
        premises = None
        for n, name in enumerate(names):
            extra = {"premises": premises} if premises else {}
            dog = AnimalFactory(jurisdiction=city, owner=owner, name=name, **extra)
            premises = dog.premises
            _vaccinate(dog, date(2025, 3, 1 + n))
    return nb_owner, gl_owner


def test_each_call_gets_its_own_rows_as_the_queryset_would(owners, north_branch, glencoe):
    nb_owner, gl_owner = owners
    compiled = CompiledOnce(_vaccinations)
    calls = [
        (nb_owner, (north_branch.pk,)),
        (gl_owner, (glencoe.pk,)),
        (gl_owner, (north_branch.pk,)),  # not this city's: nothing
        (nb_owner, (glencoe.pk, north_branch.pk)),
        (gl_owner, (north_branch.pk, glencoe.pk)),
    ]
    for owner, cities in calls:
        expected = list(_vaccinations(owner, cities))
        assert list(compiled.rows(owner=owner, jurisdiction_ids=cities)) == expected
    assert [
        name for name, *_ in compiled.rows(owner=nb_owner, jurisdiction_ids=(north_branch.pk,))
    ] == ["Rex", "Bo"]
    # Dates come back as dates (the compiler's converters), on SQLite as on PostgreSQL.
    first = next(iter(compiled.rows(owner=gl_owner, jurisdiction_ids=(glencoe.pk,))))
    assert first[1] == date(2025, 3, 1) and first[2] == date(2026, 3, 1)
    assert len(compiled._plans) == 2  # one per shape: one city, two cities


def test_later_calls_build_no_queryset(owners, north_branch, django_assert_num_queries):
    nb_owner, _ = owners
    built = []

    def build(owner, jurisdiction_ids):
        built.append(owner.pk)
        return _vaccinations(owner, jurisdiction_ids)

    compiled = CompiledOnce(build)
    for _ in range(3):
        with django_assert_num_queries(1):
            rows = list(compiled.rows(owner=nb_owner, jurisdiction_ids=(north_branch.pk,)))
        assert len(rows) == 2
    assert len(built) == 1 and built[0] < 0  # once, with the stand-in


def test_no_keys_no_query(owners, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert list(CompiledOnce(_vaccinations).rows(owner=owners[0], jurisdiction_ids=())) == []


def test_a_new_version_compiles_again(owners, north_branch):
    nb_owner, _ = owners
    version = ["a"]
    compiled = CompiledOnce(_vaccinations, version=lambda: version[0])
    compiled.rows(owner=nb_owner, jurisdiction_ids=(north_branch.pk,))
    version[0] = "b"
    compiled.rows(owner=nb_owner, jurisdiction_ids=(north_branch.pk,))
    assert len(compiled._plans) == 2


def test_a_builder_that_reads_the_record_into_its_sql_is_refused(owners, north_branch):
    def by_name(owner, jurisdiction_ids):  # the stand-in has no name to read
        return Animal.objects.filter(
            name=owner.last_name, jurisdiction_id__in=jurisdiction_ids
        ).values_list("pk")

    def ignores_the_record(owner, jurisdiction_ids):
        return Animal.objects.filter(jurisdiction_id__in=jurisdiction_ids).values_list("pk")

    for build in (by_name, ignores_the_record):
        with pytest.raises(ImproperlyConfigured):
            CompiledOnce(build).rows(owner=owners[0], jurisdiction_ids=(north_branch.pk,))


def _named(fill):
    """Animals of some owners (the shape) whose name begins with a filled text, or that
    have a filled key."""
    owner_ids, _ = fill.shape
    matches = Q(name__startswith=fill["start"])
    if "pk" in fill.values:
        matches |= Q(pk=fill["pk"])
    return (
        Animal.objects.filter(matches, owner_id__in=owner_ids)
        .order_by("name")
        .values_list("name", flat=True)
    )


def test_filled_values_are_each_calls_own(owners, django_assert_num_queries):
    nb_owner, gl_owner = owners
    compiled = CompiledOnce(_named)
    both = ((nb_owner.pk, gl_owner.pk), "both")
    juno = Animal.objects.get(name="Juno")
    calls = [
        (Fill(both, start="R"), ["Rex"]),
        (Fill(both, start="B"), ["Bo"]),
        (Fill(both, start="%"), []),  # a value is a parameter: "%" is no wildcard
        (Fill(both, start="B", pk=juno.pk), ["Bo", "Juno"]),
        (Fill(both, start="Q", pk=juno.pk), ["Juno"]),
        (Fill(((nb_owner.pk,), "one"), start="J"), []),  # another shape: Juno is not his
    ]
    for fill, names in calls:
        expected = list(_named(fill))
        assert expected == names
        with django_assert_num_queries(1):
            assert [row[0] for row in compiled.rows(fill=fill)] == names
    # One plan per shape: with and without the key, and the other owners.
    assert len(compiled._plans) == 3


def test_a_filled_value_changed_in_python_is_refused(owners):
    def lowered(fill):
        return Animal.objects.filter(name=fill.values["start"].lower()).values_list("pk")

    def escaped(fill):
        return Animal.objects.filter(name=like_escaped(fill.values["start"])).values_list("pk")

    def wrapped(fill):
        return Animal.objects.filter(name=f"{fill.values['start']}x").values_list("pk")

    for build in (lowered, escaped, wrapped):
        with pytest.raises(ImproperlyConfigured):
            CompiledOnce(build).rows(fill=Fill((), start="R"))
