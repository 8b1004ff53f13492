"""The seizure checklist and the contact attempt: the shape of the input only; whether
the seven conditions of Glencoe 701 Subd. 5 hold is ``complaints.seizure``'s to say."""

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy

from impound.models import Pound

from .forms import _datetime_field
from .seizure_models import ContactMethod, ContactResult, EntryMeans


class ContactAttemptForm(forms.Form):
    attempted_at = _datetime_field(gettext_lazy("Attempted at"))
    method = forms.ChoiceField(
        label=gettext_lazy("Means of contact"), choices=ContactMethod.choices
    )
    contacted = forms.CharField(
        label=gettext_lazy("Who was tried"),
        max_length=160,
        help_text=gettext_lazy(
            "The dog's owner or the owner of the property, and the number or door."
        ),
    )
    result = forms.ChoiceField(label=gettext_lazy("Result"), choices=ContactResult.choices)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, prefix="contact", **kwargs)
        self.fields["attempted_at"].initial = timezone.localtime().replace(second=0, microsecond=0)


class SeizureForm(forms.Form):
    """Every condition is optional here: the service refuses each one missing, next to
    its field, and the form keeps what the officer entered."""

    complainant_contemporaneous = forms.BooleanField(
        required=False,
        label=gettext_lazy(
            "1. The identified complainant named on this complaint, not an officer, is "
            "complaining of the barking now"
        ),
    )
    barking_meets_criteria = forms.BooleanField(
        required=False,
        label=gettext_lazy("2. I reasonably believe the barking meets the criteria of Subd. 5"),
    )
    contact_failed = forms.BooleanField(
        required=False,
        label=gettext_lazy(
            "4. The reasonable attempts logged above to reach the dog's owner or the "
            "property owner have failed or been ignored"
        ),
    )
    no_forced_entry = forms.BooleanField(
        required=False,
        label=gettext_lazy("5. The seizure will not involve forced entry into a private residence"),
    )
    entry_means = forms.ChoiceField(
        required=False,
        label=gettext_lazy("How the dog will be reached"),
        choices=[("", "---------"), *EntryMeans.choices],
    )
    passkey_from = forms.CharField(
        required=False, max_length=160, label=gettext_lazy("Passkey given by (name and role)")
    )
    no_less_intrusive = forms.BooleanField(
        required=False,
        label=gettext_lazy("6. No less intrusive means of stopping the barking is available"),
    )
    less_intrusive = forms.CharField(
        required=False,
        label=gettext_lazy("Less intrusive means tried or considered"),
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    notice_place = forms.CharField(
        required=False,
        max_length=200,
        label=gettext_lazy("7. Where the written notice of seizure will be left"),
        help_text=gettext_lazy("A conspicuous place, for example the front door."),
    )
    pound = forms.ModelChoiceField(
        queryset=Pound.objects.none(), required=False, label=gettext_lazy("Pound")
    )

    def __init__(self, *args, complaint, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["pound"].queryset = Pound.objects.filter(
            jurisdictions=complaint.jurisdiction
        ).order_by("name")
