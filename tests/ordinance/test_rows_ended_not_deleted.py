"""Rule values and fee rows are ended by a later row, never deleted
(FEE-01, FEE-02): deleting the $18 fee row in admin once changed the counter's price to
$15. Delete is refused in the model, the queryset and admin; a row in force is read-only
in admin; a new row with a later date changes the price from that date, in the history."""

from datetime import date
from decimal import Decimal

import pytest
from django.urls import reverse

from ordinance.fees import fee_amount
from ordinance.models import EndedNotDeleted, FeeScheduleEntry, RuleValue

pytestmark = [pytest.mark.django_db, pytest.mark.clock("2026-11-30T10:00")]


def in_force(city):
    return (
        FeeScheduleEntry.objects.filter(jurisdiction=city, code="dog_license")
        .order_by("-effective_from")
        .first()
    )


def test_model_and_queryset_refuse_delete(north_branch):
    fee = in_force(north_branch)
    with pytest.raises(EndedNotDeleted):
        fee.delete()
    with pytest.raises(EndedNotDeleted):
        FeeScheduleEntry.objects.filter(pk=fee.pk).delete()
    rule = RuleValue.objects.filter(jurisdiction=north_branch).first()
    with pytest.raises(EndedNotDeleted):
        rule.delete()
    with pytest.raises(EndedNotDeleted):
        RuleValue.objects.filter(pk=rule.pk).delete()
    assert FeeScheduleEntry.objects.filter(pk=fee.pk).exists()


def test_admin_offers_no_delete_and_keeps_a_row_in_force_read_only(
    client_as, administrator, north_branch
):
    fee = in_force(north_branch)
    price = fee_amount(north_branch, "dog_license", on=date(2026, 11, 30)).amount
    client = client_as(administrator)
    delete_url = reverse("admin:ordinance_feescheduleentry_delete", args=[fee.pk])
    assert client.post(delete_url, {"post": "yes"}).status_code == 403
    changelist = reverse("admin:ordinance_feescheduleentry_changelist")
    client.post(
        changelist, {"action": "delete_selected", "_selected_action": [fee.pk], "post": "yes"}
    )
    assert FeeScheduleEntry.objects.filter(pk=fee.pk).exists()

    change_url = reverse("admin:ordinance_feescheduleentry_change", args=[fee.pk])
    page = client.get(change_url).content.decode()
    assert 'name="amount"' not in page and 'name="notes"' in page
    client.post(change_url, {"notes": "Checked against Res. 2025-41"})
    fee.refresh_from_db()
    assert fee.notes == "Checked against Res. 2025-41"
    assert fee_amount(north_branch, "dog_license", on=date(2026, 11, 30)).amount == price

    # The change: a new row from a later date, in force from that date only.
    add = client.post(
        reverse("admin:ordinance_feescheduleentry_add"),
        {
            "jurisdiction": north_branch.pk,
            "code": "dog_license",
            "description": fee.description,
            "amount": "20.00",
            "effective_from": "2027-01-01",
            "resolution": "Council Res. 2026-77",
        },
    )
    assert add.status_code == 302, add.content.decode()[:2000]
    assert fee_amount(north_branch, "dog_license", on=date(2026, 12, 31)).amount == price
    assert fee_amount(north_branch, "dog_license", on=date(2027, 1, 1)).amount == Decimal("20.00")
    new = in_force(north_branch)
    assert new.history.first().history_user == administrator
    # A future row is still editable (a typo before it takes effect).
    page = client.get(
        reverse("admin:ordinance_feescheduleentry_change", args=[new.pk])
    ).content.decode()
    assert 'name="amount"' in page
