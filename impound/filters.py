"""Filters for the impound board (django-filter)."""

import django_filters
from django.utils.translation import gettext_lazy as _

from ordinance.models import Jurisdiction

from .models import OPEN_STATUSES, CaseStatus, ImpoundCase

OPEN = "open"
ALL = "all"


class CaseFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(
        label=_("Status"),
        empty_label=None,
        choices=[(OPEN, _("Open (held or available)")), (ALL, _("All")), *CaseStatus.choices],
        method="filter_status",
    )
    jurisdiction = django_filters.ModelChoiceFilter(
        label=_("City"),
        queryset=Jurisdiction.objects.none(),
        empty_label=_("All my cities"),
    )

    class Meta:
        model = ImpoundCase
        fields = ["status", "jurisdiction"]

    def __init__(self, data=None, *args, user, **kwargs):
        data = data.copy() if data is not None else None
        if data is not None and not data.get("status"):
            data["status"] = OPEN  # the board shows open cases unless asked otherwise
        super().__init__(data, *args, **kwargs)
        if len(user.jurisdiction_ids) > 1:
            self.filters["jurisdiction"].queryset = user.served_jurisdictions()
        else:
            # A clerk of one city sees no trace of the others (architecture.md).
            del self.filters["jurisdiction"]

    def filter_status(self, queryset, name, value):
        if value == OPEN or not value:
            return queryset.filter(status__in=OPEN_STATUSES)
        if value == ALL:
            return queryset
        return queryset.filter(status=value)
