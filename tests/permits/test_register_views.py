"""The species and register pages: the species check on the registry's and the
counter's animal forms, the premises page with the dog and cat limit, the per-lot caps
and the register (Glencoe), none of it for North Branch; the exemption form, the
permit-to-premises link, the register report and its CSV; the classification flag on
the animal page; 403 for the wrong role and 404 for the other city."""

import csv
import io
from datetime import date

import pytest
from django.urls import reverse

from licensing.services import registry
from ordinance.refusals import Refused
from permits.models import HorsePermit, WildExemption
from permits.services import horses, register
from tests.conftest import make_user
from tests.licensing.factories import OwnerFactory
from tests.permits.helpers import horse_fields

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-05-04T09:00")]
ON = date(2026, 5, 4)


def _text(response):
    return response.content.decode()


@pytest.fixture
def gl_owner(glencoe):
    return OwnerFactory(jurisdiction=glencoe, last_name="Zzgl Wolfe", address_line="9 Birch Ave")


@pytest.fixture
def gl_pig(gl_owner, glencoe_clerk):
    return registry.animal_register(
        owner=gl_owner,
        actor=glencoe_clerk,
        on=ON,
        species="other",
        kind="pot_bellied_pig",
        name="Hamlet",
    )


def test_the_registry_form_refuses_a_wolf_hybrid_next_to_the_kind(
    client_as, glencoe_clerk, gl_owner
):
    client = client_as(glencoe_clerk)
    url = reverse("licensing:animal_create", args=[gl_owner.pk])
    form = client.get(url)
    assert 'name="kind"' in _text(form) and "Wolf, coyote or jackal hybrid" in _text(form)
    refused = client.post(
        url, {"species": "dog", "kind": "wolf_hybrid", "name": "Loki", "sex": "male"}
    )
    assert refused.status_code == 200
    assert "Glencoe 701 Subd. 31(B)" in _text(refused)
    assert "Subd. 31(B)" in str(refused.context["form"].errors["kind"])
    assert not gl_owner.animals.exists()


def test_the_counter_form_refuses_it_too(client_as, glencoe_clerk, gl_owner):
    client = client_as(glencoe_clerk)
    url = reverse("licensing:counter_animal", args=[gl_owner.pk])
    refused = client.post(
        url,
        {
            "action": "animal",
            "animal-species": "dog",
            "animal-kind": "wolf_hybrid",
            "animal-name": "Loki",
            "animal-sex": "male",
        },
    )
    assert "Glencoe 701 Subd. 31(B)" in _text(refused)
    assert not gl_owner.animals.exists()


def test_north_branch_forms_have_no_kind(client_as, clerk, north_branch):
    owner = OwnerFactory(jurisdiction=north_branch)
    page = client_as(clerk).get(reverse("licensing:animal_create", args=[owner.pk]))
    assert 'name="kind"' not in _text(page)


def test_the_glencoe_premises_page_shows_limits_caps_and_the_register(
    client_as, glencoe_clerk, gl_pig, django_assert_max_num_queries
):
    permit = horses.horse_apply(
        jurisdiction=gl_pig.jurisdiction, actor=glencoe_clerk, on=ON, **horse_fields()
    )
    register.permit_link_premises(permit=permit, premises=gl_pig.premises, actor=glencoe_clerk)
    client = client_as(glencoe_clerk)
    url = reverse("licensing:premises_detail", args=[gl_pig.premises_id])
    client.get(url)  # the city's rules into the cache, as any first page
    with django_assert_max_num_queries(10):
        page = client.get(url)
    text = _text(page)
    assert "Animal limit at the premises" in text  # the dog and cat limit (KEN-01)
    assert "1 of at most 1 vietnamese pot-bellied pig" in text.lower()
    assert "0 of at most 5 pigeon" in text.lower() and "Glencoe 701 Subd. 1(R)(3)" in text
    assert "What these premises may keep" in text and permit.applicant_name in text
    assert "Glencoe 701 Subd. 31(B)" in text
    assert reverse("permits:exemption_new", args=[gl_pig.premises_id]) in text


