"""Every page, every persona that may use it: 200 (or the designed redirect), never 500,
a bounded number of queries with a few hundred rows, and 404 for another city's records.

The data is built through the real services (style.md: a license with its tag and
receipt, a kennel license through its review steps, issued documents), so the pages see
what a city would see. A URL pattern missing from PAGES fails the test, so a new page
must be added here.
"""

import re

import pytest
from django.apps import apps as django_apps
from django.contrib.contenttypes.models import ContentType
from django.urls import resolve, reverse

from base.roles import ADMINISTRATOR, CLERK, OFFICER, RESIDENT
from tests.accounts.test_url_access import ROUTES, view_roles
from tests.api.pages import API_PAGES
from tests.citations.pages import CITATION_PAGES
from tests.clinics.pages import CLINIC_PAGES
from tests.conftest import make_user
from tests.dangerous_dogs.pages import DD_PAGES, NB_RECORD_PAGES
from tests.impound.lost_pages import LOST_PAGES
from tests.permits.pages import GL_RECORD_PAGES as PERMIT_GL_RECORD_PAGES
from tests.permits.pages import PERMIT_PAGES
from tests.rabies.pages import GL_RECORD_PAGES, RABIES_PAGES
from tests.records.pages import RECORDS_PAGES
from tests.world import NOW, TODAY, World, build_world  # noqa: F401  (imported from here)

# Every page, whatever the data around it. The user's row, roles and
# cities and each city's rule rows come from the cache once one page has read them.
QUERY_BUDGET = 10


