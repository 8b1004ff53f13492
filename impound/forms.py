"""Impound forms: the shape of the input only. The rules (grounds, cats, who brought an
animal, the pound's designation, the hold) are the intake service's (impound/services/)."""

from datetime import timedelta

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from base import dates
from base.access import in_user_cities
from base.dates import DateTimeInput
from base.forms import PHOTO_TYPES, DateInput
from base.uploads import upload_check
from impound.models import ImpoundCase, Pound
from impound.services.intake import impound_grounds, party_age_months
from licensing.models import Animal
from licensing.services.registry import clean_microchip
from ordinance.models import Jurisdiction

# A screen setting, not an ordinance value: how far back an officer may enter a time of
# placement (a late entry after a night call), so a mistyped year is caught at once.
PLACED_AT_MAX_DAYS_BACK = 30


def _model_field(name, **kwargs):
    return ImpoundCase._meta.get_field(name).formfield(**kwargs)


def _pound_label(pound: Pound) -> str:
    cities = ", ".join(j.short_name for j in pound.jurisdictions.all())
    return f"{pound.name} ({cities})"


def animal_choice_label(animal: Animal) -> str:
    parts = [animal.name, animal.get_species_display()]
    if animal.breed:
        parts.append(animal.breed)
    label = ", ".join(parts)
    return f"{label} · {_('owner')} {animal.owner.name}, {animal.owner.address}"


