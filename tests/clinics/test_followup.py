"""The vaccinated-but-unlicensed follow-up service: which animals (the
standing and vaccination services' own answers, set-based, by city: dogs in North
Branch, nothing in Glencoe), the letters and e-mails recorded once per animal and term
(run twice: each once), the letters' PDF (fee and deadline with their sections, how to
license online) and e-mails, and the results (licensed within the profile's measure
period). Rules: LIC-01, LIC-03 (NB Sec. 6-61), LIC-04, LIC-06, LIC-16, LIC-18, RAB-01,
REC-01/REC-02 (the tag), FEE-01, FEE-03."""

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail
from django.db import IntegrityError, transaction

from clinics.models import FollowUpBatch, FollowUpChannel, FollowUpLetter
from clinics.services import followup
from kernel.kept import RecordKept
from licensing.models import Animal
from notices.services import document_render
from ordinance.amendments import rule_amend
from ordinance.models import Event
from ordinance.rules import rule_in_force
from tests.clinics.followup_helpers import CLOCK, TODAY, build_followup_world, dog, licensed
from tests.conftest import make_user
from tests.pdf import pdf_reader, pdf_text
from tests.rabies.helpers import vaccinate

CHICAGO = ZoneInfo("America/Chicago")
NOW = datetime(2026, 3, 2, 10, 0, tzinfo=CHICAGO)
pytestmark = pytest.mark.clock(CLOCK)


@pytest.fixture(autouse=True)
def _site(settings):
    settings.SITE_URL = "https://animals.example.gov"


@pytest.fixture
def world(north_branch, glencoe, clerk):
    return build_followup_world(north_branch, glencoe, clerk)


def _found(cities, on=TODAY) -> set[str]:
    plans = followup.city_followups(cities, on=on)
    return set(followup.unlicensed_animals(plans, on=on).values_list("name", flat=True))


def _run(actor, cities, capture, now=NOW):
    with capture(execute=True):
        return followup.followup_run(actor=actor, cities=cities, now=now)


# --- Which animals ----------------------------------------------------------------------


def test_it_lists_vaccinated_dogs_without_the_license_north_branch_requires(
    world, north_branch, glencoe
):
    assert _found([north_branch, glencoe]) == {"Rex", "Molly", "Pip", "Zed"}


def test_glencoe_licenses_nothing_so_its_plan_says_why_with_the_section(world, glencoe):
    [plan] = followup.city_followups([glencoe], on=TODAY)
    assert plan.blocked == (
        "Glencoe issues no dog licenses: the licensing section was deleted from its ordinance."
    )
    assert plan.citation.startswith("Glencoe 701 Subd. 2(D)")
    assert _found([glencoe]) == set()


def test_a_city_that_licenses_cats_too_lists_its_vaccinated_cat(world, north_branch, administrator):
    """The species come from the city's profile, never from the code (LIC-18)."""
    rule_amend(
        jurisdiction=north_branch,
        key="licensed_species",
        value=["dog", "cat"],
        effective_from=date(2026, 3, 1),
        ordinance_ref="Ord. No. 999-26 (test)",
        actor=administrator,
    )
    assert _found([north_branch]) == {"Rex", "Molly", "Pip", "Zed", "Tom"}


def test_the_list_is_one_query_for_hundreds_of_animals(
    world, north_branch, glencoe, django_assert_num_queries
):
    owner = world["carl"]
    for n in range(300):
        vaccinate(dog(owner, f"Bulk {n}"), date(2025, 9, 1), years=3)
    plans = followup.city_followups([north_branch, glencoe], on=TODAY)
    with django_assert_num_queries(1):
        assert len(list(followup.unlicensed_animals(plans, on=TODAY))) == 304
    with django_assert_num_queries(1):
        counts = followup.followup_counts(plans, on=TODAY)
    assert counts[(north_branch.pk, "dog")]["animals"] == 304


# --- The run: once per animal and term ----------------------------------------------------


def test_run_twice_records_and_sends_each_letter_and_email_once(
    world, north_branch, clerk, django_capture_on_commit_callbacks
):
    [first] = _run(clerk, [north_branch], django_capture_on_commit_callbacks)
    batch = first.batch
    assert (batch.letter_count, batch.email_count) == (3, 3)  # Zed: e-mail only
    rows = set(FollowUpLetter.objects.values_list("animal__name", "channel"))
    assert rows == {
        ("Rex", "letter"),
        ("Molly", "letter"),
        ("Pip", "letter"),
        ("Rex", "email"),
        ("Molly", "email"),
        ("Zed", "email"),
    }
    assert sorted(m.to[0] for m in mail.outbox) == ["ann@example.org", "nora@example.org"]
    assert Event.objects.filter(action__startswith="clinics.followup.").count() == 6

    [second] = _run(clerk, [north_branch], django_capture_on_commit_callbacks)
    assert second.batch is None and not second.refused
    assert FollowUpLetter.objects.count() == 6 and FollowUpBatch.objects.count() == 1
    assert len(mail.outbox) == 2
    # The e-mail task run again (a retry, a second worker) claims nothing.
    assert followup.followup_emails_send(batch_pk=batch.pk, now=NOW) == 0
    assert len(mail.outbox) == 2