def test_a_north_branch_premises_page_shows_no_permit_section(client_as, clerk, north_branch):
    owner = OwnerFactory(jurisdiction=north_branch)
    dog = registry.animal_register(owner=owner, actor=clerk, on=ON, species="dog", name="Rex")
    page = client_as(clerk).get(reverse("licensing:premises_detail", args=[dog.premises_id]))
    text = _text(page)
    assert page.status_code == 200 and "Animal limit at the premises" in text
    assert "What these premises may keep" not in text and "Per-lot caps" not in text
    assert "Subd." not in text


def test_premises_pages_are_the_citys_own_and_staffs_only(client_as, clerk, resident, gl_pig):
    url = reverse("licensing:premises_detail", args=[gl_pig.premises_id])
    assert client_as(clerk).get(url).status_code == 404
    assert client_as(resident).get(url).status_code == 403


def test_the_clerk_records_an_exemption_then_the_hybrid_registers(
    client_as, glencoe_clerk, gl_pig, gl_owner
):
    client = client_as(glencoe_clerk)
    url = reverse("permits:exemption_new", args=[gl_pig.premises_id])
    form = client.get(url)
    assert "Glencoe 701 Subd. 32(B)" in _text(form) and "Subd. 31" in _text(form)
    data = {
        "basis": "veterinary",
        "holder_name": "Glencoe Veterinary Hospital",
        "confirmed_by_name": "Officer Olson",
        "evidence": "Double-door kennels.",
        "starts_on": "2026-05-04",
    }
    refused = client.post(url, data)
    assert refused.status_code == 200 and "protective devices" in _text(refused).lower()
    done = client.post(url, {**data, "protective_devices_confirmed": "on"})
    assert done.status_code == 302
    exemption = WildExemption.objects.get()
    assert exemption.section == "Glencoe 701 Subd. 32(B)" and exemption.recorded_by == glencoe_clerk
    hybrid = client.post(
        reverse("licensing:animal_create", args=[gl_owner.pk]),
        {"species": "dog", "kind": "wolf_hybrid", "name": "Loki", "sex": "male"},
    )
    assert hybrid.status_code == 302
    ended = client.post(
        reverse("permits:exemption_end", args=[exemption.pk]),
        {"ended_on": "2026-05-04", "reason": "The clinic moved."},
    )
    assert ended.status_code == 302
    exemption.refresh_from_db()
    assert exemption.ended_on == ON and exemption.history.count() == 2


def test_the_officer_may_read_but_not_record(client_as, officer, gl_pig):
    client = client_as(officer)
    assert (
        client.get(reverse("licensing:premises_detail", args=[gl_pig.premises_id])).status_code
        == 200
    )
    assert (
        client.get(reverse("permits:exemption_new", args=[gl_pig.premises_id])).status_code == 403
    )


def test_north_branch_premises_take_no_exemption(client_as, administrator, north_branch, clerk):
    owner = OwnerFactory(jurisdiction=north_branch)
    dog = registry.animal_register(owner=owner, actor=clerk, on=ON, species="dog", name="Rex")
    url = reverse("permits:exemption_new", args=[dog.premises_id])
    assert client_as(administrator).get(url).status_code == 404


def test_a_permit_is_linked_to_its_premises_and_the_report_lists_it(
    client_as, glencoe_clerk, gl_pig
):
    permit = horses.horse_apply(
        jurisdiction=gl_pig.jurisdiction, actor=glencoe_clerk, on=ON, **horse_fields()
    )
    client = client_as(glencoe_clerk)
    premises_url = reverse("licensing:premises_detail", args=[gl_pig.premises_id])
    assert f'value="h{permit.pk}"' in _text(client.get(premises_url))
    client.post(
        reverse("permits:permit_link", args=[gl_pig.premises_id]), {"permit": f"h{permit.pk}"}
    )
    assert HorsePermit.objects.get().premises_id == gl_pig.premises_id
    report = client.get(reverse("permits:register"))
    assert permit.applicant_name in _text(report) and "Horse permit" in _text(report)
    exported = client.get(reverse("permits:register") + "?format=csv")
    rows = list(csv.reader(io.StringIO(exported.content.decode())))
    assert rows[0][:2] == ["premises", "what"]
    assert any(permit.applicant_name in row for row in rows[1:])


