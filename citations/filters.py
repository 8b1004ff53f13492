"""Filters for the citation list (django-filter): status, charge class, city."""

import django_filters
from django.utils.translation import gettext_lazy as _

from ordinance.models import Jurisdiction

from .models import ChargeClass, Citation, CitationStatus


class CitationFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(
        label=_("Status"), choices=CitationStatus.choices, empty_label=_("Any status")
    )
    charge_class = django_filters.ChoiceFilter(
        label=_("Charge class"), choices=ChargeClass.choices, empty_label=_("Any class")
    )
    overdue = django_filters.BooleanFilter(
        label=_("Appearance date passed with no outcome"),
        field_name="outcome_overdue_at",
        lookup_expr="isnull",
        exclude=True,
        widget=django_filters.widgets.BooleanWidget(),
    )
    jurisdiction = django_filters.ModelChoiceFilter(
        label=_("City"), queryset=Jurisdiction.objects.none(), empty_label=_("All my cities")
    )

    class Meta:
        model = Citation
        fields = ["status", "charge_class", "overdue", "jurisdiction"]

    def __init__(self, data=None, *args, user, **kwargs):
        super().__init__(data, *args, **kwargs)
        if len(user.jurisdiction_ids) > 1:
            self.filters["jurisdiction"].queryset = user.served_jurisdictions()
        else:
            # A clerk of one city sees no trace of the others (architecture.md).
            del self.filters["jurisdiction"]
