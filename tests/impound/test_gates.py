"""Gates: a court's authorization clears the Sec. 6-75 gate once; a humane-destruction
judgement bars redemption for good (IMP-08)."""

from datetime import date

import pytest

from impound.models import GateKind
from impound.services.gates import (
    case_humane_destruction_judgement,
    gate_clear_court_authorization,
)
from impound.services.redemption import case_redeem
from notices.models import Decision, DecisionOutcome
from ordinance.models import Event
from ordinance.refusals import Refused

from .factories import make_pound
from .helpers import impound, order_pdf, owned_dog, set_fee

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-11-30T10:00")]


@pytest.fixture
def pound(north_branch, glencoe):
    return make_pound(north_branch, glencoe)


@pytest.fixture
def nb_case(north_branch, officer, pound):
    set_fee(north_branch, "impounding", "35.00")
    set_fee(north_branch, "boarding_daily", "12.00")
    return impound(
        north_branch, pound, officer, animal=owned_dog(north_branch), ground="public_nuisance"
    )


def clear(gate, actor, **kw):
    fields = dict(
        court="Chisago County District Court",
        order_number="13-CV-26-114",
        order_date=date(2026, 11, 29),
        document=order_pdf(),
        terms="",
    )
    fields.update(kw)
    return gate_clear_court_authorization(gate=gate, actor=actor, **fields)


def judge(case, actor, **kw):
    fields = dict(
        decided_by_name="Olivia Officer",
        capacity="Humane animal control officer, agent of the council",
        decided_on=date(2026, 11, 30),
        reasons="Untreatable injuries; suffering.",
    )
    fields.update(kw)
    return case_humane_destruction_judgement(case=case, actor=actor, **fields)


def test_clearing_records_the_order_and_an_event_and_is_never_undone(nb_case, officer):
    gate = nb_case.gates.get(kind=GateKind.COURT_AUTHORIZATION)
    clear(gate, officer, terms="Muzzled off the premises")
    gate.refresh_from_db()
    assert not gate.is_open and gate.cleared_by == officer
    assert "13-CV-26-114" in gate.clearing_record and "Muzzled" in gate.clearing_record
    assert gate.clearing_document.name.endswith(".pdf")
    event = Event.objects.for_object(nb_case).get(action="impound.gate.cleared")
    assert event.data["citation"] == "North Branch Sec. 6-75"
    with pytest.raises(Refused, match="Already cleared"):
        clear(gate, officer)


def test_a_court_order_needs_court_number_and_document(nb_case, officer):
    gate = nb_case.gates.get()
    with pytest.raises(Refused) as caught:
        clear(gate, officer, court=" ", order_number="", document=None)
    assert {c.field for c in caught.value.checks} == {"court", "order_number", "document"}
    assert set(caught.value.sections) == {"North Branch Sec. 6-75"}
    with pytest.raises(Refused) as caught:
        clear(gate, officer, order_date=date(2026, 12, 5))
    assert caught.value.checks[0].field == "order_date"
    gate.refresh_from_db()
    assert gate.is_open


def test_a_humane_destruction_judgement_bars_redemption_for_good(nb_case, officer, clerk):
    decision = judge(nb_case, officer)
    assert (decision.kind, decision.outcome) == ("humane_destruction", DecisionOutcome.ORDERED)
    assert decision.citation == "North Branch Sec. 6-75"
    assert decision.subject == nb_case
    humane = nb_case.gates.get(kind=GateKind.HUMANE_DESTRUCTION)
    assert not humane.clearable
    with pytest.raises(Refused, match="no court authorization clears it"):
        clear(humane, officer)
    # Even with the court's order on the Sec. 6-75 gate, the dog stays.
    clear(nb_case.gates.get(kind=GateKind.COURT_AUTHORIZATION), officer)
    with pytest.raises(Refused) as caught:
        case_redeem(case=nb_case, owner=nb_case.owner, actor=clerk, method="cash")
    assert "North Branch Sec. 6-75" in caught.value.sections
    assert "may not be redeemed" in str(caught.value)
    with pytest.raises(Refused, match="already recorded"):
        judge(nb_case, officer)
    assert Decision.objects.count() == 1


