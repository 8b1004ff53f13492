"""Notice of impounding: the owner's letter and the posted notice (IMP-05, C11, C12, G32)."""

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from base.roles import OFFICER
from impound.services import notices as svc
from impound.services.intake import case_intake
from licensing.services import registry as registry_svc
from notices.models import IssuedDocument, ServiceRecord
from notices.services import document_pdf
from ordinance.refusals import Refused
from tests.conftest import make_user
from tests.pdf import pdf_text

from .factories import make_pound

CHICAGO = ZoneInfo("America/Chicago")
pytestmark = pytest.mark.django_db


def at(*args):
    return datetime(*args, tzinfo=CHICAGO)


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def pound(north_branch, glencoe):
    return make_pound(north_branch, glencoe, phone="320-555-0100")


def take_in(city, actor, pound, *, animal=None, placed_at=None, **extra):
    fields = dict(
        species="dog",
        breed="Labrador mix",
        sex="female",
        color="Black",
        approximate_age_months=24,
        seized_where="Hennepin Ave and 10th St",
        brought_by_name="Pat Finder",
        brought_by_address="12 Elm St, Glencoe",
    )
    fields.update(extra)
    placed_at = placed_at or at(2026, 11, 25, 14, 5)
    return case_intake(
        jurisdiction=city,
        pound=pound,
        actor=actor,
        ground="dog_at_large" if city.slug == "glencoe" else "unlicensed_at_large",
        placed_at=placed_at,
        seized_on=placed_at.date(),
        animal=animal,
        **fields,
    )


def owned_dog(city, actor, *, email="", user=None):
    owner = registry_svc.owner_create(
        jurisdiction=city,
        actor=actor,
        user=user,
        first_name="Gerhard",
        last_name="Schmidt",
        address_line="1107 Hennepin Avenue",
        city=city.name,
        state="MN",
        postal_code="55336",
        phone="320-555-0147",
        email=email,
    )
    return registry_svc.animal_register(
        owner=owner,
        actor=actor,
        on=date(2026, 11, 25),
        species="dog",
        name="Fritz",
        breed="Beagle",
        color="Tricolor",
        sex="male",
        date_of_birth=date(2021, 4, 1),
    )


# --- Posted notice (Glencoe Subd. 14, C12) ----------------------------------------------


@pytest.mark.clock("2026-11-25T16:00")
def test_glencoe_posted_notice_prints_the_prescribed_form_with_the_hold_end_at_closing_time(
    glencoe, officer, administrator, pound
):
    case = take_in(glencoe, officer, pound)
    assert case.hold_ends_on == date(2026, 12, 3)

    document = svc.case_posted_notice_issue(case=case, actor=administrator)

    assert document.kind == svc.POSTED_NOTICE
    assert document.subject == case and document.owner_user is None
    text = pdf_text(document_pdf(document))
    assert "NOTICE OF IMPOUNDING DOG OR CAT" in text
    assert "Date: Nov 25, 2026" in text
    assert "To Whom It May Concern:" in text
    assert "impounded in the Animal Pound of the City of Glencoe a dog described" in text
    for field in ("Sex Female", "Color Black", "Breed Labrador mix", "Approximate Age 2 years"):
        assert field in text
    assert "Name of Owner Unknown" in text
    assert "on or before 4:30 p.m. on the 3rd day of December, 2026" in text
    assert "(Pound Master)" in text and "Avery" in text
    assert "Police Station and Municipal Office Building" in text


@pytest.mark.clock("2026-11-25T16:00")
def test_the_claim_by_hour_is_the_citys_closing_time(glencoe, officer, pound):
    glencoe.office_closes_at = time(17, 0)
    glencoe.save()
    case = take_in(glencoe, officer, pound)
    document = svc.case_posted_notice_issue(case=case, actor=officer)
    text = pdf_text(document_pdf(document))
    assert "on or before 5:00 p.m. on the 3rd day of December, 2026" in text
    assert "(Police Officer)" in text


