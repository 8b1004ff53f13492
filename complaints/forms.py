"""Complaint forms: the shape of the input only; the rules are the services' and the
readings' (complaints/services.py, complaints/readings.py)."""

from django import forms
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from base import dates
from base.access import in_user_cities
from base.forms import DateInput
from impound.models import Pound
from impound.services.intake import impound_grounds
from licensing.models import Animal, Owner
from ordinance.models import Jurisdiction

from .models import (
    BarkingFacts,
    CareFacts,
    Complaint,
    Kind,
    LitterFacts,
    Outcome,
    RestraintFacts,
    Status,
)
from .services import address_key, entry_bases

DATETIME_FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S"]


def _datetime_field(label, **kwargs):
    return dates.PastDateTimeField(
        label=label, widget=dates.DateTimeInput(), input_formats=DATETIME_FORMATS, **kwargs
    )


def _model_field(name, **kwargs):
    return Complaint._meta.get_field(name).formfield(**kwargs)


def animal_label(animal: Animal) -> str:
    parts = [animal.name, animal.get_species_display()]
    if animal.breed:
        parts.append(animal.breed)
    return f"{', '.join(parts)} · {_('owner')} {animal.owner.name}, {animal.owner.address}"


def owners_at(cities, key: str) -> list[Owner]:
    """The registry's owners at a normalized address, with their living animals."""
    if not key:
        return []
    house = key.split()[0]
    found = Owner.objects.filter(
        jurisdiction__in=cities, merged_into__isnull=True, address_line__istartswith=house
    ).prefetch_related("animals")
    return [o for o in found if address_key(o.address_line, o.unit) == key]


class IntakeForm(forms.Form):
    """One screen for the clerk at the counter and the officer in the field."""

    kind = _model_field("kind")
    channel = _model_field("channel")
    address_line = _model_field("address_line")
    unit = _model_field("unit")
    location_note = _model_field("location_note")
    occurred_at = _datetime_field(gettext_lazy("Happened at"))
    received_at = _datetime_field(gettext_lazy("Received at"))
    anonymous = _model_field("anonymous")
    complainant_name = _model_field("complainant_name")
    complainant_phone = _model_field(
        "complainant_phone", widget=forms.TextInput(attrs={"inputmode": "tel"})
    )
    complainant_address = _model_field("complainant_address")
    animal = forms.ModelChoiceField(
        queryset=Animal.objects.none(),
        required=False,
        label=gettext_lazy("The registry's animal at this address"),
        widget=forms.RadioSelect,
    )
    owner = forms.ModelChoiceField(
        queryset=Owner.objects.none(),
        required=False,
        label=gettext_lazy("The registry's owner at this address"),
        widget=forms.RadioSelect,
    )
    animal_description = _model_field("animal_description")
    narrative = _model_field("narrative", widget=forms.Textarea(attrs={"rows": 4}))
    follow_up_on = _model_field("follow_up_on", form_class=dates.DateField, widget=DateInput())

    def __init__(self, *args, user, channel, **kwargs):
        super().__init__(*args, **kwargs)
        self.cities = list(user.served_jurisdictions().order_by("name"))
        if len(self.cities) > 1:
            self.fields["jurisdiction"] = forms.ModelChoiceField(
                queryset=Jurisdiction.objects.filter(pk__in=[c.pk for c in self.cities]),
                label=gettext_lazy("City"),
                empty_label=gettext_lazy("Choose the city"),
            )
            self.order_fields(["jurisdiction"])
        now = timezone.localtime().replace(second=0, microsecond=0)
        self.fields["occurred_at"].initial = now
        self.fields["received_at"].initial = now
        self.fields["channel"].initial = channel
        key = address_key(self.data.get("address_line", ""), self.data.get("unit", ""))
        owners = owners_at(self.cities, key) if self.is_bound else []
        animals = [a for o in owners for a in o.animals.all() if a.is_alive()]
        self.fields["animal"].queryset = in_user_cities(Animal.objects.all(), user)
        self.fields["animal"].widget.choices = [("", _("Not known"))] + [
            (a.pk, animal_label(a)) for a in animals
        ]
        self.fields["owner"].queryset = in_user_cities(Owner.objects.all(), user)
        self.fields["owner"].widget.choices = [("", _("Not known"))] + [
            (o.pk, f"{o.name}, {o.address}") for o in owners
        ]

    def clean(self):
        data = super().clean()
        if len(self.cities) == 1:
            data["jurisdiction"] = self.cities[0]
        return data

    def service_kwargs(self) -> dict:
        data = dict(self.cleaned_data)
        data.pop("jurisdiction", None)
        return data


