"""The range of dates a person may type: the one place that bounds them.

Every date and date-time field of every form is one of the fields below, with a *kind*
that says which range makes sense for it:

- ``past``: something that happened (a vaccination, a death, a notice served, a
  decision): not before ``EARLIEST``, not after today;
- ``birth``: a date of birth: the same range, said as a birth date;
- ``any``: a day that may lie ahead (a due date, an expiry, a hearing, the start of a
  report or of an amendment): not before ``EARLIEST``, not after ``LATEST``.

The limits are not ordinance numbers (no city's ordinance sets them): they are the range
of records this software keeps, far inside what Python and the database can count with,
so no deadline counted from a typed date can run past ``date.max`` (a 500 before). They
show in the page too, as the ``min``/``max`` of the browser's date picker; the server
checks them whatever the browser sends, and says so next to the field.

``tests/base/test_dates.py`` imports every form of the project and fails on a date field
that is not bounded here, so a new form cannot forget.
"""

from datetime import date, datetime

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

# No record this office keeps (a birth, a vaccination, a notice) is older than this.
EARLIEST = date(1970, 1, 1)
# No term, due date or hearing is later than this; deadlines counted from it stay far
# inside date.max (9999-12-31).
LATEST = date(2100, 12, 31)

PAST, BIRTH, ANY = "past", "birth", "any"
KINDS = (PAST, BIRTH, ANY)
MESSAGES = {
    PAST: _("Enter a date between %(earliest)s and today."),
    BIRTH: _("Enter a date of birth between %(earliest)s and today."),
    ANY: _("Enter a date between %(earliest)s and %(latest)s."),
}
# A date after today in a field of something that happened says so first.
FUTURE = {
    PAST: _("The date cannot be in the future. Enter a date between %(earliest)s and today."),
    BIRTH: _(
        "The date of birth cannot be in the future. Enter a date of birth between "
        "%(earliest)s and today."
    ),
}


def bounds(kind: str, *, today: date | None = None) -> tuple[date, date]:
    """The first and last date a field of this kind accepts (``today`` read once)."""
    if kind not in KINDS:
        raise ValueError(f"{kind!r} is not a kind of date ({', '.join(KINDS)}).")
    if kind == ANY:
        return EARLIEST, LATEST
    return EARLIEST, today or timezone.localdate()


def out_of_range_message(kind: str, *, future: bool = False) -> str:
    message = FUTURE[kind] if future and kind in FUTURE else MESSAGES[kind]
    return message % {
        "earliest": date_format(EARLIEST),
        "latest": date_format(LATEST),
    }


class BoundedMixin:
    """A date field with a kind: checks the range, and shows it as the input's min/max.

    The widget's min/max are set again each time a form is made (the form deep-copies its
    fields), so a page served days after the server started still shows today."""

    kind = ANY

    def __init__(self, *args, kind: str | None = None, **kwargs):
        self.kind = kind or self.kind
        bounds(self.kind)  # an unknown kind fails when the form is defined
        super().__init__(*args, **kwargs)

    def html_bounds(self, widget) -> dict:
        input_type = widget.attrs.get("type") or getattr(widget, "input_type", "")
        if input_type not in ("date", "datetime-local"):
            return {}
        low, high = bounds(self.kind)
        if input_type == "date":
            return {"min": low.isoformat(), "max": high.isoformat()}
        return {"min": f"{low.isoformat()}T00:00", "max": f"{high.isoformat()}T23:59"}

    def widget_attrs(self, widget):
        return {**super().widget_attrs(widget), **self.html_bounds(widget)}

    def __deepcopy__(self, memo):
        result = super().__deepcopy__(memo)
        result.widget.attrs.update(result.html_bounds(result.widget))
        return result

    def validate(self, value):
        super().validate(value)
        if value in self.empty_values:
            return
        low, high = bounds(self.kind)
        day = self.day_of(value)
        if day is None or not low <= day <= high:
            future = day is not None and day > high
            raise ValidationError(
                out_of_range_message(self.kind, future=future), code="date_out_of_range"
            )

    def day_of(self, value) -> date | None:
        return value


class DateInput(forms.DateInput):
    """The browser's date picker, sending and reading ISO dates."""

    input_type = "date"

    def __init__(self, attrs=None, format=None):  # noqa: A002 (Django's argument name)
        super().__init__(attrs=attrs, format=format or "%Y-%m-%d")


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, attrs=None, format=None):  # noqa: A002
        super().__init__(attrs=attrs, format=format or "%Y-%m-%dT%H:%M")


class DateField(BoundedMixin, forms.DateField):
    widget = DateInput


class DateTimeField(BoundedMixin, forms.DateTimeField):
    widget = DateTimeInput

    def day_of(self, value: datetime) -> date | None:
        try:  # a typed 9999-12-31 23:59 in Chicago is already past datetime.max in UTC
            return timezone.localtime(value).date() if timezone.is_aware(value) else value.date()
        except (OverflowError, ValueError):
            return None


class SplitDateTimeField(BoundedMixin, forms.SplitDateTimeField):
    """Django admin's date and time boxes."""

    day_of = DateTimeField.day_of


class PastDateField(DateField):
    kind = PAST


class BirthDateField(DateField):
    kind = BIRTH


class PastDateTimeField(DateTimeField):
    kind = PAST


def bound_admin_dates(site) -> None:
    """Every Django admin form on ``site`` bounds its dates as the app's forms do (any
    kind: an administrator enters amendments and closed days ahead). Run once the admins
    are registered, as ``base.admin_scoping.lock_unscoped_admins`` is."""
    for model_admin in site._registry.values():
        overrides = model_admin.formfield_overrides
        overrides.setdefault(models.DateField, {})["form_class"] = DateField
        overrides.setdefault(models.DateTimeField, {})["form_class"] = SplitDateTimeField
