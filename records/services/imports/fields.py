"""The fields a source's columns map to, and the built-in layouts.

``SHEET_FIELDS``: one spreadsheet row per animal, with its owner, its license and its
rabies certificate, the way a city's own sheet or an old licensing program lists them.
``KENNEL_FIELDS``: one spreadsheet row per kennel license, with its owner and premises
(``ImportLayout.KENNEL_SHEET``). ``SHEET_LAYOUTS`` are the layouts mapped in the browser.
The export layouts (``ImportLayout`` other than SHEET) read this system's own export
(README "Export"): every column is the model's column, ``id`` the source's id and
``<name>_id`` a reference to a row imported before from the same source.
"""

from django.utils.translation import gettext_lazy as _

from records.models import ImportLayout

from .values import DMY, FIRST_LAST, LAST_FIRST, MDY

OWNER, ANIMAL, LICENSE, VACCINATION = "owner", "animal", "license", "vaccination"
KENNEL, PREMISES = "kennel", "premises"

# (key, label, part)
SHEET_FIELDS = [
    ("owner_id", _("Owner's id in the old system"), OWNER),
    ("owner_name", _("Owner's name, in one column"), OWNER),
    ("first_name", _("Owner's first name"), OWNER),
    ("last_name", _("Owner's last name"), OWNER),
    ("address_line", _("Street address"), OWNER),
    ("unit", _("Apartment or unit"), OWNER),
    ("city", _("City"), OWNER),
    ("state", _("State"), OWNER),
    ("postal_code", _("ZIP code"), OWNER),
    ("phone", _("Phone"), OWNER),
    ("email", _("E-mail"), OWNER),
    ("animal_id", _("Animal's id in the old system"), ANIMAL),
    ("animal_name", _("Animal's name"), ANIMAL),
    ("species", _("Species"), ANIMAL),
    ("breed", _("Breed"), ANIMAL),
    ("color", _("Color"), ANIMAL),
    ("sex", _("Sex"), ANIMAL),
    ("sterilized", _("Spayed or neutered"), ANIMAL),
    ("date_of_birth", _("Date of birth"), ANIMAL),
    ("microchip", _("Microchip number"), ANIMAL),
    ("license_number", _("License number"), LICENSE),
    ("license_year", _("License year"), LICENSE),
    ("term_start", _("Term starts"), LICENSE),
    ("expires_on", _("License expires on"), LICENSE),
    ("issued_on", _("License issued on"), LICENSE),
    ("tag_number", _("Tag number"), LICENSE),
    ("receipt_number", _("Receipt number in the old system"), LICENSE),
    ("vaccinated_on", _("Date vaccinated against rabies"), VACCINATION),
    ("vaccination_expires", _("Rabies vaccination expires"), VACCINATION),
    ("rabies_tag_number", _("Rabies tag number"), VACCINATION),
    ("veterinarian_name", _("Veterinarian"), VACCINATION),
    ("veterinarian_license", _("Veterinarian's license number"), VACCINATION),
]
SHEET_KEYS = [key for key, _label, _part in SHEET_FIELDS]
LABELS = {key: label for key, label, _part in SHEET_FIELDS}
DATE_KEYS = {
    "date_of_birth",
    "term_start",
    "expires_on",
    "issued_on",
    "vaccinated_on",
    "vaccination_expires",
}

DATE_ORDERS = [
    (MDY, _("Month first (3/4/2021 is March 4)")),
    (DMY, _("Day first (3/4/2021 is 3 April)")),
]
NAME_ORDERS = [
    (LAST_FIRST, _("Last name first (“Doe Jane”; a comma always means “Doe, Jane”)")),
    (FIRST_LAST, _("First name first (“Jane Doe”)")),
]