class ListFilter(forms.Form):
    kind = forms.ChoiceField(
        label=gettext_lazy("Kind"),
        required=False,
        choices=[("", gettext_lazy("All kinds")), *Kind.choices],
    )
    status = forms.ChoiceField(
        label=gettext_lazy("Status"),
        required=False,
        choices=[("", gettext_lazy("All")), *Status.choices],
    )
    # From the animal page's link (complaints/sections.py): that animal's complaints.
    animal = forms.IntegerField(
        required=False, min_value=1, max_value=2**63 - 1, widget=forms.HiddenInput
    )


DATETIME_FIELDS = {"started_at", "ended_at"}


def facts_form_class(topic: str):
    model = {
        "restraint_facts": RestraintFacts,
        "barking_facts": BarkingFacts,
        "litter_facts": LitterFacts,
        "care_facts": CareFacts,
    }[topic]
    excluded = {"id", "complaint", "recorded_by", "recorded_at"}
    names = [f.name for f in model._meta.fields if f.name not in excluded]
    overrides = {
        name: _datetime_field(model._meta.get_field(name).verbose_name.capitalize())
        for name in names
        if name in DATETIME_FIELDS
    }
    meta = type(
        "Meta",
        (),
        {
            "model": model,
            "fields": names,
            "widgets": {
                n: forms.NumberInput(attrs={"inputmode": "numeric"})
                for n in ("leash_length_ft", "nearest_ft", "distance_ft")
                if n in names
            },
        },
    )
    return type(f"{model.__name__}Form", (forms.ModelForm,), {"Meta": meta, **overrides})


class EntryForm(forms.Form):
    basis = forms.ChoiceField(label=gettext_lazy("Legal basis"))
    entered_at = _datetime_field(gettext_lazy("Entered at"))
    findings = forms.CharField(
        label=gettext_lazy("What was found"), widget=forms.Textarea(attrs={"rows": 3})
    )

    def __init__(self, *args, complaint, **kwargs):
        super().__init__(*args, **kwargs)
        bases = entry_bases(complaint.jurisdiction, on=timezone.localdate())
        self.fields["basis"].choices = [(b.code, str(b)) for b in bases]
        self.fields["entered_at"].initial = timezone.localtime().replace(second=0, microsecond=0)


class OutcomeForm(forms.Form):
    outcome = forms.ChoiceField(
        label=gettext_lazy("Outcome"), choices=Outcome.choices, widget=forms.RadioSelect
    )
    reason = forms.CharField(
        label=gettext_lazy("Reason"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    pound = forms.ModelChoiceField(
        queryset=Pound.objects.none(), required=False, label=gettext_lazy("Pound")
    )
    ground = forms.ChoiceField(required=False, label=gettext_lazy("Ground for impounding"))

    def __init__(self, *args, complaint, rule=None, **kwargs):
        super().__init__(*args, **kwargs)
        city = complaint.jurisdiction
        self.fields["pound"].queryset = Pound.objects.filter(jurisdictions=city)
        grounds = impound_grounds(city, on=timezone.localdate())
        self.fields["ground"].choices = [("", _("Choose the ground"))] + [
            (g.code, str(g)) for g in grounds
        ]
        if rule is not None:
            self.fields["reason"].help_text = f"{rule.message} ({rule.citation})"

    def clean(self):
        data = super().clean()
        if data.get("outcome") == Outcome.IMPOUNDMENT:
            if not data.get("pound"):
                self.add_error("pound", _("Choose the pound."))
            if not data.get("ground"):
                self.add_error("ground", _("Choose the ground for impounding."))
        return data
