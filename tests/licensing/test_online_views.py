"""The resident's online application pages and the clerk's review queue.

Personas (style.md): the resident who owns the dog, another resident, the North Branch
clerk, the Glencoe clerk, the officer. Rules: LIC-13 (NB Sec. 6-65(c), the renewal
window), LIC-16 (Glencoe 701 Subd. 2(D) deleted), LIC-05 (the rabies certificate),
RAB-01..06 (vaccination due), FEE-01/FEE-03 (fee lines with their authority)."""

from datetime import date

import pytest
import time_machine
from django.urls import reverse

from licensing.models import OnlineApplication
from licensing.models.online import ApplicationStatus
from licensing.services.applications import (
    application_approve,
    application_issue,
    application_submit,
)
from tests.licensing.factories import RabiesVaccinationFactory
from tests.licensing.online_helpers import (
    PDF,
    RENEWAL_DAY,
    at,
    certificate_fields,
    certificate_pdf,
    licensed_dog,
    linked_dog,
    stock,
)
from tests.pdf import pdf_text

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def dog(north_branch, resident, clerk):
    stock(north_branch, clerk)
    return licensed_dog(north_branch, resident, clerk)


@pytest.fixture
def in_window():
    with time_machine.travel(at(RENEWAL_DAY), tick=False):
        yield


def submitted(dog, resident):
    return application_submit(
        animal=dog,
        actor=resident,
        on=RENEWAL_DAY,
        now=at(RENEWAL_DAY),
        certificate=certificate_pdf(),
        **certificate_fields(),
    )


def form_data(**overrides):
    data = {k: v.isoformat() if isinstance(v, date) else v for k, v in certificate_fields().items()}
    data["source"] = "certificate"
    data.update(overrides)
    return data


# --- Next step on the portal ---------------------------------------------------------


def test_lic13_renewal_window_closed_says_when_it_opens_with_its_section(dog, client_as, resident):
    with time_machine.travel(at(date(2026, 6, 1)), tick=False):
        text = (
            client_as(resident)
            .get(reverse("licensing:portal_animal", args=[dog.pk]))
            .content.decode()
        )
    assert "Renewal opens on Dec 2, 2026." in text
    assert "North Branch Sec. 6-65(c)" in text
    assert "Renew online" not in text


def test_lic13_renewal_window_open_offers_renew_online(dog, client_as, resident, in_window):
    text = client_as(resident).get(reverse("licensing:portal_home")).content.decode()
    assert "Renew the license before it expires on Dec 31, 2026." in text
    assert "Sec. 6-65(c)" in text
    assert reverse("licensing:application_start", args=[dog.pk]) in text
    assert "Renew online" in text


def test_lic16_glencoe_offers_no_renewal_and_says_why(glencoe, client_as, resident):
    fritz = linked_dog(glencoe, resident, name="Fritz")
    text = (
        client_as(resident)
        .get(reverse("licensing:portal_animal", args=[fritz.pk]))
        .content.decode()
    )
    assert "No license to apply for" in text and "Subd. 2(D)" in text
    assert reverse("licensing:application_start", args=[fritz.pk]) not in text


def test_rab_an_overdue_vaccination_is_a_next_step_with_its_date(north_branch, client_as, resident):
    dog = linked_dog(north_branch, resident)
    RabiesVaccinationFactory(
        animal=dog, vaccinated_on=date(2024, 5, 1), duration_years=1, next_due_on=date(2025, 5, 1)
    )
    with time_machine.travel(at(date(2026, 3, 2)), tick=False):
        text = (
            client_as(resident)
            .get(reverse("licensing:portal_animal", args=[dog.pk]))
            .content.decode()
        )
    assert "Rabies vaccination overdue since May 1, 2025." in text
    assert "Apply online" in text  # unlicensed: a new license may be applied for


def test_an_open_application_replaces_the_button_with_its_status(
    dog, client_as, resident, in_window
):
    application = submitted(dog, resident)
    text = client_as(resident).get(reverse("licensing:portal_home")).content.decode()
    assert reverse("licensing:application_detail", args=[application.pk]) in text
    assert "Waiting for the clerk" in text and "Renew online" not in text


# --- The resident's application ------------------------------------------------------


