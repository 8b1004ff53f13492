"""A dangerous-dog case and every record of its proceeding are kept, never deleted: the
refusal names the record, not another app's."""

from datetime import timedelta

import pytest
from django.utils import timezone

from dangerous_dogs.models import Charge, Classification, DesignationCase
from kernel.kept import RecordKept
from tests.dangerous_dogs.helpers import make_case
from tests.impound.helpers import owned_dog

pytestmark = pytest.mark.django_db


def test_a_case_is_never_deleted_nor_its_charges(glencoe, officer):
    case = make_case(glencoe, officer)
    charge = Charge.objects.create(
        case=case,
        charged_on=timezone.localdate() - timedelta(days=1),
        offence="At large",
        recorded_by=officer,
    )
    with pytest.raises(RecordKept, match="Dangerous-dog cases are kept; they are never deleted."):
        case.delete()
    with pytest.raises(RecordKept, match="withdrawn or rescinded designation stays on record"):
        DesignationCase.objects.filter(pk=case.pk).delete()
    with pytest.raises(RecordKept, match="Charges are kept; they are never deleted."):
        charge.delete()
    assert DesignationCase.objects.filter(pk=case.pk).exists() and Charge.objects.exists()


def test_a_classification_is_ended_not_deleted(north_branch, officer):
    classification = Classification.objects.create(
        jurisdiction=north_branch,
        animal=owned_dog(north_branch),
        term="vicious",
        reason="Bit a mail carrier",
        classified_on=timezone.localdate(),
        classified_by_name="Olivia Officer",
        citation="NB Sec. 6-73",
        recorded_by=officer,
    )
    with pytest.raises(RecordKept, match="End the classification instead"):
        Classification.objects.all().delete()
    assert Classification.objects.filter(pk=classification.pk).exists()