@pytest.mark.clock("2026-11-25T16:00")
def test_two_postings_each_run_five_days_from_the_day_posted(glencoe, officer, pound, _fixed_clock):
    case = take_in(glencoe, officer, pound)
    document = svc.case_posted_notice_issue(case=case, actor=officer)
    _fixed_clock.move_to(at(2026, 11, 26, 9, 30))
    svc.case_notice_posted(
        document=document,
        actor=officer,
        location="Police Station",
        posted_at=at(2026, 11, 25, 16, 30),
    )
    svc.case_notice_posted(
        document=document,
        actor=officer,
        location="Municipal Office Building",
        posted_at=at(2026, 11, 26, 9, 0),
    )
    postings = list(svc.case_records(case).filter(method="posted"))
    assert [(p.posted_where, p.posted_until) for p in postings] == [
        ("Police Station", date(2026, 11, 25) + timedelta(days=5)),
        ("Municipal Office Building", date(2026, 11, 26) + timedelta(days=5)),
    ]
    assert all(
        p.document == document and p.result == "Posted for 5 days (Glencoe 701 Subd. 14)"
        for p in postings
    )

    with pytest.raises(Refused) as caught:
        svc.case_notice_posted(
            document=document, actor=officer, location="Library", posted_at=at(2026, 11, 26, 9, 0)
        )
    assert caught.value.reasons[0].field == "location"
    assert "Glencoe 701 Subd. 14" in caught.value.sections


@pytest.mark.clock("2026-11-25T16:00")
def test_a_posted_notice_is_refused_when_the_owner_is_known(glencoe, officer, pound):
    case = take_in(glencoe, officer, pound, animal=owned_dog(glencoe, officer))
    with pytest.raises(Refused) as caught:
        svc.case_posted_notice_issue(case=case, actor=officer)
    assert "owner is known" in caught.value.messages[0]
    assert caught.value.sections == ["Glencoe 701 Subd. 14"]


@pytest.mark.clock("2026-11-25T16:00")
def test_north_branch_has_no_posted_notice_and_says_so(north_branch, officer, pound):
    case = take_in(north_branch, officer, pound)
    with pytest.raises(Refused) as caught:
        svc.case_posted_notice_issue(case=case, actor=officer)
    assert caught.value.messages == [
        "City of North Branch's ordinance sets no posted notice of impounding: notify the owner "
        "and log every attempt. (North Branch Sec. 6-68)"
    ]
    assert caught.value.sections == ["North Branch Sec. 6-68"]
    assert not IssuedDocument.objects.filter(kind=svc.POSTED_NOTICE).exists()


@pytest.mark.clock("2026-11-25T16:00")
def test_a_corrected_notice_is_a_void_and_a_new_issue(glencoe, officer, pound):
    case = take_in(glencoe, officer, pound)
    first = svc.case_posted_notice_issue(case=case, actor=officer)
    void = svc.case_notice_void(document=first, actor=officer, reason="Wrong color")
    second = svc.case_posted_notice_issue(case=case, actor=officer)
    assert void.voids == first and second.pk not in (first.pk, void.pk)
    with pytest.raises(Refused):
        svc.case_notice_posted(
            document=first, actor=officer, location="Police Station", posted_at=at(2026, 11, 25, 16)
        )


# --- Owner's letter (C11) ---------------------------------------------------------------


@pytest.mark.clock("2026-11-25T16:00")
def test_owner_known_letter_is_issued_and_emailed_after_commit_with_the_pdf(
    glencoe, officer, pound, resident, mailoutbox, django_capture_on_commit_callbacks
):
    animal = owned_dog(glencoe, officer, email="gerhard@example.org", user=resident)
    case = take_in(glencoe, officer, pound, animal=animal)
    svc.case_contact_attempt(
        case=case,
        actor=officer,
        method="phone",
        attempted_at=at(2026, 11, 25, 15, 0),
        contacted="320-555-0147",
        result="No answer; voicemail left",
        reached=False,
    )
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        document = svc.case_owner_notify(case=case, actor=officer)
        assert mailoutbox == []  # nothing is sent before the commit
    assert len(callbacks) == 1

    assert document.kind == svc.OWNER_NOTICE and document.owner_user == resident
    text = pdf_text(document_pdf(document))
    assert "Gerhard Schmidt" in text and "Fritz" in text
    assert "Wed, Nov 25, 2026 at 2:05 p.m." in text
    assert "County Animal Pound" in text and "320-555-0100" in text
    assert "Monday 9:00 a.m.–5:00 p.m." in text
    assert "Release fee (per animal per occasion)" in text
    assert "(Glencoe 701 Subd. 13(A))" in text and "(Glencoe 701 Subd. 13(B))" in text
    assert "A nonresident's animal is immunized for rabies before release" in text
    assert "The hold for redemption ends Thu, Dec 3, 2026" in text
    assert "No answer; voicemail left" in text

    [message] = mailoutbox
    assert message.to == ["gerhard@example.org"]
    assert "Dec 3, 2026" in message.body and "Glencoe 701 Subd. 13" in message.body
    [(name, content, mimetype)] = message.attachments
    assert mimetype == "application/pdf" and content[:5] == b"%PDF-"
    email = ServiceRecord.objects.get(method="email")
    assert (email.served_to, email.succeeded, email.document) == (
        "gerhard@example.org",
        True,
        document,
    )


