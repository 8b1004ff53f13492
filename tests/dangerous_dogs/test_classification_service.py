"""North Branch: an officer's fierce, dangerous or vicious classification (DD-29, RES-10)."""

from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from base.roles import CLERK
from dangerous_dogs.models import Classification
from dangerous_dogs.services.classification import classification_end, classification_record
from ordinance.models import Event
from ordinance.refusals import Refused
from tests.conftest import make_user
from tests.impound.helpers import owned_dog
from tests.upload_files import pdf_bytes

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-11-24T10:00")]

TODAY = date(2026, 11, 24)


def _classify(animal, actor, **extra):
    values = {
        "animal": animal,
        "term": "vicious",
        "reason": "Bit a mail carrier on the sidewalk without provocation.",
        "evidence": "Carrier's statement; photos of the bite.",
        "classified_on": date(2026, 11, 23),
        "classified_by_name": "Olivia Officer",
        "actor": actor,
    }
    values.update(extra)
    return classification_record(**values)


def test_an_officer_classifies_a_north_branch_dog_with_its_section(north_branch, officer):
    dog = owned_dog(north_branch)
    c = _classify(dog, officer)
    assert c.in_force and c.term == "vicious" and c.citation == "North Branch Sec. 6-73"
    event = Event.objects.get(action="dangerous_dogs.classification.recorded")
    assert "vicious" in event.summary and "Sec. 6-73" in event.summary


def test_glencoe_has_no_classification_use_the_subd_15_proceeding(glencoe, officer):
    dog = owned_dog(glencoe)
    with pytest.raises(Refused) as err:
        _classify(dog, officer)
    assert "use the Subd. 15 proceeding" in str(err.value)
    assert "Glencoe 701 Subd. 15" in err.value.sections[0]
    assert not Classification.objects.exists()


def test_a_clerk_may_not_classify(north_branch, clerk):
    with pytest.raises(Refused) as err:
        _classify(owned_dog(north_branch), clerk)
    assert "officer" in str(err.value)


def test_bad_input_is_refused_next_to_its_field(north_branch, officer):
    dog = owned_dog(north_branch)
    cases = [
        ({"reason": "  "}, "reason"),
        ({"classified_on": date(2026, 11, 25)}, "classified_on"),
        ({"term": "grumpy"}, "term"),
    ]
    for extra, field in cases:
        with pytest.raises(Refused) as err:
            _classify(dog, officer, **extra)
        assert err.value.reasons[0].field == field


def test_one_standing_classification_at_a_time_then_ended_and_kept(north_branch, officer):
    dog = owned_dog(north_branch)
    c = _classify(dog, officer)
    with pytest.raises(Refused, match="already"):
        _classify(dog, officer, term="fierce")
    with pytest.raises(Refused) as err:
        classification_end(
            classification=c, ended_on=date(2026, 11, 1), reason="Moved", actor=officer
        )
    assert err.value.reasons[0].field == "ended_on"
    classification_end(classification=c, ended_on=TODAY, reason="Dog left the city", actor=officer)
    c.refresh_from_db()
    assert not c.in_force and c.ended_reason == "Dog left the city"
    assert Event.objects.filter(action="dangerous_dogs.classification.ended").count() == 1
    with pytest.raises(Refused, match="ended on"):
        classification_end(classification=c, ended_on=TODAY, reason="Again", actor=officer)
    again = _classify(dog, officer, term="fierce")
    assert again.in_force and Classification.objects.filter(animal=dog).count() == 2


