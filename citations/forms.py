"""Citation forms: the shape of the input only. Codes, sections, the class proposed and
the checks on dates and parties are the services' (citations/services/)."""

from datetime import timedelta

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from base import dates
from base.access import in_user_cities
from base.forms import DateInput
from citations.models import ChargeClass, Citation, CitationStatus
from citations.services.issuance import Charge, Defendant
from citations.services.violations import violation_codes
from licensing.models import Animal
from ordinance.models import Jurisdiction
from ordinance.refusals import Refused
from ordinance.rules import RuleUnavailable

# A screen setting, not an ordinance value: how far back an officer may enter the time
# of a violation, so a mistyped year is caught at once.
VIOLATED_AT_MAX_DAYS_BACK = 366


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%dT%H:%M", **kwargs)


def _field(name, **kwargs):
    return Citation._meta.get_field(name).formfield(**kwargs)


def animal_label(animal: Animal) -> str:
    parts = [animal.name, animal.get_species_display(), animal.breed]
    label = ", ".join(p for p in parts if p)
    return f"{label} · {_('owner')} {animal.owner.name}, {animal.owner.address}"


def codes_by_city(cities, *, on) -> dict:
    """Each city's violation codes (a city whose profile has none offers none)."""
    found = {}
    for city in cities:
        try:
            found[city.pk] = violation_codes(city, on=on)
        except (RuleUnavailable, Refused):
            found[city.pk] = []
    return found


class IssueForm(forms.Form):
    """Issue a citation (REC-14, C10): violation, animal and owner, when and where,
    court and appearance date, and the class the officer confirms (RES-06)."""

    violation_code = forms.ChoiceField(label=gettext_lazy("Violation"))
    animal = forms.ModelChoiceField(
        queryset=Animal.objects.none(),
        label=gettext_lazy("The animal (its owner is the defendant)"),
        widget=forms.RadioSelect,
    )
    violated_at = dates.PastDateTimeField(
        label=gettext_lazy("Date and time of the violation"),
        widget=DateTimeInput(),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S"],
    )
    location = _field("location")
    court = _field("court")
    appearance_on = dates.DateField(label=gettext_lazy("Appearance date"), widget=DateInput())
    charge_class = forms.ChoiceField(
        label=gettext_lazy("Charge class (the officer confirms)"),
        choices=[("", gettext_lazy("Choose the class")), *ChargeClass.choices],
    )
    class_reason = _field("class_reason", widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, user, hits=(), **kwargs):
        super().__init__(*args, **kwargs)
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
        self.codes = codes_by_city(cities, on=today)
        choices = [("", _("Choose the violation"))]
        if len(cities) > 1:
            choices += [
                (city.short_name, [(c.code, str(c)) for c in self.codes[city.pk]])
                for city in cities
            ]
        elif cities:
            choices += [(c.code, str(c)) for c in self.codes[cities[0].pk]]
        self.fields["violation_code"].choices = choices
        self.fields["violated_at"].initial = timezone.localtime().replace(second=0, microsecond=0)
        scope = in_user_cities(Animal.objects.all(), user)
        self.fields["animal"].queryset = scope
        self.fields["animal"].widget.choices = [
            (a.pk, animal_label(a)) for a in _offered(self, scope, hits)
        ]

    def clean_violated_at(self):
        value = self.cleaned_data["violated_at"]
        if value < timezone.now() - timedelta(days=VIOLATED_AT_MAX_DAYS_BACK):
            raise ValidationError(
                _("Enter a time within the last %(days)s days; check the year.")
                % {"days": VIOLATED_AT_MAX_DAYS_BACK}
            )
        return value

    def clean(self):
        data = super().clean()
        if len(self.cities) == 1:
            data["jurisdiction"] = self.cities[0]
        city, code, animal = (
            data.get("jurisdiction"),
            data.get("violation_code"),
            data.get("animal"),
        )
        if city is not None and code and code not in {c.code for c in self.codes[city.pk]}:
            self.add_error(
                "violation_code",
                _("%(city)s's ordinance has no such violation code.") % {"city": city.short_name},
            )
        if city is not None and animal is not None and animal.jurisdiction_id != city.pk:
            self.add_error(
                "animal", _("The animal is not in %(city)s's registry.") % {"city": city.short_name}
            )
        return data

    def service_kwargs(self) -> dict:
        data = self.cleaned_data
        return {
            "jurisdiction": data["jurisdiction"],
            "charge": Charge(
                violation=data["violation_code"],
                violated_at=data["violated_at"],
                location=data["location"],
                court=data["court"],
                appearance_on=data["appearance_on"],
                charge_class=data["charge_class"],
                class_reason=data.get("class_reason", ""),
            ),
            "defendant": Defendant(animal=data["animal"]),
        }


def _offered(form, scope, hits) -> list[Animal]:
    """The search's animals and the one already picked (kept across a search or an
    error, or named in the address), never the whole registry."""
    offered = [a for hit in hits for a in hit.animals]
    picked = form.data.get("animal") if form.is_bound else form.initial.get("animal")
    picked = str(picked or "")
    if picked.isdigit() and len(picked) <= 19 and int(picked) not in {a.pk for a in offered}:
        chosen = scope.select_related("owner").filter(pk=int(picked)).first()
        if chosen is not None:
            offered.insert(0, chosen)
    return offered


class StatusForm(forms.Form):
    """What staff record after issue: the new status, the day it happened, a note."""

    status = forms.ChoiceField(label=gettext_lazy("New status"))
    on = dates.PastDateField(label=gettext_lazy("On"), widget=DateInput())
    note = _field("status_note")

    def __init__(self, *args, citation, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["status"].choices = [
            (s, CitationStatus(s).label) for s in citation.next_statuses()
        ]
        self.fields["on"].initial = timezone.localdate()
