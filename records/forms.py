from django import forms
from django.utils.translation import gettext_lazy as _

from ordinance.models import Jurisdiction


class ExportForm(forms.Form):
    """Which of the administrator's cities to export. With one city there is no choice
    to make (architecture.md: no trace of other cities), so the field is hidden."""

    cities = forms.ModelMultipleChoiceField(
        label=_("Cities"),
        queryset=Jurisdiction.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Choose at least one city to export.")},
    )

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        served = user.served_list
        field = self.fields["cities"]
        field.queryset = Jurisdiction.objects.filter(pk__in=[c.pk for c in served])
        field.initial = [c.pk for c in served]
        if len(served) == 1:
            field.widget = forms.MultipleHiddenInput()


# --- Import ----------------------------------------------------------

NOT_MAPPED = ("", _("— not in the file —"))


class ImportUploadForm(forms.Form):
    """The file and where it comes from; the whole file is checked before it is kept."""

    city = forms.ModelChoiceField(label=_("City"), queryset=Jurisdiction.objects.none())
    source_name = forms.CharField(
        label=_("Source"),
        max_length=80,
        help_text=_("The old system or spreadsheet, e.g. “PetData” or “Clerk's sheet 2019”."),
    )
    layout = forms.ChoiceField(label=_("What one row of the file is"))
    file = forms.FileField(label=_("File"), help_text=_("CSV or Excel (XLSX)."))

    def __init__(self, *args, user, **kwargs):
        from .models import ImportLayout

        super().__init__(*args, **kwargs)
        served = user.served_list
        self.fields["city"].queryset = Jurisdiction.objects.filter(pk__in=[c.pk for c in served])
        if len(served) == 1:
            self.fields["city"].initial = served[0].pk
            self.fields["city"].widget = forms.HiddenInput()
        self.fields["layout"].choices = ImportLayout.choices

    def clean_source_name(self):
        value = " ".join(self.cleaned_data["source_name"].split())
        if not value:
            raise forms.ValidationError(_("Name the source."))
        return value

    def clean_file(self):
        from django.conf import settings

        from .services.imports.reading import check_file

        upload = self.cleaned_data["file"]
        self.kind = check_file(upload, max_bytes=settings.UPLOAD_MAX_BYTES)
        return upload


class MappingForm(forms.Form):
    """Our field <- the file's column, the date order and the name order."""

    def __init__(self, *args, headers: list[str], mapping: dict, layout: str = "sheet", **kwargs):
        from .services.imports.fields import DATE_ORDERS, NAME_ORDERS, fields_for

        super().__init__(*args, **kwargs)
        choices = [NOT_MAPPED, *((h, h) for h in headers)]
        columns = mapping.get("columns", {})
        for key, label, _part in fields_for(layout):
            self.fields[f"col_{key}"] = forms.ChoiceField(
                label=label, choices=choices, required=False, initial=columns.get(key, "")
            )
        self.fields["date_order"] = forms.ChoiceField(
            label=_("Dates written with slashes"),
            choices=DATE_ORDERS,
            initial=mapping.get("date_order"),
        )
        self.fields["name_order"] = forms.ChoiceField(
            label=_("A name in one column"), choices=NAME_ORDERS, initial=mapping.get("name_order")
        )

    def mapping(self) -> dict:
        data = self.cleaned_data
        columns = {
            name[4:]: value for name, value in data.items() if name.startswith("col_") and value
        }
        return {
            "columns": columns,
            "date_order": data["date_order"],
            "name_order": data["name_order"],
        }

    def clean(self):
        data = super().clean()
        used = [v for k, v in data.items() if k.startswith("col_") and v]
        twice = sorted({v for v in used if used.count(v) > 1})
        if twice:
            raise forms.ValidationError(
                _("Each column goes to one field; used twice: %(cols)s.")
                % {"cols": ", ".join(twice)}
            )
        return data


class TemplateSaveForm(forms.Form):
    template_name = forms.CharField(label=_("Save this mapping as"), max_length=80)

    def clean_template_name(self):
        value = " ".join(self.cleaned_data["template_name"].split())
        if not value:
            raise forms.ValidationError(_("Name the mapping."))
        return value
