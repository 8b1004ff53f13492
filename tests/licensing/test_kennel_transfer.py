"""Kennel license transfer (LIC-12, NB Sec. 6-65(d)) and animals leaving a kennel."""

from datetime import date, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from licensing.models import KennelAnimal, KennelDecision, KennelStatus, Receipt
from licensing.services.kennels.animals import kennel_animal_add, kennel_animal_remove
from licensing.services.kennels.applications import (
    KennelRequest,
    kennel_apply,
    kennel_decision_record,
    kennel_premises_for,
    review_steps,
)
from licensing.services.kennels.common import DecidedBy
from licensing.services.kennels.issuance import kennel_issue
from licensing.services.kennels.transfers import kennel_transfer
from ordinance.models import Event
from ordinance.refusals import Refused
from tests.licensing.factories import AnimalFactory, OwnerFactory

CHICAGO = ZoneInfo("America/Chicago")
NOW = datetime(2026, 3, 10, 10, 0, tzinfo=CHICAGO)
ON = date(2026, 3, 10)

# The pages read today's date: run on the day the kennel license was issued, so the
# license is current (it expires 2026-12-31, KEN-05) whatever the real date.
pytestmark = pytest.mark.clock("2026-03-10T10:00")


def active_kennel(jurisdiction, clerk):
    owner = OwnerFactory(jurisdiction=jurisdiction, last_name="Breeder")
    kennel = kennel_apply(
        owner=owner,
        premises=kennel_premises_for(owner),
        application=KennelRequest(
            business_nature="Boarding", dog_count=5, cat_count=0, cup_reference="CUP-1"
        ),
        actor=clerk,
        on=date(2026, 3, 2),
    )
    for step in review_steps(kennel, on=ON).value:
        kennel_decision_record(
            kennel=kennel,
            step=step,
            outcome=KennelDecision.Outcome.APPROVED,
            decided=DecidedBy(
                name="Jane Roe", capacity="Council", on=date(2026, 3, 5), reasons="ok"
            ),
            actor=clerk,
        )
    kennel.refresh_from_db()
    return kennel_issue(kennel=kennel, actor=clerk, now=NOW, method="cash")


@pytest.fixture
def nb_kennel(north_branch, clerk):
    return active_kennel(north_branch, clerk)


def test_transfer_keeps_number_and_expiry_and_charges_the_transfer_fee(
    nb_kennel, clerk, north_branch
):
    buyer = OwnerFactory(jurisdiction=north_branch, last_name="Buyer")
    number, expires = nb_kennel.number, nb_kennel.expires_on
    receipt = kennel_transfer(
        kennel=nb_kennel, new_owner=buyer, actor=clerk, on=ON, method="cash", now=NOW
    )
    nb_kennel.refresh_from_db()
    assert nb_kennel.owner == buyer
    assert (nb_kennel.number, nb_kennel.expires_on) == (number, expires)
    line = receipt.lines.get()
    assert (line.code, line.amount, line.authority) == (
        "transfer",
        Decimal("5.00"),
        "North Branch Sec. 6-65(d)",
    )
    assert receipt.payer == buyer
    event = Event.objects.for_object(nb_kennel).get(action="licensing.kennel.transferred")
    assert event.data["receipt"] == receipt.number
    assert nb_kennel.history.first().history_change_reason.startswith("Transferred")


def test_transfer_refuses_the_same_owner_another_city_or_a_license_not_current(
    nb_kennel, clerk, glencoe, north_branch
):
    with pytest.raises(Refused):
        kennel_transfer(
            kennel=nb_kennel, new_owner=nb_kennel.owner, actor=clerk, on=ON, method="cash"
        )
    with pytest.raises(Refused):
        kennel_transfer(
            kennel=nb_kennel,
            new_owner=OwnerFactory(jurisdiction=glencoe),
            actor=clerk,
            on=ON,
            method="cash",
        )
    with pytest.raises(Refused):  # after the Dec 31 expiry (KEN-05)
        kennel_transfer(
            kennel=nb_kennel,
            new_owner=OwnerFactory(jurisdiction=north_branch),
            actor=clerk,
            on=date(2027, 1, 2),
            method="cash",
        )
    assert not Event.objects.filter(action="licensing.kennel.transferred").exists()


def test_an_animal_removed_from_a_kennel_leaves_its_list_and_can_come_back(nb_kennel, clerk):
    dog = AnimalFactory(
        jurisdiction=nb_kennel.jurisdiction, owner=nb_kennel.owner, premises=nb_kennel.premises
    )
    kennel_animal_add(kennel=nb_kennel, animal=dog, on=ON, actor=clerk)
    with pytest.raises(Refused):  # before it was added
        kennel_animal_remove(kennel=nb_kennel, animal=dog, on=date(2026, 3, 1), actor=clerk)
    kennel_animal_remove(kennel=nb_kennel, animal=dog, on=date(2026, 4, 1), actor=clerk)
    member = KennelAnimal.objects.get(animal=dog)
    assert member.removed_on == date(2026, 4, 1)
    with pytest.raises(Refused):  # already removed
        kennel_animal_remove(kennel=nb_kennel, animal=dog, on=date(2026, 4, 2), actor=clerk)
    kennel_animal_add(kennel=nb_kennel, animal=dog, on=date(2026, 5, 1), actor=clerk)
    member.refresh_from_db()
    assert member.removed_on is None and member.added_on == date(2026, 5, 1)
    assert member.history.count() == 3  # added, removed, added again