def test_each_row_keeps_the_certificate_term_and_measure(
    world, north_branch, clerk, django_capture_on_commit_callbacks
):
    _run(clerk, [north_branch], django_capture_on_commit_callbacks)
    row = FollowUpLetter.objects.get(animal=world["rex"], channel=FollowUpChannel.LETTER)
    assert row.vaccination == world["rex"].vaccinations.get()
    assert row.term_start == date(2026, 1, 1) and row.sent_on == TODAY
    assert row.sent_to == "12 Elm Street Apt 3, North Branch, MN 55056"
    measure = rule_in_force(north_branch, followup.MEASURE_KEY, on=TODAY)
    assert measure.value == 60 and "not in ordinance" in measure.citation
    assert "program measure, not an ordinance rule" in measure.label
    assert row.measure_ends_on == date(2026, 5, 1)  # March 2 + 60 days


def test_an_animal_vaccinated_later_gets_its_own_letter_and_the_others_none(
    world, north_branch, clerk, django_capture_on_commit_callbacks
):
    _run(clerk, [north_branch], django_capture_on_commit_callbacks)
    vaccinate(world["unvaccinated"], date(2026, 3, 2))
    [run] = _run(clerk, [north_branch], django_capture_on_commit_callbacks)
    assert list(run.batch.letters.values_list("animal__name", "channel")) in (
        [("Nova", "letter"), ("Nova", "email")],
        [("Nova", "email"), ("Nova", "letter")],
    )


def test_an_owner_who_gets_an_email_address_later_gets_the_email_once(
    world, north_branch, clerk, django_capture_on_commit_callbacks
):
    _run(clerk, [north_branch], django_capture_on_commit_callbacks)
    carl = world["carl"]
    carl.email = "carl@example.org"
    carl.save()
    [run] = _run(clerk, [north_branch], django_capture_on_commit_callbacks)
    assert list(run.batch.letters.values_list("animal__name", "channel")) == [("Pip", "email")]
    assert mail.outbox[-1].to == ["carl@example.org"]


def test_the_next_term_is_written_to_again(
    world, north_branch, clerk, django_capture_on_commit_callbacks
):
    """Once the next term's sales open (NB Sec. 6-65(c): December 2), the letters ask for
    the 2027 license: a new term, so each animal gets one more letter."""
    _run(clerk, [north_branch], django_capture_on_commit_callbacks)
    december = datetime(2026, 12, 2, 9, 0, tzinfo=CHICAGO)
    with time_machine.travel(december, tick=False):
        [run] = _run(clerk, [north_branch], django_capture_on_commit_callbacks, now=december)
    assert run.batch.term_start == date(2027, 1, 1)
    assert run.batch.letter_count == 3
    assert FollowUpLetter.objects.filter(animal=world["rex"]).count() == 4


def test_the_database_refuses_a_second_letter_for_the_same_animal_and_term(
    world, north_branch, clerk, django_capture_on_commit_callbacks
):
    [run] = _run(clerk, [north_branch], django_capture_on_commit_callbacks)
    row = run.batch.letters.first()
    row.pk = None
    with pytest.raises(IntegrityError), transaction.atomic():
        row.save()


def test_letters_and_batches_are_never_deleted(
    world, north_branch, clerk, django_capture_on_commit_callbacks
):
    [run] = _run(clerk, [north_branch], django_capture_on_commit_callbacks)
    with pytest.raises(RecordKept):
        run.batch.letters.first().delete()
    with pytest.raises(RecordKept):
        FollowUpLetter.objects.all().delete()
    with pytest.raises(RecordKept):
        run.batch.delete()
    assert FollowUpLetter.objects.count() == 6


def test_an_administrator_of_both_cities_gets_glencoes_reason_and_north_branchs_batch(
    world, north_branch, glencoe, administrator, django_capture_on_commit_callbacks
):
    runs = _run(administrator, [north_branch, glencoe], django_capture_on_commit_callbacks)
    by_city = {r.city.slug: r for r in runs}
    assert by_city["north-branch"].batch.letter_count == 3
    assert "issues no dog licenses" in by_city["glencoe"].refused
    assert not FollowUpLetter.objects.filter(jurisdiction=glencoe).exists()