# url name -> (args from the world, {role or "*": expected status}); 200 when absent.
# POST-only views answer a GET with 405 by design; the login page sends a logged-in user
# on; "home" sends each role to its own home; logout is POST-only (Django 5).
PAGES = {
    "accounts:home": (lambda w: [], {"*": 302}),
    "accounts:login": (lambda w: [], {"*": 302}),
    "accounts:logout": (lambda w: [], {"*": 405}),
    # An address from before the rename to "license": a permanent redirect.
    "old_spelling": (lambda w: [f"licences/{w.license.pk}/"], {"*": 301}),
    "accounts:staff_home": (lambda w: [], {}),
    "accounts:resident_home": (lambda w: [], {"*": 302}),  # to licensing's portal
    # Two-step verification. The personas' sessions have passed the
    # second step (administrators) or have nothing to pass (the others): the code page
    # sends them on; fresh recovery codes show once, right after they are made; an
    # administrator, enrolled already, is sent from enrollment to the account page.
    "accounts:second_factor_verify": (lambda w: [], {"*": 302}),
    "accounts:second_factor": (lambda w: [], {}),
    "accounts:second_factor_enroll": (lambda w: [], {ADMINISTRATOR: 302}),
    "accounts:second_factor_codes": (lambda w: [], {"*": 302}),
    "accounts:second_factor_off": (lambda w: [], {"*": 405}),
    # django-allauth (public): our login page is the one login; a signed-in user is sent
    # on from sign-up; the other pages show their own state (a bad key says so).
    "account_login": (lambda w: [], {"*": 302}),
    "account_signup": (lambda w: [], {"*": 302}),
    "account_email_verification_sent": (lambda w: [], {}),
    "account_confirm_email": (lambda w: ["no-such-key"], {}),
    "account_reset_password": (lambda w: [], {}),
    "account_reset_password_done": (lambda w: [], {}),
    "account_reset_password_from_key": (lambda w: ["1", "no-such-key"], {}),
    "account_reset_password_from_key_done": (lambda w: [], {}),
    "ordinance:profile_list": (lambda w: [], {}),
    "ordinance:fee_schedule": (lambda w: [], {}),
    "ordinance:profile_detail": (lambda w: [w.nb.slug], {}),
    "ordinance:rule_amend": (lambda w: [w.nb.slug, "duplicate_tag_fee"], {}),
    "notices:document_list": (lambda w: [], {}),
    "notices:document_detail": (lambda w: [w.receipt_document.pk], {}),
    "notices:document_pdf": (lambda w: [w.receipt_document.pk], {}),
    "licensing:search": (lambda w: [], {}),
    "licensing:owner_create": (lambda w: [], {}),
    "licensing:owner_detail": (lambda w: [w.owner.pk], {}),
    "licensing:owner_edit": (lambda w: [w.owner.pk], {}),
    "licensing:owner_account": (lambda w: [w.owner.pk], {"*": 405}),  # POST: link, unlink
    "licensing:animal_create": (lambda w: [w.owner.pk], {}),
    "licensing:animal_detail": (lambda w: [w.animal.pk], {}),
    "licensing:animal_edit": (lambda w: [w.animal.pk], {}),
    "licensing:animal_photo": (lambda w: [w.animal.pk], {}),
    "licensing:animal_mark_deceased": (lambda w: [w.animal.pk], {"*": 405}),
    "licensing:vaccination_create": (lambda w: [w.animal.pk], {}),
    "licensing:vaccination_certificate": (lambda w: [w.vaccination.pk], {}),
    "licensing:counter_start": (lambda w: [], {}),
    "licensing:counter_animal": (lambda w: [w.owner.pk], {}),
    "licensing:counter_pay": (lambda w: [w.animal.pk], {}),
    "licensing:license_issued": (lambda w: [w.license.pk], {}),
    "licensing:license_detail": (lambda w: [w.license.pk], {}),
    "licensing:license_transfer": (lambda w: [w.license.pk], {}),
    "licensing:license_duplicate_tag": (lambda w: [w.license.pk], {}),
    "licensing:license_address": (lambda w: [w.license.pk], {}),
    "licensing:license_close": (lambda w: [w.license.pk], {}),
    "licensing:receipt_detail": (lambda w: [w.receipt.pk], {}),
    "licensing:receipt_void": (lambda w: [w.receipt.pk], {}),
    "licensing:tag_stock": (lambda w: [], {}),
    # Merging a duplicate owner record: the search, the confirmation.
    "licensing:owner_merge": (lambda w: [w.owner.pk], {}),
    "licensing:owner_merge_confirm": (lambda w: [w.owner.pk, w.kennel.owner_id], {}),
    "licensing:kennel_list": (lambda w: [], {}),
    "licensing:kennel_apply": (lambda w: [], {}),
    "licensing:kennel_detail": (lambda w: [w.kennel.pk], {}),
    "licensing:kennel_transfer": (lambda w: [w.kennel.pk], {}),
    "licensing:kennel_document": (lambda w: [w.kennel.pk], {"*": 405}),
    "licensing:kennel_action": (lambda w: [w.kennel.pk, "decide"], {"*": 405}),
    "licensing:tag_lookup": (lambda w: [], {}),
    "licensing:reports": (lambda w: [], {}),
    "licensing:report_issued": (lambda w: [], {}),
    "licensing:report_revenue": (lambda w: [], {}),
    "licensing:report_tags": (lambda w: [], {}),
    "licensing:report_expiring": (lambda w: [], {}),
    # Renewal notices by mail: the notices print on POST (they are
    # recorded as printed); the labels are a PDF of the same owners.
    "licensing:report_expiring_notices": (lambda w: [], {"*": 405}),
    "licensing:report_expiring_labels": (lambda w: [], {}),
    # The clerk's daily close-out and deposit slip.
    "licensing:closeout_list": (lambda w: [], {}),
    "licensing:closeout_day": (lambda w: [], {}),
    "licensing:closeout_close": (lambda w: [], {}),  # GET: the confirmation step
    # The clerk's own, and every close-out for an administrator: not another's (404).
    "licensing:closeout_detail": (lambda w: [w.closeout.pk], {OFFICER: 404}),
    "licensing:portal_home": (lambda w: [], {}),
    "licensing:portal_link": (lambda w: [], {}),
    "licensing:portal_animal": (lambda w: [w.animal.pk], {}),
    "licensing:portal_certificate": (lambda w: [w.vaccination.pk], {}),
    # Online applications: the resident's pages and the clerk's queue.
    "licensing:application_start": (lambda w: [w.animal.pk], {}),
    "licensing:application_detail": (lambda w: [w.application.pk], {}),
    "licensing:application_edit": (lambda w: [w.application.pk], {}),
    "licensing:application_withdraw": (lambda w: [w.application.pk], {"*": 405}),
    "licensing:application_certificate": (lambda w: [w.application.pk], {}),
    "online:review_list": (lambda w: [], {}),
    "online:review_detail": (lambda w: [w.application.pk], {}),
    "online:review_approve": (lambda w: [w.application.pk], {"*": 405}),
    "online:review_return": (lambda w: [w.application.pk], {"*": 405}),
    "online:review_pay": (lambda w: [w.application.pk], {"*": 405}),
    "online:review_tag_mailed": (lambda w: [w.application.pk], {"*": 405}),
    "online:mailing_list": (lambda w: [], {}),
    "online:mailing_list_mailed": (lambda w: [], {"*": 405}),
    # Online payments: the resident's pages, the clerk's list, the webhook.
    "licensing:application_pay": (lambda w: [w.paid_application.pk], {}),
    "licensing:application_paid": (lambda w: [w.paid_application.pk], {}),
    "licensing:payment_list": (lambda w: [], {}),
    "licensing:payment_finish": (lambda w: [w.payment.pk], {"*": 405}),
    "licensing:stripe_webhook": (lambda w: [], {"*": 405}),
    # Changes residents report and the clerk's queue of them.
    "licensing:change_report": (lambda w: [w.animal.pk, "address"], {}),
    "licensing:change_detail": (lambda w: [w.change.pk], {}),
    "licensing:transfer_accept": (lambda w: [w.transfer_token], {}),
    "changes:list": (lambda w: [], {}),
    "changes:detail": (lambda w: [w.change.pk], {}),
    "impound:case_disposition": (lambda w: [w.impound_case.pk], {}),
    "impound:sterilization_list": (lambda w: [], {}),
    "impound:case_redeem": (lambda w: [w.impound_case.pk], {}),
    "impound:gate_clear": (lambda w: [w.impound_gate.pk], {}),
    "impound:humane_destruction": (lambda w: [w.impound_case.pk], {}),
    "impound:records": (lambda w: [], {}),
    "impound:register_csv": (lambda w: [], {}),
    "impound:public_records": (lambda w: [w.nb.slug], {}),
    # the found animals (the world's case is held, with a photo) and the CSV.
    "impound:public_records_csv": (lambda w: [w.nb.slug], {}),
    "impound:found_all": (lambda w: [], {}),
    "impound:found_city": (lambda w: [w.nb.slug], {}),
    "impound:found_photo": (lambda w: [w.impound_case.pk], {}),
    "impound:board": (lambda w: [], {}),
    "impound:intake": (lambda w: [], {}),
    "impound:case_detail": (lambda w: [w.impound_case.pk], {}),
    "impound:case_photo": (lambda w: [w.impound_case.pk], {}),
    "impound:case_identify_owner": (lambda w: [w.impound_case.pk], {}),
    # Impound notices (IMP-05): the case's notices page; the forms are POST-only.
    "impound:case_notices": (lambda w: [w.impound_case.pk], {}),
    "impound:case_notice_letter": (lambda w: [w.impound_case.pk], {"*": 405}),
    "impound:case_notice_posted": (lambda w: [w.impound_case.pk], {"*": 405}),
    "impound:case_notice_attempt": (lambda w: [w.impound_case.pk], {"*": 405}),
    "impound:case_notice_served": (
        lambda w: [w.impound_case.pk, w.receipt_document.pk],
        {"*": 405},
    ),
    "impound:case_notice_posting": (
        lambda w: [w.impound_case.pk, w.receipt_document.pk],
        {"*": 405},
    ),
    "impound:case_notice_void": (
        lambda w: [w.impound_case.pk, w.receipt_document.pk],
        {"*": 405},
    ),
}
# Complaints: the list, intake, the complaint page and the officer's forms.
PAGES.update(
    {
        "complaints:list": (lambda w: [], {}),
        "complaints:intake": (lambda w: [], {}),
        "complaints:detail": (lambda w: [w.complaint.pk], {}),
        "complaints:facts": (lambda w: [w.complaint.pk], {}),
        "complaints:entry": (lambda w: [w.complaint.pk], {}),
        "complaints:outcome": (lambda w: [w.complaint.pk], {}),
        # The case file and follow-up date (item 6), the reports (item 7).
        "complaints:follow_up": (lambda w: [w.complaint.pk], {}),
        "complaints:premises_casefile": (lambda w: [w.complaint.premises_id], {}),
        "complaints:report_kinds": (lambda w: [], {}),
        "complaints:report_repeats": (lambda w: [], {}),
        "complaints:report_citations": (lambda w: [], {}),
        # The barking-dog seizure: North Branch's page says its
        # ordinance has none; tests/complaints/test_seizure_views.py walks Glencoe's.
        "complaints:seizure": (lambda w: [w.complaint.pk], {}),
        "complaints:seizure_contact": (lambda w: [w.complaint.pk], {"*": 405}),
        # The premises page: North Branch's, with no permit section.
        "licensing:premises_detail": (lambda w: [w.animal.premises_id], {}),
    }
)
PAGES.update(DD_PAGES)
PAGES.update(RABIES_PAGES)
PAGES.update(CITATION_PAGES)
PAGES.update(PERMIT_PAGES)
PAGES.update(CLINIC_PAGES)
PAGES.update(RECORDS_PAGES)
PAGES.update(API_PAGES)
PAGES.update(LOST_PAGES)


