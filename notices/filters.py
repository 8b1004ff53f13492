"""Filters for the staff archive of issued documents (django-filter)."""

import django_filters
from django import forms
from django.utils.translation import gettext_lazy as _

from base import dates
from base.access import in_user_cities
from ordinance.models import Jurisdiction

from .models import IssuedDocument


class DateInput(forms.DateInput):
    input_type = "date"


class DateFilter(django_filters.DateFilter):
    field_class = dates.DateField


class DocumentFilter(django_filters.FilterSet):
    kind = django_filters.ChoiceFilter(label=_("Kind"), empty_label=_("Any kind"))
    number = django_filters.CharFilter(label=_("Number"), lookup_expr="icontains")
    issued_from = DateFilter(
        label=_("Issued on or after"),
        field_name="issued_at",
        lookup_expr="date__gte",
        widget=DateInput,
    )
    issued_to = DateFilter(
        label=_("Issued on or before"),
        field_name="issued_at",
        lookup_expr="date__lte",
        widget=DateInput,
    )
    jurisdiction = django_filters.ModelChoiceFilter(
        label=_("City"),
        queryset=Jurisdiction.objects.none(),
        empty_label=_("All my cities"),
    )

    class Meta:
        model = IssuedDocument
        fields = ["kind", "number", "issued_from", "issued_to", "jurisdiction"]

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        kinds = (
            in_user_cities(IssuedDocument.objects.all(), user)
            .order_by("kind")
            .values_list("kind", flat=True)
            .distinct()
        )
        self.filters["kind"].extra["choices"] = [(k, k.replace("_", " ")) for k in kinds]
        if len(user.jurisdiction_ids) > 1:
            self.filters["jurisdiction"].queryset = user.served_jurisdictions()
        else:
            # A clerk of one city sees no trace of the others (architecture.md).
            del self.filters["jurisdiction"]
