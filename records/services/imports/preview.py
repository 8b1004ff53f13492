"""The first rows of a file as they will land: parsed by the mapping,
without the database (the page stays within its query budget); the dry run checks the
rest against the records."""

from itertools import islice

from django.utils.translation import gettext as _

from records.models import ImportLayout

from . import reading
from .fields import date_keys_for, fields_for, labels_for
from .values import (
    join_phone,
    parse_bool,
    parse_date,
    parse_sex,
    parse_species,
    split_name,
    split_phone,
)

PREVIEW_ROWS = 5
SHOWN = [
    ("first_name", _("First name")),
    ("last_name", _("Last name")),
    ("address_line", _("Street address")),
    ("postal_code", _("ZIP code")),
    ("phone", _("Phone")),
    ("animal_name", _("Animal")),
    ("species", _("Species")),
    ("sex", _("Sex")),
    ("date_of_birth", _("Date of birth")),
    ("license_number", _("License")),
    ("expires_on", _("Expires")),
    ("issued_on", _("Issued")),
    ("tag_number", _("Tag")),
    ("vaccinated_on", _("Rabies vaccination")),
]
KENNEL_SHOWN = [
    ("first_name", _("First name")),
    ("last_name", _("Last name")),
    ("address_line", _("Street address")),
    ("phone", _("Phone")),
    ("premises_address_line", _("Kennel premises")),
    ("license_number", _("Kennel license")),
    ("status", _("Status")),
    ("dog_count", _("Dogs")),
    ("cat_count", _("Cats")),
    ("applied_on", _("Applied")),
    ("issued_on", _("Issued")),
    ("expires_on", _("Expires")),
]


def shown_for(layout: str) -> list[tuple]:
    return KENNEL_SHOWN if layout == ImportLayout.KENNEL_SHEET else SHOWN


def headers_of(batch) -> list[str]:
    with batch.file.open("rb") as handle:
        return reading.read_headers(handle, reading.sniff_kind(handle))


def _landing(raw: dict, mapping: dict, layout: str = ImportLayout.SHEET) -> tuple[dict, list]:
    columns = mapping.get("columns", {})
    keys, labels = {k for k, _l, _p in fields_for(layout)}, labels_for(layout)
    v = {k: (raw.get(c) or "").strip() for k, c in columns.items() if c and k in keys}
    out, problems = dict(v), []

    def attempt(key, fn):
        try:
            return fn()
        except ValueError as error:
            problems.append(f"{labels[key]}: {error}")
            return None

    if v.get("owner_name") and not (v.get("first_name") or v.get("last_name")):
        out["first_name"], out["last_name"] = split_name(
            v["owner_name"], order=mapping.get("name_order", "last_first")
        )
    if v.get("phone"):
        out["phone"] = join_phone(*split_phone(v["phone"]))
    if v.get("species"):
        out["species"] = attempt("species", lambda: parse_species(v["species"]))
    if v.get("sex"):
        sex = attempt("sex", lambda: parse_sex(v["sex"]))
        if sex:
            out["sex"] = sex[0] + (_(", spayed or neutered") if sex[1] else "")
    if v.get("sterilized"):
        attempt("sterilized", lambda: parse_bool(v["sterilized"]))
    for key in sorted(date_keys_for(layout)):
        if v.get(key):
            day = attempt(
                key, lambda k=key: parse_date(v[k], order=mapping.get("date_order", "mdy"))
            )
            out[key] = day.isoformat() if day else ""
    return out, problems


def preview(batch, rows: int = PREVIEW_ROWS) -> dict:
    """{"columns": [(key, label)], "rows": [{"values": [...], "problems": [...]}]}"""
    shown, columns = [], shown_for(batch.layout)
    with batch.file.open("rb") as handle:
        kind = reading.sniff_kind(handle)
        for number, raw in enumerate(islice(reading.iter_rows(handle, kind), rows), start=2):
            values, problems = _landing(raw, batch.mapping, batch.layout)
            shown.append(
                {
                    "number": number,
                    "values": [values.get(key) or "" for key, _label in columns],
                    "problems": problems,
                }
            )
    return {"columns": [label for _key, label in columns], "rows": shown}