@pytest.mark.clock("2026-11-25T16:00")
def test_a_failed_email_is_recorded_as_not_reaching_the_owner(
    glencoe, officer, pound, django_capture_on_commit_callbacks, monkeypatch
):
    case = take_in(
        glencoe, officer, pound, animal=owned_dog(glencoe, officer, email="x@example.org")
    )

    def broken(self, *args, **kwargs):
        raise ConnectionRefusedError

    monkeypatch.setattr("django.core.mail.EmailMessage.send", broken)
    with django_capture_on_commit_callbacks(execute=True):
        svc.case_owner_notify(case=case, actor=officer)
    record = ServiceRecord.objects.get(method="email")
    assert not record.succeeded and "ConnectionRefusedError" in record.result


@pytest.mark.clock("2026-11-25T16:00")
def test_north_branch_letter_without_email_lists_license_first_and_sends_nothing(
    north_branch, officer, pound, mailoutbox, django_capture_on_commit_callbacks
):
    case = take_in(north_branch, officer, pound, animal=owned_dog(north_branch, officer))
    with django_capture_on_commit_callbacks(execute=True):
        document = svc.case_owner_notify(case=case, actor=officer)
    assert mailoutbox == []
    assert not ServiceRecord.objects.exists()
    text = pdf_text(document_pdf(document))
    assert "A dog is licensed before it is released (North Branch Sec. 6-70)" in text
    assert (
        "Impoundment, Impound daily care (per day)" in text and "(North Branch Sec. 6-71)" in text
    )
    assert "This notice is given under North Branch Sec. 6-68." in text

    svc.case_letter_served(
        document=document, actor=officer, method="mail", served_at=at(2026, 11, 25, 15, 30)
    )
    mailed = ServiceRecord.objects.get()
    assert mailed.method == "mail" and mailed.document == document
    assert mailed.served_to == "Gerhard Schmidt, " + case.owner.address


@pytest.mark.clock("2026-11-25T16:00")
def test_the_letter_needs_a_known_owner(glencoe, officer, pound):
    case = take_in(glencoe, officer, pound)
    with pytest.raises(Refused) as caught:
        svc.case_owner_notify(case=case, actor=officer)
    assert "not known" in caught.value.messages[0]


# --- Pages -----------------------------------------------------------------------------


@pytest.mark.clock("2026-11-25T16:00")
def test_attempt_logged_through_the_page(client_as, north_branch, officer, pound):
    case = take_in(north_branch, officer, pound, animal=owned_dog(north_branch, officer))
    client = client_as(officer)
    url = reverse("impound:case_notice_attempt", args=[case.pk])
    response = client.post(
        url,
        {
            "method": "personal",
            "attempted_at": "2026-11-25T15:10",
            "contacted": "1107 Hennepin Avenue",
            "result": "Spoke with the owner; will come tomorrow",
            "reached": "on",
        },
    )
    assert response.status_code == 302
    record = ServiceRecord.objects.get()
    assert (record.method, record.succeeded, record.served_at) == (
        "personal",
        True,
        at(2026, 11, 25, 15, 10),
    )
    assert record.subject == case and record.recorded_by == officer

    page = client.get(reverse("impound:case_notices", args=[case.pk]))
    assert "Spoke with the owner; will come tomorrow" in page.content.decode()

    # A time before the animal was placed is refused next to the field, not a 500.
    response = client.post(
        url, {"method": "phone", "attempted_at": "2026-11-24T09:00", "result": "No answer"}
    )
    assert response.status_code == 400
    assert "The animal was placed in the pound later than that." in response.content.decode()


@pytest.mark.clock("2026-11-25T16:00")
def test_issue_and_post_through_the_pages(client_as, glencoe, administrator, pound):
    case = take_in(glencoe, administrator, pound)
    client = client_as(administrator)
    response = client.post(
        reverse("impound:case_notice_posted", args=[case.pk]), {"signed_as": "pound_master"}
    )
    assert response.status_code == 302
    document = IssuedDocument.objects.get(kind=svc.POSTED_NOTICE)
    response = client.post(
        reverse("impound:case_notice_posting", args=[case.pk, document.pk]),
        {"location": "Police Station", "posted_at": "2026-11-25T16:00"},
    )
    assert response.status_code == 302
    page = client.get(reverse("impound:case_notices", args=[case.pk])).content.decode()
    assert "Notice of impounding dog or cat" in page
    assert reverse("notices:document_pdf", args=[document.pk]) in page
    assert "Nov 30, 2026" in page  # posted until
    listing = client.get(reverse("notices:document_list")).content.decode()
    assert "Notice of impounding dog or cat" in listing


