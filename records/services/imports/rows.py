"""What every kind of import row shares: its issues, the records it means (``Part``),
its result, and the counter's forms as an import uses them.

A row is checked whole before it writes anything: every part through the same form the
counter uses (its words, its bounded dates, ZIP, phone), and the lookups that decide
created / updated / matched. A row with an error writes nothing; a row whose owner or
animal could be one of several records is flagged for a clerk (a DUPLICATE issue) and
skipped, never guessed. The kinds of row: ``sheet_rows`` (a spreadsheet),
``export_rows`` (this system's export), ``kennel_rows`` (kennel licenses).
"""

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from licensing.forms.registry import VaccinationForm
from records.models import ImportAction, ImportIssue

ERROR, DUPLICATE = ImportIssue.Kind.ERROR, ImportIssue.Kind.DUPLICATE
NOT_IMPORTED = ImportIssue.Kind.SKIPPED
NOTE = ImportIssue.Kind.NOTE  # imported, with something for a clerk to see to
CREATED, UPDATED, MATCHED = ImportAction.CREATED, ImportAction.UPDATED, ImportAction.MATCHED
SKIPPED = "skipped"
# What a sheet fills in on an owner it matched by name and address (never imported from
# this source before) when the city's record lacks it; nothing is overwritten.
FILLED_OWNER_FIELDS = ("unit", "phone", "email")


@dataclass
class Issue:
    field: str
    message: str
    kind: str = ERROR


@dataclass
class Part:
    """One record a row means: the form checked, the record it is (or None: new)."""

    name: str
    key: str
    form: object = None
    instance: object = None
    action: str = CREATED
    extra: dict = field(default_factory=dict)


@dataclass
class RowResult:
    row_number: int
    status: str  # created, updated, matched, skipped, error
    actions: dict[str, str] = field(default_factory=dict)
    issues: list[Issue] = field(default_factory=list)
    summary: str = ""


def blocking(issues: list[Issue]) -> list[Issue]:
    """The issues that keep a row out (all but notes)."""
    return [i for i in issues if i.kind != NOTE]


def row_status(actions: dict[str, str], issues: list[Issue]) -> str:
    if any(i.kind == ERROR for i in issues):
        return "error"
    if blocking(issues) or not actions:
        return SKIPPED
    for action in (CREATED, UPDATED, MATCHED):
        if action in actions.values():
            return action
    return SKIPPED


def form_issues(form, prefix: str = "") -> list[Issue]:
    """A form's errors as the row's issues, each with the field's label, in its words."""
    found = []
    for name, errors in form.errors.items():
        label = form.fields[name].label if name in form.fields else ""
        for error in errors:
            text = f"{label}: {error}" if label else str(error)
            found.append(Issue(prefix + name if name != "__all__" else prefix.rstrip("."), text))
    return found


class ImportVaccinationForm(VaccinationForm):
    """The counter's certificate form (its words, its bounded dates), except that an old
    system's record may lack the veterinarian's license number: the certificate is history
    and is imported without it, with a note for a clerk (``vet_license_note``)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["veterinarian_license"].required = False


def vet_license_note(form) -> list[Issue]:
    if form.cleaned_data.get("veterinarian_license"):
        return []
    return [
        Issue(
            "veterinarian_license",
            _(
                "Veterinarian license number: not in the old records. The certificate is "
                "imported without it; a clerk should add it from the certificate."
            ),
            NOTE,
        )
    ]
