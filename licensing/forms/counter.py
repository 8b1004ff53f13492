"""Counter forms: the shape of the input only; the rules live in licensing.services."""

from django import forms
from django.utils.translation import gettext_lazy as _

from base import dates
from base.confirm import ConfirmStep
from licensing.forms.registry import VaccinationForm
from licensing.forms.species import add_kind_field
from licensing.forms.tendered import CashTendered
from licensing.models import Animal, ExemptionKind, Owner, PaymentMethod
from licensing.services.application_rules import require_application_fields

DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class JurisdictionChoiceMixin:
    """A city select only for staff who serve more than one (architecture.md)."""

    def add_jurisdiction(self, user):
        cities = user.served_jurisdictions()
        if len(cities) > 1:
            self.fields["jurisdiction"] = forms.ModelChoiceField(
                queryset=cities, label=_("City"), empty_label=None
            )
        self.single_city = cities[0] if len(cities) == 1 else None

    def chosen_jurisdiction(self):
        return self.cleaned_data.get("jurisdiction") or self.single_city


class OwnerSearchForm(forms.Form):
    q = forms.CharField(label=_("Owner name, address or phone"), max_length=100, required=False)


class CounterOwnerForm(JurisdictionChoiceMixin, forms.ModelForm):
    class Meta:
        model = Owner
        fields = [
            "first_name",
            "last_name",
            "address_line",
            "unit",
            "city",
            "postal_code",
            "phone",
            "email",
            "is_resident",
        ]

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["first_name"].required = True
        self.fields["last_name"].required = True
        self.add_jurisdiction(user)


class CounterAnimalForm(forms.ModelForm):
    """The counter's short animal form; the date rules (not in the future, acquired after
    birth) are applied by ``licensing.services.registry.animal_register``."""

    class Meta:
        model = Animal
        fields = [
            "species",
            "name",
            "breed",
            "color",
            "sex",
            "sterilized",
            "date_of_birth",
            "dob_is_estimate",
            "acquired_on",
        ]
        widgets = {"date_of_birth": DATE, "acquired_on": DATE}
        field_classes = {"date_of_birth": dates.BirthDateField, "acquired_on": dates.PastDateField}

    def __init__(self, *args, jurisdiction, on, **kwargs):
        """``jurisdiction``: the owner's city, whose application fields (LIC-04) are
        required here; the others stay optional."""
        super().__init__(*args, **kwargs)
        require_application_fields(self, jurisdiction, on=on)
        add_kind_field(self, jurisdiction)  # Subd. 1(R): beside the species


class CounterVaccinationForm(VaccinationForm):
    """The registry's certificate form with the counter's shorter field list: the same
    upload type and size checks (``VaccinationForm.clean_certificate``); the date and
    veterinarian rules are applied by ``licensing.services.registry.vaccination_record``."""

    class Meta(VaccinationForm.Meta):
        fields = [
            "vaccinated_on",
            "duration_years",
            "veterinarian_name",
            "veterinarian_license",
            "clinic_name",
            "rabies_tag_number",
            "product",
            "lot_number",
            "certificate",
        ]


class PaymentForm(forms.Form):
    method = forms.ChoiceField(label=_("Payment method"), choices=PaymentMethod.choices)
    reference = forms.CharField(
        label=_("Check number or card last 4 digits"), max_length=40, required=False
    )
    tag_number = forms.IntegerField(
        label=_("Tag number in hand"),
        required=False,
        min_value=1,
        help_text=_("Leave empty to issue the next free tag of the year's stock."),
    )

    def clean(self):
        data = super().clean()
        if data.get("method") in (PaymentMethod.CHECK, PaymentMethod.CARD) and not data.get(
            "reference"
        ):
            self.add_error("reference", _("Enter the check number or the card's last 4 digits."))
        return data


class CashPaymentForm(PaymentForm, CashTendered):
    """A counter payment that records the cash handed over."""

    field_order = ["method", "reference", "amount_tendered", "tag_number"]


class SubjectDateForm(forms.Form):
    became_subject_on = dates.PastDateField(
        label=_("Became subject to licensing on"),
        required=False,
        widget=DATE,
        help_text=_(
            "Acquired, moved into the city or passed the license age, whichever is "
            "later. Leave empty to compute it from the record."
        ),
    )


class IssueForm(CashPaymentForm, SubjectDateForm):
    """Payment, tag and, once next-term sales are open, the clerk's choice of term (the
    terms offered come from ``licensing.services.terms``; the service re-checks it)."""

    def __init__(self, *args, terms=None, **kwargs):
        super().__init__(*args, **kwargs)
        add_term_choice(self, terms)


