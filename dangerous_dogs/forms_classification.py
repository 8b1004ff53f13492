"""North Branch classification forms (DD-29): the shape of the input only; the rules
(which city, who may act, dates, one standing classification) are the service's."""

from django import forms
from django.utils.translation import gettext_lazy as _

from base import dates
from base.forms import CERTIFICATE_TYPES, DateInput
from base.uploads import upload_check
from dangerous_dogs.models import ClassificationTerm


class ClassificationForm(forms.Form):
    term = forms.ChoiceField(
        label=_("Classified as"), choices=ClassificationTerm.choices, widget=forms.RadioSelect
    )
    reason = forms.CharField(
        label=_("Reason"),
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("What the dog did; the ordinance defines none of the three terms."),
    )
    evidence = forms.CharField(
        label=_("Evidence"), required=False, widget=forms.Textarea(attrs={"rows": 3})
    )
    file = forms.FileField(label=_("Evidence document (PDF or image)"), required=False)
    classified_on = dates.PastDateField(label=_("Classified on"), widget=DateInput())
    classified_by_name = forms.CharField(label=_("Officer"), max_length=120)

    def clean_file(self):
        upload = self.cleaned_data.get("file")
        if upload:
            return upload_check(upload, CERTIFICATE_TYPES)
        return upload


class ClassificationEndForm(forms.Form):
    ended_on = dates.PastDateField(label=_("Ended on"), widget=DateInput())
    reason = forms.CharField(label=_("Why it ends"), max_length=300)