def test_a_clerk_runs_only_the_cities_they_serve(
    world, north_branch, glencoe, glencoe_clerk, django_capture_on_commit_callbacks
):
    runs = _run(glencoe_clerk, [north_branch, glencoe], django_capture_on_commit_callbacks)
    assert [r.city for r in runs] == [glencoe]
    assert not FollowUpLetter.objects.exists()


def test_a_blank_measure_refuses_the_run_naming_the_value(
    world, north_branch, clerk, django_capture_on_commit_callbacks
):
    from ordinance.models import RuleValue

    RuleValue.objects.filter(jurisdiction=north_branch, key=followup.MEASURE_KEY).update(value=None)
    [run] = _run(clerk, [north_branch], django_capture_on_commit_callbacks)
    assert run.batch is None and "Unlicensed follow-up" in run.refused
    assert not FollowUpLetter.objects.exists()


# --- What the letters say -------------------------------------------------------------------


def _letters_text(batch) -> tuple[bytes, str]:
    pdf = document_render(template=followup.LETTERS_TEMPLATE, snapshot=batch.snapshot)
    return pdf, pdf_text(pdf)


def test_one_letter_per_owner_with_fee_deadline_sections_and_how_to_license_online(
    world, north_branch, clerk, django_capture_on_commit_callbacks
):
    [run] = _run(clerk, [north_branch], django_capture_on_commit_callbacks)
    pdf, text = _letters_text(run.batch)
    assert text.count("A LICENSE IS NEEDED") == 2  # Ann and Carl; Nora has no address
    assert len(pdf_reader(pdf).pages) == 3  # a page per letter, and the clerk's page
    ann = text[text.index("Ann Berg") : text.index("Carl Dahl")]
    assert "12 Elm Street Apt 3" in ann and "North Branch, MN 55056" in ann
    assert "North Branch Sec. 6-77" in ann  # the vaccination requirement (RAB-01)
    assert "North Branch Sec. 6-60" in ann  # the license requirement (LIC-01)
    # Rex: subject to licensing since Nov 2, 2022, so due by Dec 2, 2022 (Sec. 6-61);
    # the fee today with the late penalty (Sec. 6-65(c)) the counter would add.
    rex = ann[ann.index("Rex") : ann.index("How to license")]
    assert "Was due by Dec 2, 2022" in rex and "North Branch Sec. 6-61" in rex
    assert "$18.00" in rex and "Demo Res. 2025-14" in rex
    assert "$9.00" in rex and "North Branch Sec. 6-65(c)" in rex
    assert "Sep 1, 2025" in rex and "Lakes Animal Clinic" in rex
    # Molly: acquired Feb 20, 2026, so due by Mar 22, 2026 (Sec. 6-61), no penalty.
    molly = ann[ann.index("Molly") : ann.index("Rex")]
    assert "Mar 22, 2026" in molly and "Was due" not in molly and "$9.00" not in molly
    assert "$45.00" in ann  # the total of both animals' fees
    for animal in (world["rex"], world["molly"]):
        assert f"https://animals.example.gov/my/animals/{animal.pk}/apply/" in ann
    assert "https://animals.example.gov/my/animals/" in ann
    assert "call City Hall ((651) 555-0100) and the clerk will link it" in ann  # not linked
    assert "North Branch Sec. 6-61" in ann and "North Branch Sec. 6-63" in ann
    carl = text[text.index("Carl Dahl") :]
    assert "Pip" in carl and "License expired" in carl
    assert "Nora Nohome No mailing address" in text  # for the clerk, with the reason
    for name in ("Lucky", "Nova", "Old", "Pup", "Tom", "Fritz", "Zzgl"):
        assert name not in text


def test_the_letters_print_the_same_after_the_records_change(
    world, north_branch, clerk, django_capture_on_commit_callbacks
):
    """Frozen first, rendered second: a later move or license changes no letter."""
    [run] = _run(clerk, [north_branch], django_capture_on_commit_callbacks)
    _pdf, before = _letters_text(run.batch)
    ann = world["ann"]
    ann.address_line = "99 New Road"
    ann.save()
    licensed(world["rex"], clerk, year=2026, issued_on=date(2026, 3, 10))
    run.batch.refresh_from_db()
    _pdf, after = _letters_text(run.batch)
    assert after == before and "99 New Road" not in after