def glencoe_record(name, world) -> bool:
    """A dangerous-dog page showing a Glencoe record (the proceeding is Glencoe's, DD-29)."""
    if name in GL_RECORD_PAGES or name in PERMIT_GL_RECORD_PAGES:
        return bool(PAGES[name][0](world))
    return name in DD_PAGES and name not in NB_RECORD_PAGES and bool(PAGES[name][0](world))


def url_names() -> set[str]:
    """Every named URL pattern with its namespace (Django admin excluded)."""
    from django.urls import get_resolver

    names = set()

    def walk(patterns, namespace=""):
        for p in patterns:
            if hasattr(p, "url_patterns"):
                if p.namespace != "admin":
                    walk(p.url_patterns, f"{namespace}{p.namespace}:" if p.namespace else namespace)
            elif p.name:
                names.add(f"{namespace}{p.name}")

    walk(get_resolver().url_patterns)
    return names


def roles_of(url):
    """The roles the view behind ``url`` declares (None: public)."""
    return view_roles(resolve(url).func)


def walk_pages(world):
    """(name, url, roles, expected) for every page, with the world's real ids."""
    for name, (args, expected) in PAGES.items():
        url = reverse(name, args=args(world))
        yield name, url, roles_of(url), expected


@pytest.fixture
def veterinarian(scene):
    """A clinic's login: its own clinic's pages only."""
    return scene.people["veterinarian"]