def test_glencoe_has_no_humane_destruction_rule(glencoe, officer, pound):
    case = impound(glencoe, pound, officer, animal=owned_dog(glencoe))
    with pytest.raises(Refused, match="no judgement of humane destruction"):
        judge(case, officer)
    assert not case.gates.exists() and not Decision.objects.exists()


def test_a_judgement_needs_who_capacity_and_reasons(nb_case, officer):
    with pytest.raises(Refused) as caught:
        judge(nb_case, officer, decided_by_name="", capacity="", reasons=" ")
    assert {c.field for c in caught.value.checks} == {"decided_by_name", "capacity", "reasons"}
    assert not nb_case.gates.filter(kind=GateKind.HUMANE_DESTRUCTION).exists()


def test_another_citys_staff_cannot_clear(nb_case, glencoe, glencoe_clerk, client_as):
    from django.urls import reverse

    from base.roles import OFFICER
    from tests.conftest import make_user

    with pytest.raises(Refused, match="do not serve"):
        clear(nb_case.gates.get(), glencoe_clerk)
    glencoe_officer = make_user("gwen", OFFICER, [glencoe])
    url = reverse("impound:gate_clear", args=[nb_case.gates.get().pk])
    assert client_as(glencoe_officer).get(url).status_code == 404  # not theirs to see


def test_the_officer_uploads_the_order_and_a_bad_file_is_a_message(
    nb_case, officer, clerk, client_as
):
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    gate = nb_case.gates.get()
    url = reverse("impound:gate_clear", args=[gate.pk])
    assert client_as(clerk).get(url).status_code == 403
    client = client_as(officer)
    fields = {"court": "District Court", "order_number": "A-1", "order_date": "2026-11-29"}
    bad = SimpleUploadedFile("order.pdf", b"not a pdf", content_type="application/pdf")
    response = client.post(url, {**fields, "document": bad})
    assert response.status_code == 200 and "document" in response.context["form"].errors
    response = client.post(url, {**fields, "order_date": "2026-12-09", "document": order_pdf()})
    assert "order_date" in response.context["form"].errors
    response = client.post(url, {**fields, "document": order_pdf()})
    assert response.status_code == 302
    gate.refresh_from_db()
    assert not gate.is_open


def test_the_judgement_page_records_and_glencoe_says_it_has_none(
    nb_case, officer, glencoe, pound, client_as
):
    from django.urls import reverse

    client = client_as(officer)
    url = reverse("impound:humane_destruction", args=[nb_case.pk])
    assert "North Branch Sec. 6-75" in client.get(url).content.decode()
    response = client.post(
        url,
        {
            "decided_by_name": "Olivia Officer",
            "capacity": "Agent of the council",
            "decided_on": "2026-11-30",
            "reasons": "Suffering",
        },
    )
    assert response.status_code == 302
    assert nb_case.gates.filter(kind=GateKind.HUMANE_DESTRUCTION).exists()
    gl_case = impound(glencoe, pound, officer, animal=owned_dog(glencoe))
    gl_url = reverse("impound:humane_destruction", args=[gl_case.pk])
    assert "has no judgement" in client.get(gl_url).content.decode()


def test_the_case_page_section_shows_gates_and_the_refused_total(nb_case, officer, rf):
    from django.template.loader import render_to_string

    from impound.views.redemption import case_redemption_section

    request = rf.get("/")
    request.user = officer
    template, context = case_redemption_section(request, case=nb_case)
    html = render_to_string(template, context, request=request)
    assert "North Branch Sec. 6-75" in html
    assert f"/impound/gates/{nb_case.gates.get().pk}/clear/" in html
    assert "humane destruction" in html
