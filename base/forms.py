"""Form pieces every app's forms use: how a service's refusal lands on a form, the date
input, and the kinds of file an upload field takes (checked whole by ``base.uploads``)."""

from django import forms

from base.uploads import JPEG, PDF, PNG

CERTIFICATE_TYPES = (PDF, JPEG, PNG)
PHOTO_TYPES = (JPEG, PNG)


def apply_service_errors(form, refused) -> None:
    """Put a service's refusal (``ordinance.refusals.Refused``) on the bound form: each
    check next to the field it concerns, else at the top, with its section; nothing the
    person typed is lost."""
    for check in refused.checks:
        form.add_error(check.field if check.field in form.fields else None, str(check))


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%d", **kwargs)