def test_every_url_pattern_is_in_the_page_table():
    """A new page must say here who opens it and what they get."""
    missing = url_names() - set(PAGES)
    assert not missing, f"add these url names to PAGES: {sorted(missing)}"
    assert len(ROUTES) == len(url_names())


# The Glencoe clerk is here for the pages without a record in the URL (lists, forms,
# reports); the records in the world's URLs are North Branch's: see the 404 test below.
PERSONAS = ["clerk", "glencoe_clerk", "officer", "administrator", "resident", "veterinarian"]


@pytest.mark.parametrize("persona", PERSONAS)
def test_every_page_opens_for_each_role_that_may_use_it(
    persona, request, world, walk_client, django_assert_max_num_queries
):
    client = walk_client
    user = request.getfixturevalue(persona)
    role = user.primary_role
    client.force_login(user)
    for city in (world.nb, world.gl):  # what any first page reads, kept in the cache
        client.get(reverse("ordinance:profile_detail", args=[city.slug]))
    # Django keeps each model's content type in the process once read (the history lists).
    ContentType.objects.get_for_models(*django_apps.get_models())
    failures, opened = [], []
    for name, url, roles, expected in walk_pages(world):
        if roles is not None and role not in roles:
            continue
        if persona == "glencoe_clerk" and PAGES[name][0](world) and not glencoe_record(name, world):
            continue
        if persona == "clerk" and glencoe_record(name, world):
            continue
        with django_assert_max_num_queries(QUERY_BUDGET):
            response = client.get(url)
        opened.append(name)
        want = expected.get(role, expected.get("*", 200))
        if response.status_code != want:
            failures.append((url, response.status_code, want))
    assert opened, f"{persona} opened no page"
    assert not failures, f"{persona}: {failures}"


