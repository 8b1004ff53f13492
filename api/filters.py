"""The API's query filters: ``changed_since`` on every list, and what each list adds.

"Changed" is read from the audit history every record keeps (django-simple-history,
written by every service and by the set-based December 31 expiry too), or the record's
own creation time for rows made in bulk without a history row. One subquery, no loop."""

import django_filters as filters
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from base.dates import ANY
from base.dates import DateField as BoundedDateField
from base.dates import DateTimeField as BoundedDateTimeField
from licensing.models import Animal, License, LicenseStatus, Owner, Receipt
from licensing.models.registry import AnimalStatus, Species


class BoundedDateFilter(filters.DateFilter):
    field_class = BoundedDateField


class BoundedDateTimeFilter(filters.DateTimeFilter):
    field_class = BoundedDateTimeField


class ChangedSinceFilterSet(filters.FilterSet):
    changed_since = BoundedDateTimeFilter(
        method="filter_changed_since",
        kind=ANY,
        label=_("Changed at or after (ISO 8601; local time unless an offset is given)"),
    )
    city = filters.CharFilter(
        field_name="jurisdiction__slug", label=_("City (its slug), among the token's cities")
    )
    created_field = "created_at"

    def filter_changed_since(self, queryset, name, value):
        changed = self._meta.model.history.filter(history_date__gte=value).values("id")
        return queryset.filter(Q(pk__in=changed) | Q(**{f"{self.created_field}__gte": value}))


class LicenseFilterSet(ChangedSinceFilterSet):
    status = filters.ChoiceFilter(choices=LicenseStatus.choices)

    class Meta:
        model = License
        fields = ["changed_since", "city", "status"]


class AnimalFilterSet(ChangedSinceFilterSet):
    species = filters.ChoiceFilter(choices=Species.choices)
    status = filters.ChoiceFilter(choices=AnimalStatus.choices)

    class Meta:
        model = Animal
        fields = ["changed_since", "city", "species", "status"]


class OwnerFilterSet(ChangedSinceFilterSet):
    class Meta:
        model = Owner
        fields = ["changed_since", "city"]


class ReceiptFilterSet(ChangedSinceFilterSet):
    """The finance export: receipts issued between two local dates (both included)."""

    created_field = "issued_at"
    issued_from = BoundedDateFilter(
        field_name="issued_at", lookup_expr="date__gte", kind=ANY, label=_("Issued on or after")
    )
    issued_to = BoundedDateFilter(
        field_name="issued_at", lookup_expr="date__lte", kind=ANY, label=_("Issued on or before")
    )

    class Meta:
        model = Receipt
        fields = ["changed_since", "city", "issued_from", "issued_to"]