def test_the_form_records_a_classification_with_its_evidence(
    client_as, north_branch, officer, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path
    dog = owned_dog(north_branch)
    url = reverse("dangerous_dogs:classification_create", args=[dog.pk])
    page = client_as(officer).get(url).content.decode()
    assert "North Branch Sec. 6-73" in page and "securely muzzled" in page
    response = client_as(officer).post(
        url,
        {
            "term": "fierce",
            "reason": "Lunged at children through the fence.",
            "classified_on": "2026-11-24",
            "classified_by_name": "Olivia Officer",
            "file": SimpleUploadedFile("s.pdf", pdf_bytes(), "application/pdf"),
        },
    )
    assert response.status_code == 302
    c = Classification.objects.get(animal=dog)
    assert c.term == "fierce" and c.evidence_file.name.startswith("dangerous-dogs/north-branch")


def test_the_form_keeps_the_input_and_says_what_is_wrong(client_as, north_branch, officer):
    dog = owned_dog(north_branch)
    url = reverse("dangerous_dogs:classification_create", args=[dog.pk])
    response = client_as(officer).post(
        url,
        {
            "term": "fierce",
            "reason": "Lunged at children through the fence.",
            "classified_on": "2026-12-30",
            "classified_by_name": "Olivia Officer",
            "file": SimpleUploadedFile("s.pdf", b"not a pdf", "application/pdf"),
        },
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "Lunged at children through the fence." in page
    assert "not a PDF" in page
    assert not Classification.objects.exists()


def test_the_form_in_glencoe_says_to_use_the_proceeding(client_as, glencoe, officer):
    dog = owned_dog(glencoe)
    url = reverse("dangerous_dogs:classification_create", args=[dog.pk])
    page = client_as(officer).get(url).content.decode()
    assert "use the Subd. 15 proceeding" in page and "Record the classification" not in page
    response = client_as(officer).post(
        url,
        {"term": "fierce", "reason": "x", "classified_on": "2026-11-24", "classified_by_name": "O"},
    )
    assert response.status_code == 200 and not Classification.objects.exists()


def test_a_clerk_gets_403_and_another_city_404(client_as, north_branch, glencoe, clerk, officer):
    dog = owned_dog(north_branch)
    c = _classify(dog, officer)
    create = reverse("dangerous_dogs:classification_create", args=[dog.pk])
    end = reverse("dangerous_dogs:classification_end", args=[c.pk])
    assert client_as(clerk).get(create).status_code == 403
    assert client_as(clerk).post(end, {}).status_code == 403
    gl_officer = make_user("gus", "officer", [glencoe])
    assert client_as(gl_officer).get(create).status_code == 404
    assert client_as(gl_officer).post(end, {}).status_code == 404
    gl_clerk = make_user("gail", CLERK, [glencoe])
    assert client_as(gl_clerk).get(create).status_code == 403


def test_ending_through_the_page(client_as, north_branch, officer):
    dog = owned_dog(north_branch)
    c = _classify(dog, officer)
    end = reverse("dangerous_dogs:classification_end", args=[c.pk])
    client = client_as(officer)
    assert client.get(end).status_code == 405
    response = client.post(end, {"ended_on": "2026-12-31", "reason": "Rehomed"})
    assert response.status_code == 200 and "Rehomed" in response.content.decode()
    c.refresh_from_db()
    assert c.in_force
    response = client.post(end, {"ended_on": "2026-11-24", "reason": "Rehomed out of state"})
    assert response.status_code == 302
    c.refresh_from_db()
    assert c.ended_on == TODAY


def test_the_form_says_when_a_classification_already_stands(client_as, north_branch, officer):
    dog = owned_dog(north_branch)
    _classify(dog, officer)
    url = reverse("dangerous_dogs:classification_create", args=[dog.pk])
    page = client_as(officer).get(url).content.decode()
    assert "Classified vicious since Nov 23, 2026: end that classification" in page


def test_a_dog_recorded_dead_is_not_classified(north_branch, officer):
    dog = owned_dog(north_branch, name="Rex")
    dog.mark_deceased(actor=officer, on=date(2026, 11, 20))
    with pytest.raises(Refused, match="Rex is recorded as deceased"):
        _classify(dog, officer)
    assert not Classification.objects.filter(animal=dog).exists()