def test_a_staff_member_of_the_other_city_gets_404_for_every_record(
    world, walk_client, glencoe_clerk, glencoe, clerk
):
    client = walk_client
    gl_admin = make_user("gladys", ADMINISTRATOR, [glencoe])
    nb_admin = make_user("ned", ADMINISTRATOR, [world.nb])
    failures, checked = [], 0
    for user in (glencoe_clerk, gl_admin, clerk, nb_admin):
        client.force_login(user)
        of_glencoe = user in (clerk, nb_admin)
        for name, url, roles, expected in walk_pages(world):
            # A public address (the old-spelling redirect) shows no record of its own.
            if not PAGES[name][0](world) or roles is None or user.primary_role not in roles:
                continue
            if glencoe_record(name, world) != of_glencoe:
                continue
            # A POST-only view must not reveal the record either, so POST to it.
            send = client.post if expected.get("*") == 405 else client.get
            status = send(url, {}).status_code if send is client.post else send(url).status_code
            checked += 1
            if status != 404:
                failures.append((user.username, url, status))
    assert checked > 20 and not failures, failures


def test_the_other_city_sees_its_own_records(world, client, glencoe_clerk):
    """The 404s above are about the city, not about the pages: Glencoe's own rows open."""
    client.force_login(glencoe_clerk)
    for url in (
        reverse("licensing:owner_detail", args=[world.gl_owner.pk]),
        reverse("licensing:animal_detail", args=[world.gl_animal.pk]),
        reverse("licensing:kennel_detail", args=[world.gl_kennel.pk]),
        reverse("notices:document_detail", args=[world.gl_document.pk]),
        reverse("notices:document_pdf", args=[world.gl_document.pk]),
        reverse("ordinance:profile_detail", args=[world.gl.slug]),
    ):
        assert client.get(url).status_code == 200, url


def test_a_resident_sees_only_their_own_documents(world, client, other_resident, resident):
    client.force_login(other_resident)
    for name in ("notices:document_detail", "notices:document_pdf"):
        assert client.get(reverse(name, args=[world.receipt_document.pk])).status_code == 404
    client.force_login(resident)
    assert (
        client.get(reverse("notices:document_detail", args=[world.kennel_document.pk])).status_code
        == 404
    )


def test_a_resident_sees_only_their_own_animals(world, client, other_resident):
    client.force_login(other_resident)
    for name, args in (
        ("licensing:portal_animal", [world.animal.pk]),
        ("licensing:portal_certificate", [world.vaccination.pk]),
        ("licensing:portal_animal", [world.gl_animal.pk]),
        ("licensing:application_start", [world.animal.pk]),
        ("licensing:application_detail", [world.application.pk]),
        ("licensing:application_edit", [world.application.pk]),
        ("licensing:application_certificate", [world.application.pk]),
        ("licensing:application_pay", [world.paid_application.pk]),
        ("licensing:application_paid", [world.paid_application.pk]),
        ("licensing:change_report", [world.animal.pk, "lost_tag"]),
        ("licensing:change_detail", [world.change.pk]),
    ):
        assert client.get(reverse(name, args=args)).status_code == 404, name


@pytest.mark.parametrize(
    "persona, role, heading",
    [
        ("clerk", CLERK, "Counter"),
        ("officer", OFFICER, "Field and pound"),
        ("administrator", ADMINISTRATOR, "Administration"),
        ("resident", RESIDENT, "Welcome"),
    ],
)
def test_home_sends_each_role_to_its_own_home(persona, role, heading, request, client, world):
    """Where the login form lands each role (e2e/test_login.py walks the form itself)."""
    client.force_login(request.getfixturevalue(persona))
    response = client.get(reverse("accounts:home"))
    target = "accounts:resident_home" if role == RESIDENT else "accounts:staff_home"
    assert response.status_code == 302 and response.url == reverse(target)
    home = client.get(response.url, follow=True)
    assert home.status_code == 200
    h1 = re.search(r"<h1[^>]*>(.*?)</h1>", home.content.decode(), re.S)
    assert h1 and heading in h1.group(1), (persona, h1 and h1.group(1))


def test_django_admin_opens_for_the_administrator(client, administrator, world):
    client.force_login(administrator)
    assert client.get("/admin/").status_code == 200