def test_the_apply_page_shows_the_counters_checks_and_fee_lines(
    dog, client_as, resident, in_window
):
    response = client_as(resident).get(reverse("licensing:application_start", args=[dog.pk]))
    text = response.content.decode()
    assert response.status_code == 200
    assert "License term Jan 1, 2027 to Dec 31, 2027." in text
    assert "$18.00" in text and "Sec. 6-61" in text  # the fee line and the rabies rule
    # The June 2025 vaccination does not cover a 2027 license (LIC-05): no on-file offer.
    assert 'value="on_file"' not in text


def test_submitting_creates_the_application_and_a_double_submit_shows_it(
    dog, client_as, resident, in_window
):
    client = client_as(resident)
    url = reverse("licensing:application_start", args=[dog.pk])
    first = client.post(url, {**form_data(), "certificate": certificate_pdf()})
    application = OnlineApplication.objects.get(animal=dog)
    assert first.status_code == 302 and first.url == reverse(
        "licensing:application_detail", args=[application.pk]
    )
    second = client.post(url, {**form_data(), "certificate": certificate_pdf()})
    assert second.status_code == 302 and second.url == first.url
    assert OnlineApplication.objects.filter(animal=dog).count() == 1
    assert application.applied_on == RENEWAL_DAY


@pytest.mark.parametrize(
    "upload,message",
    [
        (("certificate.pdf", b"MZ\x90\x00\x03\x00\x00\x00" + b"\x00" * 200), "is not a PDF"),
        (("certificate.pdf", PDF + b"0" * (11 * 1024 * 1024)), "the largest accepted is 10.0"),
        (("certificate.pdf", b""), "empty"),
    ],
    ids=["renamed-executable", "11-megabytes", "empty"],
)
def test_a_bad_upload_is_refused_next_to_the_field_and_the_typed_fields_are_kept(
    dog, client_as, resident, in_window, upload, message
):
    name, data = upload
    response = client_as(resident).post(
        reverse("licensing:application_start", args=[dog.pk]),
        {**form_data(), "certificate": certificate_pdf(name, data)},
    )
    assert response.status_code == 200
    form = response.context["form"]
    assert message in " ".join(form.errors["certificate"])
    text = response.content.decode()
    assert 'value="Dr. Ada Lind"' in text and 'value="MN-4411"' in text
    assert 'value="2026-11-20"' in text and 'value="R-2026-881"' in text
    assert not OnlineApplication.objects.exists()


def test_a_refused_vaccination_date_shows_next_to_its_field(dog, client_as, resident, in_window):
    response = client_as(resident).post(
        reverse("licensing:application_start", args=[dog.pk]),
        {**form_data(vaccinated_on="2025-11-01"), "certificate": certificate_pdf()},
    )
    assert response.status_code == 200
    assert "Sec. 6-61" in " ".join(response.context["form"].errors["vaccinated_on"])
    assert 'value="Dr. Ada Lind"' in response.content.decode()


def test_a_returned_application_is_fixed_without_retyping(
    dog, client_as, resident, clerk, in_window
):
    from licensing.services.applications import application_return

    application = submitted(dog, resident)
    application_return(application, actor=clerk, reason="Rabies tag number is wrong.")
    client = client_as(resident)
    url = reverse("licensing:application_edit", args=[application.pk])
    text = client.get(url).content.decode()
    assert "Rabies tag number is wrong." in text and 'value="Dr. Ada Lind"' in text
    response = client.post(url, form_data(rabies_tag_number="R-2026-999"))
    assert response.status_code == 302
    application.refresh_from_db()
    assert application.status == ApplicationStatus.SUBMITTED
    assert application.rabies_tag_number == "R-2026-999" and application.certificate


def test_approved_shows_the_amount_due_and_pay_at_city_hall(
    dog, client_as, resident, clerk, north_branch, in_window
):
    north_branch.address = "38735 Branch Avenue, North Branch, MN 55056"
    north_branch.save()
    application = submitted(dog, resident)
    application_approve(application, actor=clerk, on=RENEWAL_DAY)
    response = client_as(resident).get(
        reverse("licensing:application_detail", args=[application.pk])
    )
    text = response.content.decode()
    assert "Amount due: $18.00" in text and "Pay at City Hall or by mail" in text
    assert "38735 Branch Avenue" in text
    line = response.context["due"].fee_lines[0]  # FEE-01: the fee with its authority
    assert line.authority and line.authority in text


