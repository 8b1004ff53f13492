"""Lost-pet report forms: the shape of the input only; the service
(impound/services/lost.py) stores the report's end and runs the matching."""

from django import forms
from django.core.validators import MaxValueValidator
from django.utils.translation import gettext_lazy

from base import dates
from base.forms import PHOTO_TYPES, DateInput
from base.uploads import upload_check
from impound.models import LostReport
from licensing.services.registry import clean_microchip
from ordinance.models import Jurisdiction

# A screen bound, not an ordinance value: an age in months above this is a typing slip.
AGE_MONTHS_MAX = 600


class LostReportForm(forms.ModelForm):
    """What the resident tells: the animal, when and where it was lost, how to reach them."""

    lost_on = dates.PastDateField(label=gettext_lazy("Date lost"), widget=DateInput())
    photo = forms.FileField(
        label=gettext_lazy("Photo"),
        required=False,
        help_text=gettext_lazy(
            "JPEG or PNG. If the page comes back with a problem, choose it again."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": "image/jpeg,image/png"}),
    )

    class Meta:
        model = LostReport
        fields = [
            "jurisdiction",
            "species",
            "breed",
            "color",
            "sex",
            "approximate_age_months",
            "name",
            "distinguishing_marks",
            "tag_number",
            "microchip",
            "photo",
            "lost_on",
            "lost_where",
            "contact_preference",
            "contact_phone",
        ]
        widgets = {
            "distinguishing_marks": forms.Textarea(attrs={"rows": 3}),
            "approximate_age_months": forms.NumberInput(attrs={"inputmode": "numeric"}),
            "microchip": forms.TextInput(attrs={"inputmode": "numeric"}),
            "contact_phone": forms.TextInput(attrs={"type": "tel", "autocomplete": "tel"}),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        cities = Jurisdiction.objects.order_by("name")
        self.fields["jurisdiction"].queryset = cities
        self.fields["jurisdiction"].empty_label = None
        age = self.fields["approximate_age_months"]
        age.validators.append(MaxValueValidator(AGE_MONTHS_MAX))
        age.widget.attrs["max"] = AGE_MONTHS_MAX
        self.fields["microchip"].help_text = gettext_lazy(
            "9, 10 or 15 digits, if the animal has one."
        )

    def clean_microchip(self):
        return clean_microchip(self.cleaned_data.get("microchip", ""))

    def clean_photo(self):
        photo = self.cleaned_data.get("photo")
        if photo and hasattr(photo, "content_type"):
            return upload_check(photo, PHOTO_TYPES)
        return photo or None

    def service_kwargs(self) -> dict:
        data = dict(self.cleaned_data)
        data.pop("jurisdiction")
        if not data.get("photo"):
            data.pop("photo", None)
        return data


class LostCloseForm(forms.Form):
    note = forms.CharField(
        label=gettext_lazy("A note (optional)"),
        max_length=200,
        required=False,
        help_text=gettext_lazy("For example: found at home, or picked up at the pound."),
    )