def test_the_kennel_page_removes_an_animal(client_as, clerk, nb_kennel):
    dog = AnimalFactory(
        jurisdiction=nb_kennel.jurisdiction,
        owner=nb_kennel.owner,
        premises=nb_kennel.premises,
        name="Bramble",
    )
    kennel_animal_add(kennel=nb_kennel, animal=dog, on=ON, actor=clerk)
    client = client_as(clerk)
    url = reverse("licensing:kennel_action", args=[nb_kennel.pk, "remove-animal"])
    bad = client.post(url, {"remove-animal-animal": dog.pk})
    assert bad.status_code == 400 and b"Bramble" in bad.content
    ok = client.post(
        url, {"remove-animal-animal": dog.pk, "remove-animal-removed_on": "2026-03-10"}
    )
    assert ok.status_code == 302
    page = client.get(nb_kennel.get_absolute_url()).content.decode()
    assert "removed Mar 10, 2026" in page


def test_the_transfer_page_finds_the_new_owner_by_search(
    client_as, clerk, nb_kennel, north_branch, glencoe, django_assert_max_num_queries
):
    for i in range(60):
        OwnerFactory(jurisdiction=north_branch, last_name=f"Other{i}")
    buyer = OwnerFactory(jurisdiction=north_branch, last_name="Quillfeather")
    OwnerFactory(jurisdiction=glencoe, last_name="Quillfeather")  # another city: not offered
    client = client_as(clerk)
    url = reverse("licensing:kennel_transfer", args=[nb_kennel.pk])
    page = client.get(url).content.decode()
    assert "Other1" not in page and "Search for the new owner" in page
    assert "Sec. 6-65(d)" in page and "$5.00" in page
    with django_assert_max_num_queries(25):
        page = client.get(url, {"q": "quillfeather"}).content.decode()
    assert page.count("Quillfeather") == 1  # the NB owner only, not the Glencoe one
    assert f'value="{buyer.pk}"' in page
    response = client.post(url, {"new_owner": buyer.pk, "method": "cash", "amount_tendered": "20"})
    assert response.status_code == 302
    nb_kennel.refresh_from_db()
    assert nb_kennel.owner == buyer


def test_a_transfer_without_a_chosen_owner_keeps_the_payment_and_says_why(
    client_as, clerk, nb_kennel
):
    url = reverse("licensing:kennel_transfer", args=[nb_kennel.pk])
    owner, receipts = nb_kennel.owner_id, Receipt.objects.count()
    response = client_as(clerk).post(url, {"method": "check", "reference": "1234"})
    body = response.content.decode()
    assert response.status_code == 200 and "Find the new owner and choose them" in body
    assert 'value="1234"' in body
    # Nothing changed (LIC-12): same owner, still active, no transfer fee charged.
    nb_kennel.refresh_from_db()
    assert (nb_kennel.status, nb_kennel.owner_id) == (KennelStatus.ACTIVE, owner)
    assert Receipt.objects.count() == receipts
    assert not Event.objects.filter(action="licensing.kennel.transferred").exists()


def test_the_transfer_page_shows_the_fee_table_before_the_payment(client_as, clerk, nb_kennel):
    """The fee line with its section, then the payment form."""
    url = reverse("licensing:kennel_transfer", args=[nb_kennel.pk])
    page = client_as(clerk).get(url).content.decode()
    table = page[page.index("Fee to take") : page.index("</table>", page.index("Fee to take"))]
    assert "License transfer" in table and "Sec. 6-65(d)" in table and "$5.00" in table
    assert page.index("Fee to take") < page.index('name="method"')


def test_the_kennel_page_shows_the_fee_in_the_payment_card(client_as, clerk, north_branch):
    """The "Take the fee now" card shows the lines it takes, with sections."""
    from licensing.services.kennels.payments import kennel_fee_lines

    owner = OwnerFactory(jurisdiction=north_branch, last_name="Applicant")
    kennel = kennel_apply(
        owner=owner,
        premises=kennel_premises_for(owner),
        application=KennelRequest(
            business_nature="Boarding", dog_count=5, cat_count=0, cup_reference="CUP-2"
        ),
        actor=clerk,
        on=ON,
    )
    lines = kennel_fee_lines(kennel, on=ON)
    page = client_as(clerk).get(reverse("licensing:kennel_detail", args=[kennel.pk]))
    body = page.content.decode()
    card = body[body.index("Take the fee now") :]
    card = card[: card.index("</form>")]
    assert "Fee to take" in card and card.index("Fee to take") < card.index("<select")
    for line in lines:
        assert line.description in card and line.authority in card and f"${line.amount}" in card