def test_withdraw(dog, client_as, resident, in_window):
    application = submitted(dog, resident)
    response = client_as(resident).post(
        reverse("licensing:application_withdraw", args=[application.pk])
    )
    assert response.status_code == 302
    application.refresh_from_db()
    assert application.status == ApplicationStatus.WITHDRAWN


def test_another_resident_gets_404_and_staff_403_on_resident_urls(
    dog, client, resident, other_resident, clerk, in_window
):
    application = submitted(dog, resident)
    urls = [
        reverse("licensing:application_start", args=[dog.pk]),
        reverse("licensing:application_detail", args=[application.pk]),
        reverse("licensing:application_edit", args=[application.pk]),
    ]
    client.force_login(other_resident)
    for url in urls:
        assert client.get(url).status_code == 404, url
    withdraw = reverse("licensing:application_withdraw", args=[application.pk])
    assert client.post(withdraw).status_code == 404
    assert (
        client.get(reverse("licensing:application_certificate", args=[application.pk])).status_code
        == 404
    )
    client.force_login(clerk)
    for url in [*urls, withdraw]:
        assert client.get(url).status_code == 403, url


def test_the_certificate_is_served_to_the_owner_and_the_citys_clerk_only(
    dog, client, resident, clerk, glencoe_clerk, officer, in_window
):
    application = submitted(dog, resident)
    url = reverse("licensing:application_certificate", args=[application.pk])
    for user, status in ((resident, 200), (clerk, 200), (glencoe_clerk, 404), (officer, 403)):
        client.force_login(user)
        response = client.get(url)
        assert response.status_code == status, user
        if status == 200:
            assert response["Content-Type"] == "application/pdf"
            assert response["X-Content-Type-Options"] == "nosniff"
            assert response["Content-Disposition"] == (
                f'attachment; filename="application-{application.pk}-certificate.pdf"'
            )
            assert b"".join(response.streaming_content).startswith(b"%PDF-")


# --- The clerk's queue -----------------------------------------------------------------


def test_the_queue_lists_submitted_first_in_a_fixed_number_of_queries(
    north_branch, resident, clerk, client_as, django_assert_max_num_queries, in_window
):
    stock(north_branch, clerk)
    for n in range(6):
        dog = licensed_dog(north_branch, resident, clerk, name=f"Dog{n}")
        application = submitted(dog, resident)
        if n % 2:
            application_approve(application, actor=clerk, on=RENEWAL_DAY)
    client = client_as(clerk)
    with django_assert_max_num_queries(10):
        response = client.get(reverse("online:review_list"))
    statuses = [a.status for a in response.context["applications"]]
    assert statuses == sorted(statuses, key=lambda s: s != ApplicationStatus.SUBMITTED)
    assert len(statuses) == 6


def test_clerk_approves_and_records_payment_then_documents_are_linked(
    dog, client_as, resident, clerk, in_window, django_assert_max_num_queries
):
    application = submitted(dog, resident)
    client = client_as(clerk)
    detail = reverse("online:review_detail", args=[application.pk])
    text = client.get(detail).content.decode()
    assert (
        "Dr. Ada Lind" in text
        and reverse("licensing:application_certificate", args=[application.pk]) in text
    )
    assert "$18.00" in text
    assert client.post(reverse("online:review_approve", args=[application.pk])).status_code == 302
    response = client.post(reverse("online:review_pay", args=[application.pk]), {"method": "check"})
    assert response.status_code == 200
    assert "Enter the check number" in response.content.decode()
    response = client.post(
        reverse("online:review_pay", args=[application.pk]),
        {"method": "check", "reference": "1043"},
    )
    assert response.status_code == 302
    application.refresh_from_db()
    assert application.status == ApplicationStatus.ISSUED
    assert application.license.receipt.reference == "1043"
    text = client.get(detail).content.decode()
    assert "Receipt" in text and reverse("online:review_tag_mailed", args=[application.pk]) in text