@pytest.mark.clock("2026-11-25T16:00")
def test_north_branch_page_says_no_posted_notice_and_refuses_one(
    client_as, north_branch, officer, pound
):
    case = take_in(north_branch, officer, pound)
    client = client_as(officer)
    page = client.get(reverse("impound:case_notices", args=[case.pk])).content.decode()
    assert "The ordinance sets no posted notice" in page
    assert "Issue the notice of impounding" not in page
    response = client.post(
        reverse("impound:case_notice_posted", args=[case.pk]), {"signed_as": "police_officer"}
    )
    assert response.status_code == 400
    assert "sets no posted notice of impounding" in response.content.decode()


@pytest.mark.clock("2026-11-25T16:00")
def test_roles_and_cities(client_as, north_branch, glencoe, officer, resident, clerk, pound):
    case = take_in(glencoe, officer, pound)
    page = reverse("impound:case_notices", args=[case.pk])
    attempt = reverse("impound:case_notice_attempt", args=[case.pk])
    assert client_as(resident).get(page).status_code == 403
    assert client_as(resident).post(attempt, {}).status_code == 403
    nb_officer = make_user("nils", OFFICER, [north_branch])
    assert client_as(nb_officer).get(page).status_code == 404
    assert client_as(nb_officer).post(attempt, {}).status_code == 404
    # A clerk of North Branch: not this city's case either.
    assert client_as(clerk).get(page).status_code == 404
    # A clerk may read but not act: no forms, and a POST is 403.
    glencoe_clerk = make_user("gina", "clerk", [glencoe])
    body = client_as(glencoe_clerk).get(page).content.decode()
    assert "Log an attempt" not in body
    assert client_as(glencoe_clerk).post(attempt, {}).status_code == 403


@pytest.mark.clock("2026-11-25T16:00")
def test_section_queries_stay_flat(
    client_as, glencoe, officer, pound, _fixed_clock, django_assert_max_num_queries, rf
):
    case = take_in(glencoe, officer, pound)
    for _n in range(3):
        document = svc.case_posted_notice_issue(case=case, actor=officer)
        for place in ("Police Station", "Municipal Office Building"):
            svc.case_notice_posted(
                document=document, actor=officer, location=place, posted_at=at(2026, 11, 25, 16)
            )
        svc.case_notice_void(document=document, actor=officer, reason="Reissued")
    from impound.views.notices import case_notices_section

    request = rf.get("/")
    request.user = officer
    case = svc.ImpoundCase.objects.select_related("jurisdiction", "pound", "animal__owner").get(
        pk=case.pk
    )
    with django_assert_max_num_queries(6):
        template, context = case_notices_section(request, case=case)
        from django.template.loader import render_to_string

        render_to_string(template, context, request=request)
    client = client_as(officer)
    with django_assert_max_num_queries(10):
        assert client.get(reverse("impound:case_notices", args=[case.pk])).status_code == 200


@pytest.mark.clock("2026-11-25T16:00")
def test_letter_issued_and_recorded_mailed_through_the_pages(
    client_as, glencoe, officer, pound, mailoutbox, django_capture_on_commit_callbacks
):
    animal = owned_dog(glencoe, officer, email="gerhard@example.org")
    case = take_in(glencoe, officer, pound, animal=animal)
    client = client_as(officer)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("impound:case_notice_letter", args=[case.pk]))
    assert response.status_code == 302
    document = IssuedDocument.objects.get(kind=svc.OWNER_NOTICE)
    assert len(mailoutbox) == 1
    response = client.post(
        reverse("impound:case_notice_served", args=[case.pk, document.pk]),
        {"method": "mail", "served_at": "2026-11-25T15:45"},
    )
    assert response.status_code == 302
    page = client.get(reverse("impound:case_notices", args=[case.pk])).content.decode()
    assert "Notice of impoundment to the owner" in page
    assert "gerhard@example.org" in page and "First-class mail" in page
    assert sorted(ServiceRecord.objects.values_list("method", flat=True)) == ["email", "mail"]
