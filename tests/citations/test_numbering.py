"""Citation numbers: one gap-free series per city, allocated as receipts are (REC-14)."""

import pytest

from citations.models import Citation
from ordinance.refusals import Refused
from tests.impound.helpers import owned_dog

from .helpers import at, cite

pytestmark = pytest.mark.django_db


def test_each_city_numbers_its_citations_from_one_without_gaps(north_branch, glencoe, officer):
    nb_dog, gl_dog = owned_dog(north_branch), owned_dog(glencoe)
    numbers = [cite(north_branch, officer, nb_dog).number for _ in range(3)]
    gl_first = cite(glencoe, officer, gl_dog, "at_large").number
    numbers.append(cite(north_branch, officer, nb_dog, "barking").number)
    assert numbers == [1, 2, 3, 4]
    assert gl_first == 1


def test_a_refused_citation_takes_no_number(north_branch, officer):
    dog = owned_dog(north_branch)
    assert cite(north_branch, officer, dog).number == 1
    with pytest.raises(Refused) as refused:
        cite(north_branch, officer, dog, court="   ")
    assert refused.value.checks[0].field == "court"
    with pytest.raises(Refused):
        cite(north_branch, officer, dog, "no_such_code")
    assert cite(north_branch, officer, dog).number == 2
    assert list(Citation.objects.values_list("number", flat=True).order_by("number")) == [1, 2]


def test_an_issued_citation_is_never_deleted_or_rewritten(north_branch, officer):
    from kernel.kept import RecordKept

    citation = cite(north_branch, officer, owned_dog(north_branch))
    with pytest.raises(RecordKept):
        citation.delete()
    with pytest.raises(RecordKept):
        Citation.objects.all().delete()
    citation.court = "Another court"
    with pytest.raises(RecordKept):
        citation.save()
    with pytest.raises(RecordKept):
        Citation.objects.filter(pk=citation.pk).update(charge_class="misdemeanor")
    citation.refresh_from_db()
    assert citation.court != "Another court"


def test_an_appearance_date_on_or_before_the_day_of_issue_is_refused(north_branch, officer):
    dog = owned_dog(north_branch)
    when = at(2026, 6, 15, 10)
    with pytest.raises(Refused) as refused:
        cite(north_branch, officer, dog, when=when, appear=when.date())
    assert refused.value.checks[0].field == "appearance_on"
    assert not Citation.objects.exists()
