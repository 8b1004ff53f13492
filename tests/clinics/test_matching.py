"""The match score and its threshold: each weight at the edge."""

import pytest

from clinics.models import CertificateSubmission
from clinics.services import matching
from tests.licensing.factories import AnimalFactory, RabiesVaccinationFactory


def certificate(city, **fields):
    values = {
        "jurisdiction_id": city.pk,
        "owner_last_name": "",
        "owner_address": "",
        "animal_name": "",
        "microchip": "",
        "rabies_tag_number": "",
    }
    values.update(fields)
    return CertificateSubmission(**values)


@pytest.fixture
def dog(north_branch):
    dog = AnimalFactory(jurisdiction=north_branch, name="Biscuit", microchip="985112003456789")
    dog.owner.last_name, dog.owner.address_line = "Holm", "100 Main Street"
    dog.owner.save()
    RabiesVaccinationFactory(animal=dog, rabies_tag_number="R-2025-11")
    return dog


def test_the_microchip_alone_stays_under_the_threshold(north_branch, dog):
    found = matching.candidates(certificate(north_branch, microchip=dog.microchip))
    assert found[0].animal == dog and found[0].score == matching.WEIGHTS["microchip"]
    assert found[0].score < matching.MATCH_THRESHOLD
    assert matching.best_match(found) is None


def test_microchip_and_owner_name_reach_the_threshold(north_branch, dog):
    found = matching.candidates(
        certificate(north_branch, microchip=dog.microchip, owner_last_name="holm")
    )
    assert found[0].score == 80 >= matching.MATCH_THRESHOLD
    assert matching.best_match(found).animal == dog


def test_tag_name_and_address_written_differently_match(north_branch, dog):
    found = matching.candidates(
        certificate(
            north_branch,
            rabies_tag_number="r-2025-11",
            owner_last_name="Holm",
            owner_address="100 Main St.",
        )
    )
    assert found[0].reasons == ("rabies_tag", "owner_name", "owner_address")
    assert matching.best_match(found).animal == dog


def test_one_point_under_the_threshold_is_queued(north_branch, dog, monkeypatch):
    found = matching.candidates(
        certificate(north_branch, microchip=dog.microchip, owner_last_name="Holm")
    )
    monkeypatch.setattr(matching, "MATCH_THRESHOLD", found[0].score + 1)
    assert matching.best_match(found) is None
    monkeypatch.setattr(matching, "MATCH_THRESHOLD", found[0].score)
    assert matching.best_match(found).animal == dog


def test_two_animals_equally_good_go_to_the_clerk(north_branch, dog):
    twin = AnimalFactory(jurisdiction=north_branch, owner=dog.owner, name="Maple")
    found = matching.candidates(
        certificate(north_branch, owner_last_name="Holm", owner_address="100 Main Street")
    )
    assert {c.animal for c in found} == {dog, twin}
    assert found[0].score == found[1].score
    assert matching.best_match(found) is None


def test_another_citys_animal_is_never_a_candidate(glencoe, dog):
    found = matching.candidates(
        certificate(glencoe, microchip=dog.microchip, owner_last_name="Holm")
    )
    assert found == []