# A header a source commonly uses for each field: the first guess of the mapping page.
_GUESSES = {
    "owner_id": ["owner id", "owner_id", "ownerid", "owner no", "owner number", "customer id"],
    "owner_name": ["owner", "owner name", "name", "full name", "customer"],
    "first_name": ["first name", "first", "first_name", "fname"],
    "last_name": ["last name", "last", "last_name", "lname", "surname"],
    "address_line": ["address", "street", "street address", "address_line", "address1"],
    "unit": ["unit", "apt", "apartment", "address2"],
    "city": ["city", "town"],
    "state": ["state", "st"],
    "postal_code": ["zip", "zip code", "zipcode", "postal code", "postal_code"],
    "phone": ["phone", "telephone", "phone number", "tel"],
    "email": ["email", "e-mail", "email address"],
    "animal_id": ["animal id", "animal_id", "pet id", "dog id"],
    "animal_name": ["animal name", "pet name", "dog name", "animal", "pet"],
    "species": ["species", "animal type", "type"],
    "breed": ["breed"],
    "color": ["color", "colour", "colors"],
    "sex": ["sex", "gender"],
    "sterilized": ["spayed/neutered", "altered", "fixed", "sterilized", "spayed or neutered"],
    "date_of_birth": ["dob", "birth date", "date of birth", "birthdate"],
    "microchip": ["microchip", "chip", "microchip number", "chip number"],
    "license_number": ["license", "license number", "license no", "lic no", "license #"],
    "license_year": ["year", "license year"],
    "term_start": ["term start", "term starts", "valid from"],
    "expires_on": ["expires", "expiration", "expiry", "expires on", "license expires"],
    "issued_on": ["issued", "issue date", "issued on", "date issued"],
    "tag_number": ["tag", "tag number", "tag no", "tag #", "license tag"],
    "receipt_number": ["receipt", "receipt number", "receipt no", "receipt #"],
    "vaccinated_on": ["rabies date", "vaccinated", "vaccination date", "rabies vaccinated"],
    "vaccination_expires": ["rabies expires", "rabies expiration", "vaccination expires"],
    "rabies_tag_number": ["rabies tag", "rabies tag number", "rabies tag #"],
    "veterinarian_name": ["vet", "veterinarian", "vet name", "clinic"],
    "veterinarian_license": ["vet license", "veterinarian license", "vet lic"],
}


# A kennel-license list (ImportLayout.KENNEL_SHEET): the owner as on the dog sheet (its
# words, its checks), the kennel's premises when not the owner's address, the license.
_OWNER_FIELDS = [f for f in SHEET_FIELDS if f[2] == OWNER]
KENNEL_FIELDS = [
    ("kennel_id", _("Kennel license's id in the old system"), KENNEL),
    *_OWNER_FIELDS,
    ("premises_address_line", _("Kennel premises: street address"), PREMISES),
    ("premises_unit", _("Kennel premises: unit"), PREMISES),
    ("premises_city", _("Kennel premises: city"), PREMISES),
    ("premises_postal_code", _("Kennel premises: ZIP code"), PREMISES),
    ("license_number", _("Kennel license number"), KENNEL),
    ("status", _("Kennel license status"), KENNEL),
    ("dog_count", _("Number of dogs"), KENNEL),
    ("cat_count", _("Number of cats"), KENNEL),
    ("applied_on", _("Applied on"), KENNEL),
    ("issued_on", _("Issued on"), KENNEL),
    ("expires_on", _("Expires on"), KENNEL),
    ("business_nature", _("Nature of business"), KENNEL),
    ("conditions", _("Conditions"), KENNEL),
    ("cup_reference", _("Conditional use permit reference"), KENNEL),
    ("became_subject_on", _("Became subject to kennel licensing on"), KENNEL),
]
KENNEL_KEYS = [key for key, _label, _part in KENNEL_FIELDS]
KENNEL_LABELS = {key: label for key, label, _part in KENNEL_FIELDS}
KENNEL_DATE_KEYS = {"applied_on", "issued_on", "expires_on", "became_subject_on"}
_KENNEL_GUESSES = {
    **{key: _GUESSES[key] for key, _label, _part in _OWNER_FIELDS},
    "kennel_id": ["kennel id", "kennel_id", "id", "record id", "permit id"],
    "premises_address_line": [
        "kennel address",
        "premises address",
        "premises",
        "kennel location",
        "location",
        "site address",
    ],
    "premises_unit": ["kennel unit", "premises unit"],
    "premises_city": ["kennel city", "premises city"],
    "premises_postal_code": ["kennel zip", "premises zip", "premises zip code"],
    "license_number": [
        "kennel license",
        "kennel license number",
        "license",
        "license number",
        "license no",
        "license #",
        "permit",
        "permit number",
    ],
    "status": ["status", "license status", "state of license"],
    "dog_count": ["dogs", "number of dogs", "dog count", "no of dogs", "# dogs"],
    "cat_count": ["cats", "number of cats", "cat count", "no of cats", "# cats"],
    "applied_on": ["applied", "applied on", "application date", "date applied"],
    "issued_on": ["issued", "issue date", "issued on", "date issued"],
    "expires_on": ["expires", "expiration", "expiry", "expires on", "expiration date"],
    "business_nature": ["business", "nature of business", "business type", "use"],
    "conditions": ["conditions", "condition", "restrictions"],
    "cup_reference": ["cup", "cup reference", "conditional use permit", "cup number", "cup #"],
    "became_subject_on": ["became subject on", "kennel since", "started"],
}