def test_return_needs_a_reason(dog, client_as, resident, clerk, in_window):
    application = submitted(dog, resident)
    response = client_as(clerk).post(
        reverse("online:review_return", args=[application.pk]), {"reason": ""}
    )
    assert response.status_code == 200 and response.context["return_form"].errors["reason"]
    application.refresh_from_db()
    assert application.status == ApplicationStatus.SUBMITTED


def test_a_refused_approval_is_shown_with_its_section(dog, client_as, resident, clerk, in_window):
    application = submitted(dog, resident)
    dog.premises = None  # the counter's own check: where the dog is kept
    dog.save()
    response = client_as(clerk).post(reverse("online:review_approve", args=[application.pk]))
    assert response.status_code == 200
    assert "Record where the animal is kept first." in response.content.decode()


def test_clerk_urls_other_city_404_resident_and_officer_403(
    dog, client, resident, clerk, glencoe_clerk, officer, in_window
):
    application = submitted(dog, resident)
    record_urls = [
        reverse("online:review_detail", args=[application.pk]),
    ]
    post_urls = [
        reverse(name, args=[application.pk])
        for name in (
            "online:review_approve",
            "online:review_return",
            "online:review_pay",
            "online:review_tag_mailed",
        )
    ]
    client.force_login(glencoe_clerk)
    for url in record_urls:
        assert client.get(url).status_code == 404
    for url in post_urls:
        assert client.post(url, {"reason": "x", "method": "cash"}).status_code == 404
    text = client.get(reverse("online:review_list")).content.decode()
    assert dog.name not in text
    for user in (resident, officer):
        client.force_login(user)
        for url in [*record_urls, reverse("online:review_list"), reverse("online:mailing_list")]:
            assert client.get(url).status_code == 403


def test_the_mailing_list_pdf_lists_tags_to_mail_and_marking_them_mailed_empties_it(
    dog, client_as, resident, clerk, in_window
):
    application = submitted(dog, resident)
    application_approve(application, actor=clerk, on=RENEWAL_DAY)
    result = application_issue(application, actor=clerk, method="cash", on=RENEWAL_DAY)
    client = client_as(clerk)
    response = client.get(reverse("online:mailing_list"))
    assert response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content)
    owner = dog.owner
    assert "Tag mailing list" in text.title() or "TAG MAILING LIST" in text
    assert owner.name in text and owner.address_line in text and "55056" in text
    assert result.license.number in text and str(result.tag.number) in text
    response = client.post(reverse("online:mailing_list_mailed"), {"application": [application.pk]})
    assert response.status_code == 302
    application.refresh_from_db()
    assert application.tag_mailed_at is not None
    assert "No tags to mail." in pdf_text(client.get(reverse("online:mailing_list")).content)


def test_the_pages_make_a_fixed_number_of_queries(
    dog, client, resident, clerk, in_window, django_assert_max_num_queries
):
    """Whatever the animal's history: the queue and the resident's application page stay
    within ten; the pages that run the counter's own assessment (``license_assess``: the
    rules, the fee schedule, the premises' animal count) within fifteen."""
    RabiesVaccinationFactory.create_batch(4, animal=dog, vaccinated_on=date(2024, 6, 1))
    application = submitted(dog, resident)

    def within(pages):
        for user, url, budget in pages:
            client.force_login(user)
            with django_assert_max_num_queries(budget):
                assert client.get(url).status_code == 200, url

    within(
        [
            (resident, reverse("licensing:application_detail", args=[application.pk]), 10),
            (clerk, reverse("online:review_list"), 10),
            (clerk, reverse("online:review_detail", args=[application.pk]), 15),
        ]
    )
    application_approve(application, actor=clerk, on=RENEWAL_DAY)
    within(
        [
            (resident, reverse("licensing:application_detail", args=[application.pk]), 15),
            (clerk, reverse("online:review_detail", args=[application.pk]), 15),
            (resident, reverse("licensing:portal_animal", args=[dog.pk]), 10),
        ]
    )
    application.refresh_from_db()
    client.force_login(resident)
    client.post(reverse("licensing:application_withdraw", args=[application.pk]))
    with django_assert_max_num_queries(15):
        assert client.get(reverse("licensing:application_start", args=[dog.pk])).status_code == 200