class IntakeForm(forms.Form):
    """Intake on one screen (IMP-01, IMP-03, IMP-06; Subd. 13 item 1, C13)."""

    pound = forms.ModelChoiceField(
        queryset=Pound.objects.none(), label=gettext_lazy("Pound"), empty_label=None
    )
    ground = forms.ChoiceField(label=gettext_lazy("Ground for impounding"))
    placed_at = dates.PastDateTimeField(
        label=gettext_lazy("Placed in the pound at"),
        widget=DateTimeInput(),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S"],
    )
    seized_on = _model_field("seized_on", form_class=dates.PastDateField, widget=DateInput())
    seized_where = _model_field("seized_where")
    found_area = _model_field("found_area")
    brought_by_name = _model_field("brought_by_name")
    brought_by_address = _model_field("brought_by_address")
    kennel = _model_field("kennel")
    species = _model_field("species")
    breed = _model_field("breed")
    sex = _model_field("sex")
    sterilized = _model_field("sterilized")
    color = _model_field("color")
    approximate_age_months = _model_field(
        "approximate_age_months", widget=forms.NumberInput(attrs={"inputmode": "numeric"})
    )
    distinguishing_traits = _model_field(
        "distinguishing_traits", widget=forms.Textarea(attrs={"rows": 2})
    )
    photo = forms.FileField(
        label=gettext_lazy("Photo"),
        required=False,
        help_text=gettext_lazy(
            "JPEG or PNG. If the page comes back with a problem, choose it again."
        ),
        widget=forms.ClearableFileInput(
            attrs={"accept": "image/jpeg,image/png", "capture": "environment"}
        ),
    )
    tag_present = _model_field("tag_present")
    tag_text = _model_field("tag_text")
    microchip = _model_field(
        "microchip",
        widget=forms.TextInput(attrs={"inputmode": "numeric"}),
        help_text=gettext_lazy("9, 10 or 15 digits, as the scanner reads it."),
    )
    no_research = _model_field("no_research")
    no_research_source = _model_field("no_research_source")
    animal = forms.ModelChoiceField(
        queryset=Animal.objects.none(),
        required=False,
        label=gettext_lazy("Owner known: the registry's animal"),
        widget=forms.RadioSelect,
    )

    def __init__(self, *args, user, hits=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        today = timezone.localdate()
        cities = list(user.served_jurisdictions().order_by("name"))
        self.cities = cities
        if len(cities) > 1:
            self.fields["jurisdiction"] = forms.ModelChoiceField(
                queryset=Jurisdiction.objects.filter(pk__in=[c.pk for c in cities]),
                label=gettext_lazy("City"),
                empty_label=gettext_lazy("Choose the city"),
            )
            self.order_fields(["jurisdiction"])
        pounds = (
            Pound.objects.filter(jurisdictions__in=cities)
            .distinct()
            .prefetch_related("jurisdictions")
        )
        self.fields["pound"].queryset = pounds
        self.fields["pound"].label_from_instance = _pound_label
        # The grounds of each city, each label with its section (IMP-01).
        self.grounds = {city.pk: impound_grounds(city, on=today) for city in cities}
        if len(cities) > 1:
            self.fields["ground"].choices = [("", _("Choose the ground"))] + [
                (city.short_name, [(g.code, str(g)) for g in self.grounds[city.pk]])
                for city in cities
            ]
        else:
            self.fields["ground"].choices = (
                [("", _("Choose the ground"))]
                + [(g.code, str(g)) for g in self.grounds[cities[0].pk]]
                if cities
                else []
            )
        # Who brought it: required in some cities from an age (IMP-06, Subd. 13).
        notes = []
        for city in cities:
            rule = party_age_months(city, on=today)
            if rule is not None:
                notes.append(
                    _("%(city)s: required for an animal %(age)s or older (%(section)s).")
                    % {"city": city.short_name, "age": rule.display(), "section": rule.citation}
                )
        self.party_notes = notes
        if notes:
            self.fields["brought_by_name"].help_text = " ".join(notes)
            self.fields["brought_by_address"].help_text = " ".join(notes)
        self.fields["placed_at"].initial = timezone.localtime().replace(second=0, microsecond=0)
        self.fields["seized_on"].initial = today
        self.fields["species"].initial = "dog"
        # The registry's animals offered: the search's hits and the one already picked.
        scope = in_user_cities(Animal.objects, user)
        self.fields["animal"].queryset = scope
        self.fields["animal"].widget.choices = [("", _("No owner known yet"))] + [
            (a.pk, animal_choice_label(a)) for a in _offered(self, scope, hits)
        ]

    def clean_placed_at(self):
        value = self.cleaned_data["placed_at"]
        now = timezone.now()
        if value > now + timedelta(minutes=1):
            raise ValidationError(_("The time of placement cannot be in the future."))
        if value < now - timedelta(days=PLACED_AT_MAX_DAYS_BACK):
            raise ValidationError(
                _("Enter a time within the last %(days)s days; check the year.")
                % {"days": PLACED_AT_MAX_DAYS_BACK}
            )
        return min(value, now)

    def clean_microchip(self):
        return clean_microchip(self.cleaned_data["microchip"])

    def clean_photo(self):
        photo = self.cleaned_data.get("photo")
        if photo and hasattr(photo, "content_type"):
            return upload_check(photo, PHOTO_TYPES)
        return photo or None

    def clean(self):
        data = super().clean()
        if len(self.cities) == 1:
            data["jurisdiction"] = self.cities[0]
        city = data.get("jurisdiction")
        code = data.get("ground")
        if city is not None and code:
            if code not in {g.code for g in self.grounds.get(city.pk, [])}:
                self.add_error(
                    "ground",
                    _("%(city)s's ordinance has no such ground for impounding.")
                    % {"city": city.short_name},
                )
        pound = data.get("pound")
        if city is not None and pound is not None:
            if city.pk not in {j.pk for j in pound.jurisdictions.all()}:
                self.add_error(
                    "pound",
                    _("%(pound)s does not serve %(city)s.")
                    % {"pound": pound.name, "city": city.short_name},
                )
        return data

    def service_kwargs(self) -> dict:
        """The cleaned input as ``case_intake`` takes it."""
        data = dict(self.cleaned_data)
        data.pop("jurisdiction", None)
        if not data.get("photo"):
            data.pop("photo", None)
        return data


class IdentifyOwnerForm(forms.Form):
    """Link the registry's animal to a case (the owner is known)."""

    animal = forms.ModelChoiceField(
        queryset=Animal.objects.none(),
        label=gettext_lazy("The registry's animal"),
        widget=forms.RadioSelect,
    )

    def __init__(self, *args, case, hits=(), **kwargs):
        super().__init__(*args, **kwargs)
        scope = Animal.objects.filter(jurisdiction_id=case.jurisdiction_id)
        self.fields["animal"].queryset = scope
        self.fields["animal"].widget.choices = [
            (a.pk, animal_choice_label(a)) for a in _offered(self, scope, hits)
        ]


def _offered(form, scope, hits) -> list[Animal]:
    """The search's animals, and the one already picked (kept across a new search or an
    error), never the whole registry."""
    offered = [a for hit in hits for a in hit.animals]
    picked = form.data.get("animal") if form.is_bound else None
    # A primary key has at most 19 digits; a longer "number" is bad input, not a lookup.
    if (
        picked
        and str(picked).isdigit()
        and len(str(picked)) <= 19
        and int(picked) not in {a.pk for a in offered}
    ):
        chosen = scope.select_related("owner").filter(pk=int(picked)).first()
        if chosen is not None:
            offered.insert(0, chosen)
    return offered