SHEET_LAYOUTS = (ImportLayout.SHEET, ImportLayout.KENNEL_SHEET)


def fields_for(layout: str) -> list[tuple]:
    """The fields a spreadsheet layout's columns map to: (key, label, part)."""
    return KENNEL_FIELDS if layout == ImportLayout.KENNEL_SHEET else SHEET_FIELDS


def labels_for(layout: str) -> dict:
    return KENNEL_LABELS if layout == ImportLayout.KENNEL_SHEET else LABELS


def date_keys_for(layout: str) -> set[str]:
    return KENNEL_DATE_KEYS if layout == ImportLayout.KENNEL_SHEET else DATE_KEYS


def guess_columns(headers: list[str], layout: str = ImportLayout.SHEET) -> dict[str, str]:
    """Our field -> the source header that looks like it (exact words, case aside)."""
    by_key = {" ".join(h.lower().replace("_", " ").split()): h for h in headers}
    kennel = layout == ImportLayout.KENNEL_SHEET
    keys, guesses = (KENNEL_KEYS, _KENNEL_GUESSES) if kennel else (SHEET_KEYS, _GUESSES)
    found, used = {}, set()
    for key in keys:
        for guess in guesses.get(key, []):
            header = by_key.get(guess.replace("_", " "))
            if header and header not in used:
                found[key] = header
                used.add(header)
                break
    return found


def default_mapping(layout: str, headers: list[str]) -> dict:
    """The mapping a new batch starts with: the export's own columns for an export
    layout (its preset), else the guesses."""
    if layout not in SHEET_LAYOUTS:
        return {"columns": {h: h for h in headers}, "date_order": MDY, "name_order": LAST_FIRST}
    return {
        "columns": guess_columns(headers, layout),
        "date_order": MDY,
        "name_order": LAST_FIRST,
    }


EXPORT_FILES = {
    # The export's file name -> the layout that reads it, in the order to import them.
    "licensing.owner.csv": ImportLayout.OWNERS,
    "licensing.premises.csv": ImportLayout.PREMISES,
    "licensing.animal.csv": ImportLayout.ANIMALS,
    "licensing.rabiesvaccination.csv": ImportLayout.VACCINATIONS,
    "licensing.license.csv": ImportLayout.LICENSES,
    "licensing.tag.csv": ImportLayout.TAGS,
    "licensing.kennellicense.csv": ImportLayout.KENNELS,
    "licensing.kennelanimal.csv": ImportLayout.KENNEL_ANIMALS,
}
