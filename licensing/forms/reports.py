"""Report and tag-lookup forms: shape of the input only (a bounded date range)."""

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from base import dates

# A screen limit that keeps a report's work bounded; not an ordinance value.
MAX_REPORT_DAYS = 3 * 366


class DateInput(forms.DateInput):
    input_type = "date"


class DateRangeForm(forms.Form):
    start = dates.DateField(label=_("From"), widget=DateInput)
    end = dates.DateField(label=_("To"), widget=DateInput)

    def clean(self):
        data = super().clean()
        start, end = data.get("start"), data.get("end")
        if start and end:
            if start > end:
                self.add_error("end", _("The end date must not be before the start date."))
            elif (end - start).days > MAX_REPORT_DAYS:
                self.add_error("end", _("Choose a range of at most three years."))
        return data


class TagLookupForm(forms.Form):
    number = forms.IntegerField(label=_("Tag number"), min_value=1, max_value=2_000_000_000)
    year = forms.IntegerField(
        label=_("Year stamped on the tag"),
        min_value=1900,
        max_value=2999,
        required=False,
        help_text=_("Blank means this year."),
    )

    def clean_year(self):
        return self.cleaned_data.get("year") or timezone.localdate().year


class RenewalNoticesForm(DateRangeForm):
    """Renewal notices by mail: the report's range (hidden, as shown)
    and which owners to print for."""

    which = forms.ChoiceField(
        label=_("Owners"),
        choices=[
            ("unsent", _("Not yet sent a notice")),
            ("today", _("Notice printed today (the same batch again)")),
            ("all", _("All owners (reprint every notice)")),
        ],
        initial="unsent",
        widget=forms.RadioSelect,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("start", "end"):
            self.fields[name].widget = forms.HiddenInput()
