"""The resident's side of an online application: submit, fix a returned one,
return with a reason, withdraw, mark tags mailed. The checks are the counter's own
(``license_assess``, LIC-05 rabies, LIC-13 the renewal window, LIC-16 Glencoe issues no
license); RAB-05 (a licensed veterinarian) is asked of the certificate."""

import re
from datetime import date

import pytest
from django.core import mail

from licensing.models import OnlineApplication
from licensing.models.online import ApplicationKind, ApplicationStatus
from licensing.services.applications import (
    application_approve,
    application_issue,
    application_resubmit,
    application_return,
    application_submit,
    application_withdraw,
    applications_mark_mailed,
)
from ordinance.models import Event
from ordinance.refusals import Refused
from tests.licensing.online_helpers import (
    RENEWAL_DAY,
    at,
    certificate_fields,
    certificate_pdf,
    licensed_dog,
    linked_dog,
    stock,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def dog(north_branch, resident, clerk):
    stock(north_branch, clerk)
    return licensed_dog(north_branch, resident, clerk)


def submit(dog, user, **overrides):
    return application_submit(
        animal=dog,
        actor=user,
        on=RENEWAL_DAY,
        now=at(RENEWAL_DAY),
        certificate=certificate_pdf(),
        **certificate_fields(**overrides),
    )


def test_lic13_a_renewal_in_the_window_is_submitted_with_its_certificate(dog, resident):
    application = submit(dog, resident)
    assert application.kind == ApplicationKind.RENEWAL
    assert application.status == ApplicationStatus.SUBMITTED
    assert application.applied_on == RENEWAL_DAY
    # Stored privately under the year it was stored (the clock, not the application date).
    assert re.match(r"applications/\d{4}/", application.certificate.name)
    assert application.veterinarian_license == "MN-4411"
    assert (
        Event.objects.for_object(application)
        .filter(action="licensing.application.submitted")
        .exists()
    )


def test_lic05_a_vaccination_too_old_for_the_term_is_refused_next_to_its_date(dog, resident):
    # NB Sec. 6-61: not more than 24 months before the 2027 license expires.
    with pytest.raises(Refused) as refused:
        submit(dog, resident, vaccinated_on=date(2025, 11, 1))
    check = refused.value.checks[0]
    assert check.field == "vaccinated_on" and "Sec. 6-61" in check.citation
    assert not OnlineApplication.objects.exists()


def test_a_vaccination_date_in_the_future_is_refused(dog, resident):
    with pytest.raises(Refused) as refused:
        submit(dog, resident, vaccinated_on=date(2026, 12, 6))
    assert refused.value.checks[0].field == "vaccinated_on"


def test_rab05_the_veterinarians_license_number_and_the_file_are_required(dog, resident):
    with pytest.raises(Refused) as refused:
        application_submit(
            animal=dog,
            actor=resident,
            on=RENEWAL_DAY,
            certificate=None,
            **certificate_fields(veterinarian_license=""),
        )
    fields = {c.field for c in refused.value.checks}
    assert fields == {"veterinarian_license", "certificate"}
    assert any(
        "6-" in c.citation for c in refused.value.checks if c.field == "veterinarian_license"
    )


def test_a_double_submit_is_refused_and_keeps_one_open_application(dog, resident):
    submit(dog, resident)
    with pytest.raises(Refused, match="already has an open application"):
        submit(dog, resident)
    assert OnlineApplication.objects.filter(animal=dog).count() == 1


def test_another_residents_dog_is_refused(dog, other_resident):
    with pytest.raises(Refused):
        submit(dog, other_resident)


def test_lic16_glencoe_issues_no_license_so_nothing_is_submitted(glencoe, resident):
    fritz = linked_dog(glencoe, resident, name="Fritz")
    with pytest.raises(Refused) as refused:
        submit(fritz, resident)
    assert "Subd. 2" in refused.value.checks[0].citation


def test_the_vaccination_on_file_is_used_when_it_covers_the_term(north_branch, resident, clerk):
    stock(north_branch, clerk)
    dog = linked_dog(north_branch, resident)
    from tests.licensing.factories import RabiesVaccinationFactory

    on_file = RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2025, 6, 1))
    application = application_submit(
        animal=dog, actor=resident, on=date(2026, 3, 2), uses_vaccination=on_file
    )
    assert application.kind == ApplicationKind.NEW
    assert application.uses_vaccination == on_file and not application.certificate