def add_term_choice(form, terms) -> None:
    """Once next-term sales are open, the choice of term (its year) as the first field;
    the same on the counter and at a clinic selling on consignment."""
    if terms is not None and len(terms.offered) > 1:
        form.fields["term_year"] = forms.TypedChoiceField(
            label=_("License term"),
            coerce=int,
            choices=[(t.year, terms.explain(t)) for t in terms.offered],
            initial=terms.default.year,
            widget=forms.RadioSelect,
        )
        form.order_fields(["term_year"])


MAX_TAG_NUMBER = 999_999_999


class TagStockForm(JurisdictionChoiceMixin, forms.Form):
    year = forms.IntegerField(label=_("Year stamped on the tags"), min_value=2000, max_value=2100)
    # Nine digits: what a metal tag carries and the tag number column holds (LIC-08); a
    # larger number was a database error (a 500), not a message.
    first_number = forms.IntegerField(
        label=_("First tag number"), min_value=1, max_value=MAX_TAG_NUMBER
    )
    last_number = forms.IntegerField(
        label=_("Last tag number"), min_value=1, max_value=MAX_TAG_NUMBER
    )
    received_on = dates.PastDateField(label=_("Received on"), widget=DATE)
    vendor = forms.CharField(label=_("Vendor"), max_length=120, required=False)

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_jurisdiction(user)

    def clean(self):
        data = super().clean()
        first, last = data.get("first_number"), data.get("last_number")
        if first and last and last < first:
            self.add_error("last_number", _("The last number must not be below the first."))
        return data


class OwnerPickForm(forms.Form):
    """The new owner, chosen among search results (``selectors.owner_choices``); any owner
    of the city validates, only the results are offered (no list of every owner)."""

    new_owner = forms.ModelChoiceField(
        queryset=Owner.objects.none(),
        label=_("New owner"),
        widget=forms.RadioSelect,
        empty_label=None,
        error_messages={
            "required": _("Find the new owner and choose them, or register a new owner.")
        },
    )

    def __init__(self, *args, jurisdiction, exclude_owner, candidates=(), **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["new_owner"]
        field.queryset = Owner.objects.filter(jurisdiction=jurisdiction).exclude(
            pk=exclude_owner.pk
        )
        field.widget.choices = [(o.pk, f"{o.name}, {o.address}") for o in candidates]
        if len(candidates) == 1 and not self.is_bound:
            self.initial.setdefault("new_owner", candidates[0].pk)


class TransferForm(OwnerPickForm, CashPaymentForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["tag_number"]


class DuplicateTagForm(CashPaymentForm):
    pass


class AddressChangeForm(forms.Form):
    within_city = forms.TypedChoiceField(
        label=_("Where to"),
        coerce=lambda v: v == "yes",
        choices=[
            ("yes", _("A new address within the city")),
            ("no", _("Out of the city (closes the license)")),
        ],
    )
    moved_on = dates.PastDateField(label=_("Date of the move"), widget=DATE)
    reported_on = dates.PastDateField(label=_("Date reported"), widget=DATE)
    address_line = forms.CharField(label=_("New street address"), max_length=160, required=False)
    unit = forms.CharField(label=_("Apartment or unit"), max_length=40, required=False)
    city = forms.CharField(label=_("City"), max_length=80, required=False)
    postal_code = forms.CharField(label=_("ZIP code"), max_length=10, required=False)

    def clean(self):
        data = super().clean()
        if data.get("within_city") and not data.get("address_line"):
            self.add_error("address_line", _("Enter the new street address."))
        if (
            data.get("moved_on")
            and data.get("reported_on")
            and data["reported_on"] < data["moved_on"]
        ):
            self.add_error("reported_on", _("A move is reported on or after the day of the move."))
        return data


class CloseForm(ConfirmStep):
    reason = forms.ChoiceField(
        label=_("Reason"),
        choices=[("deceased", _("The animal died")), ("moved_away", _("The animal moved away"))],
    )
    on = dates.PastDateField(label=_("Date"), widget=DATE)


class VoidForm(ConfirmStep):
    reason = forms.CharField(label=_("Reason for the void"), max_length=300)


class ExemptionForm(forms.Form):
    kind = forms.ChoiceField(label=_("Exemption"), choices=ExemptionKind.choices)
    starts_on = dates.DateField(label=_("From"), widget=DATE)
    ends_on = dates.DateField(label=_("Until"), widget=DATE, required=False)
    evidence = forms.CharField(
        label=_("Evidence"),
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Arrival date, show name and dates, or attestation."),
    )


class CloseOutDayForm(JurisdictionChoiceMixin, forms.Form):
    """The day (and city, for staff of several) whose receipts a clerk closes out."""

    day = dates.PastDateField(label=_("Business day"), widget=DATE)

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_jurisdiction(user)