def test_north_branch_staff_see_a_statement_not_a_register(client_as, clerk):
    page = client_as(clerk).get(reverse("permits:register"))
    assert page.status_code == 200 and "no register to keep" in _text(page)


def test_the_animal_page_shows_the_class_and_the_flag_for_an_intact_ferret(
    client_as, glencoe_clerk, gl_owner
):
    ferret = registry.animal_register(
        owner=gl_owner, actor=glencoe_clerk, on=ON, species="ferret", name="Slinky"
    )
    text = _text(client_as(glencoe_clerk).get(ferret.get_absolute_url()))
    assert "Species classification" in text and "Domestic ferret: Pet" in text
    assert "an intact ferret would be a wild animal" in text and "staff decide" in text


def test_a_wrong_city_clerk_cannot_record_for_another_city(gl_pig, north_branch):
    nb_admin = make_user("ned", "administrator", [north_branch])
    with pytest.raises(Refused):
        register.exemption_record(
            premises=gl_pig.premises,
            basis="veterinary",
            holder_name="X",
            protective_devices_confirmed=True,
            confirmed_by_name="Y",
            evidence="Z",
            starts_on=ON,
            actor=nb_admin,
        )
    assert not WildExemption.objects.exists()


def test_an_impounded_wild_animal_links_to_its_premises_register(
    client_as, officer, glencoe, glencoe_clerk, gl_pig
):
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from tests.impound.factories import make_pound
    from tests.impound.helpers import take_in

    # A hybrid kept under a veterinary exemption (Subd. 32(B)), then found at large.
    register.exemption_record(
        premises=gl_pig.premises,
        basis="veterinary",
        holder_name="Glencoe Veterinary Hospital",
        protective_devices_confirmed=True,
        confirmed_by_name="Officer Olson",
        evidence="Seen.",
        starts_on=ON,
        actor=glencoe_clerk,
    )
    hybrid = registry.animal_register(
        owner=gl_pig.owner,
        actor=glencoe_clerk,
        on=ON,
        species="dog",
        kind="wolf_hybrid",
        name="Loki",
    )
    when = datetime(2026, 5, 4, 10, tzinfo=ZoneInfo("America/Chicago"))
    pound = make_pound(glencoe)
    case = take_in(glencoe, pound, officer, when, "dog_at_large", animal=hybrid)
    dog_case = take_in(glencoe, pound, officer, when, "dog_at_large")
    client = client_as(officer)
    text = _text(client.get(reverse("impound:case_detail", args=[case.pk])))
    assert "Glencoe 701 Subd. 34" in text
    register_link = reverse("licensing:premises_detail", args=[gl_pig.premises_id]) + "#register"
    assert register_link in text
    assert "#register" not in _text(client.get(reverse("impound:case_detail", args=[dog_case.pk])))


def test_a_wild_animal_complaint_links_to_the_premises_register(
    client_as, officer, glencoe, glencoe_clerk, gl_pig
):
    from tests.complaints.helpers import take_complaint

    complaint = take_complaint(
        glencoe,
        officer,
        kind="wild_animal",
        address_line=gl_pig.premises.address_line,
        narrative="A monkey on the porch.",
    )
    assert complaint.premises_id == gl_pig.premises_id
    text = _text(client_as(officer).get(reverse("complaints:detail", args=[complaint.pk])))
    link = reverse("licensing:premises_detail", args=[gl_pig.premises_id]) + "#register"
    assert link in text and "what the premises may keep (wild animal)" in text