def test_the_email_lists_the_owners_animals_with_deadline_fee_and_link(
    world, north_branch, clerk, django_capture_on_commit_callbacks
):
    _run(clerk, [north_branch], django_capture_on_commit_callbacks)
    [message] = [m for m in mail.outbox if m.to == ["ann@example.org"]]
    assert message.subject == "North Branch: a license for Molly, Rex"
    body = message.body
    assert "Dear Ann Berg:" in body
    assert "The license was due by Dec 2, 2022 (North Branch Sec. 6-61)" in body
    assert "License it by Mar 22, 2026 (North Branch Sec. 6-61)" in body
    assert "Annual dog license: $18.00 (Demo Res. 2025-14)" in body
    assert f"https://animals.example.gov/my/animals/{world['rex'].pk}/apply/" in body
    assert "North Branch Sec. 6-77" in body and "Sec. 6-60" in body
    assert "Pip" not in body  # Carl's dog; Carl has no e-mail address


def test_a_failed_email_is_recorded_and_not_retried(
    world, north_branch, clerk, django_capture_on_commit_callbacks, monkeypatch
):
    def refuse(self, *args, **kwargs):
        raise OSError("mail server down")

    monkeypatch.setattr("django.core.mail.EmailMessage.send", refuse)
    [run] = _run(clerk, [north_branch], django_capture_on_commit_callbacks)
    assert Event.objects.filter(action="clinics.followup.email_failed").count() == 2
    assert not FollowUpLetter.objects.filter(channel="email", emailed_at__isnull=True).exists()
    monkeypatch.undo()
    assert followup.followup_emails_send(batch_pk=run.batch.pk, now=NOW) == 0
    assert mail.outbox == []


# --- Results: licensed within the measure period ----------------------------------------------


def test_results_count_the_animals_licensed_within_the_measure_period(
    world, north_branch, clerk, django_capture_on_commit_callbacks
):
    _run(clerk, [north_branch], django_capture_on_commit_callbacks)
    licensed(world["rex"], clerk, year=2026, issued_on=date(2026, 4, 10))  # within 60 days
    licensed(world["molly"], clerk, year=2026, issued_on=date(2026, 5, 2))  # a day late

    def results(on):
        return followup.followup_results(
            jurisdiction_ids=[north_branch.pk], start=date(2026, 1, 1), end=on, on=on
        )

    [march] = results(date(2026, 4, 20))  # the period is still open for the unlicensed
    assert (march["letters"], march["emails"], march["animals"]) == (3, 3, 4)
    assert (march["licensed"], march["waiting"], march["share"]) == (1, 3, 25.0)
    assert not march["final"]  # Molly, Pip and Zed may still be licensed in time
    [march] = results(date(2026, 6, 1))  # every period over: 1 of 4 within 60 days
    assert march["month"] == date(2026, 3, 1)
    assert (march["licensed"], march["waiting"], march["share"]) == (1, 0, 25.0)
    assert march["final"]


def test_results_count_an_animal_once_in_the_month_it_was_first_written_to(
    world, north_branch, clerk, django_capture_on_commit_callbacks
):
    _run(clerk, [north_branch], django_capture_on_commit_callbacks)
    carl = world["carl"]
    carl.email = "carl@example.org"
    carl.save()
    april = datetime(2026, 4, 6, 9, 0, tzinfo=CHICAGO)
    with time_machine.travel(april, tick=False):
        _run(clerk, [north_branch], django_capture_on_commit_callbacks, now=april)
    rows = followup.followup_results(
        jurisdiction_ids=[north_branch.pk],
        start=date(2026, 1, 1),
        end=date(2026, 12, 31),
        on=date(2026, 8, 1),
    )
    # April: Pip's e-mail (Pip was first written to in March), and the puppy's letter
    # and e-mail: over the license age since April 2 (NB Sec. 6-60), it is new on the list.
    assert [(r["month"], r["letters"], r["emails"], r["animals"]) for r in rows] == [
        (date(2026, 3, 1), 3, 3, 4),
        (date(2026, 4, 1), 1, 2, 1),
    ]
    assert FollowUpLetter.objects.get(channel="letter", sent_on=april.date()).animal.name == "Pup"


def test_results_are_scoped_to_the_cities_asked_for(
    world, north_branch, glencoe, clerk, django_capture_on_commit_callbacks
):
    _run(clerk, [north_branch], django_capture_on_commit_callbacks)
    assert (
        followup.followup_results(
            jurisdiction_ids=[glencoe.pk], start=date(2026, 1, 1), end=TODAY, on=TODAY
        )
        == []
    )


def test_only_the_animals_of_a_served_city_are_a_clerks(world, north_branch):
    """make_user without cities: a clerk serving none runs nothing."""
    nobody = make_user("nobody", "clerk", [])
    assert followup.followup_run(actor=nobody, cities=[north_branch], now=NOW) == []
    assert Animal.objects.filter(followups__isnull=False).count() == 0