def test_return_requires_a_reason_and_mails_it(
    dog, resident, clerk, django_capture_on_commit_callbacks
):
    application = submit(dog, resident)
    with pytest.raises(Refused) as refused:
        application_return(application, actor=clerk, reason="  ")
    assert refused.value.checks[0].field == "reason"
    with django_capture_on_commit_callbacks(execute=True):
        application_return(application, actor=clerk, reason="The certificate is not signed.")
    application.refresh_from_db()
    assert application.status == ApplicationStatus.RETURNED
    assert application.return_reason == "The certificate is not signed."
    assert mail.outbox[-1].to == ["rita@example.org"]
    assert "The certificate is not signed." in mail.outbox[-1].body


def test_resubmit_keeps_the_fields_and_the_file_not_uploaded_again(dog, resident, clerk):
    application = submit(dog, resident)
    first_file = application.certificate.name
    application_return(application, actor=clerk, reason="Wrong rabies tag number.")
    application = OnlineApplication.objects.get(pk=application.pk)
    fixed = application_resubmit(
        application,
        actor=resident,
        on=RENEWAL_DAY,
        certificate=None,
        **certificate_fields(rabies_tag_number="R-2026-882"),
    )
    fixed.refresh_from_db()
    assert fixed.status == ApplicationStatus.SUBMITTED
    assert fixed.rabies_tag_number == "R-2026-882"
    assert fixed.veterinarian_name == "Dr. Ada Lind"
    assert fixed.certificate.name == first_file
    assert fixed.applied_on == RENEWAL_DAY  # the first day it reached the city


def test_only_a_returned_application_can_be_resubmitted(dog, resident):
    application = submit(dog, resident)
    with pytest.raises(Refused):
        application_resubmit(application, actor=resident, on=RENEWAL_DAY, **certificate_fields())


def test_withdraw_keeps_the_row_and_frees_the_animal(dog, resident, other_resident):
    application = submit(dog, resident)
    with pytest.raises(Refused):
        application_withdraw(application, actor=other_resident)
    application_withdraw(application, actor=resident)
    application.refresh_from_db()
    assert application.status == ApplicationStatus.WITHDRAWN
    assert submit(dog, resident).pk != application.pk  # a new one may be made


def test_approve_and_issue_mail_the_resident_and_the_tag_is_marked_mailed_once(
    dog, resident, clerk, django_capture_on_commit_callbacks
):
    application = submit(dog, resident)
    with django_capture_on_commit_callbacks(execute=True):
        application_approve(application, actor=clerk, on=RENEWAL_DAY, now=at(RENEWAL_DAY))
    assert "Amount due: $18.00" in mail.outbox[-1].body
    with django_capture_on_commit_callbacks(execute=True):
        result = application_issue(application, actor=clerk, method="cash", on=RENEWAL_DAY)
    assert result.license.number in mail.outbox[-1].body
    application.refresh_from_db()
    assert applications_mark_mailed([application], actor=clerk) == 1
    assert applications_mark_mailed([application], actor=clerk) == 0
    application.refresh_from_db()
    assert application.tag_mailed_at is not None


def test_a_returned_application_can_switch_to_a_vaccination_now_on_file(dog, resident, clerk):
    from tests.licensing.factories import RabiesVaccinationFactory

    application = submit(dog, resident)
    application_return(application, actor=clerk, reason="The clinic sent us the certificate.")
    on_file = RabiesVaccinationFactory(animal=dog, vaccinated_on=date(2026, 11, 20))
    application = OnlineApplication.objects.get(pk=application.pk)
    application_resubmit(application, actor=resident, on=RENEWAL_DAY, uses_vaccination=on_file)
    application.refresh_from_db()
    assert application.status == ApplicationStatus.SUBMITTED
    assert application.uses_vaccination == on_file
    assert not application.certificate and application.vaccinated_on is None
