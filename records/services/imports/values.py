"""A source's cell text turned into what our forms take.

Old systems write dates four ways (ISO, 3/4/2021, 4-Mar-2021, an Excel serial day), a
name in one column ("Doe, Jane" or "Jane Doe"), a phone with its extension ("651-555-0147
x12"), "M"/"Neutered male" for sex. Each function here returns our value, or raises
ValueError with the sentence a person reads next to the row.
"""

import re
from datetime import date, datetime, timedelta

from django.utils.translation import gettext as _

MDY, DMY = "mdy", "dmy"
LAST_FIRST, FIRST_LAST = "last_first", "first_last"
EXCEL_EPOCH = date(1899, 12, 30)  # Excel's day 0 (its 1900 leap-year bug included)
# Excel serial days that are dates this office keeps (1970 to 2100): anything else in a
# date column is a typing error, not a day.
EXCEL_SERIALS = (25569, 73415)
MONTHS = {
    m: i + 1
    for i, m in enumerate(
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    )
}
_ISO = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?")
_SLASH = re.compile(r"(\d{1,2})[/.](\d{1,2})[/.](\d{2}|\d{4})")
_MON = re.compile(r"(\d{1,2})[- ]([A-Za-z]{3})[A-Za-z]*\.?[- ,]+(\d{2}|\d{4})")
_MON_FIRST = re.compile(r"([A-Za-z]{3})[A-Za-z]*\.? (\d{1,2}),? (\d{4})")


def _year(text: str) -> int:
    year = int(text)
    if len(text) == 2:  # two-digit years: 70-99 are 1900s, the rest 2000s
        year += 1900 if year >= 70 else 2000
    return year


def parse_date(text: str, *, order: str = MDY) -> date | None:
    """A date from any of the usual shapes; None for an empty cell. ``order``: whether a
    slashed date is month first (3/4/2021 = March 4) or day first (April 3)."""
    text = (text or "").strip()
    if not text:
        return None
    try:
        if m := _ISO.fullmatch(text):
            return date(int(m[1]), int(m[2]), int(m[3]))
        if m := _SLASH.fullmatch(text):
            first, second, year = int(m[1]), int(m[2]), _year(m[3])
            month, day = (first, second) if order == MDY else (second, first)
            return date(year, month, day)
        if m := _MON.fullmatch(text):
            return date(_year(m[3]), MONTHS[m[2].lower()], int(m[1]))
        if m := _MON_FIRST.fullmatch(text):
            return date(int(m[3]), MONTHS[m[1].lower()], int(m[2]))
        if re.fullmatch(r"\d{5}(\.\d+)?", text):
            serial = int(float(text))
            if EXCEL_SERIALS[0] <= serial <= EXCEL_SERIALS[1]:
                return EXCEL_EPOCH + timedelta(days=serial)
    except (ValueError, KeyError):
        pass
    raise ValueError(
        _(
            "“%(value)s” is not a date this import reads (such as 2021-03-04, 3/4/2021 "
            "or 4-Mar-2021)."
        )
        % {"value": text[:40]}
    )


def parse_datetime_or_date(text: str, *, order: str = MDY) -> date | None:
    text = (text or "").strip()
    if "T" in text and _ISO.fullmatch(text):
        return datetime.fromisoformat(text).date()
    return parse_date(text, order=order)


def split_name(text: str, *, order: str = LAST_FIRST) -> tuple[str, str]:
    """(first, last) from one name column. A comma always means "Last, First"; without
    one, ``order`` says which word comes first ("Jane Q. Doe" -> Jane Q., Doe)."""
    text = " ".join((text or "").split())
    if not text:
        return "", ""
    if "," in text:
        last, first = (p.strip() for p in text.split(",", 1))
        return first, last
    words = text.split(" ")
    if len(words) == 1:
        return "", words[0]
    if order == LAST_FIRST:
        return " ".join(words[1:]), words[0]
    return " ".join(words[:-1]), words[-1]


_EXT = re.compile(r"\s*(?:x|ext\.?|extension|#)\s*(\d{1,6})\s*$", re.IGNORECASE)


def split_phone(text: str) -> tuple[str, str]:
    """(number, extension): "(651) 555-0147 ext. 12" -> ("651-555-0147", "12"). Ten
    digits (or eleven starting with 1) are written 651-555-0147; anything else is left
    as typed for the form's check."""
    text = " ".join((text or "").split())
    extension = ""
    if m := _EXT.search(text):
        extension, text = m[1], text[: m.start()]
    digits = re.sub(r"\D", "", text)
    if len(digits) == 11 and digits.startswith("1"):
        digits = digits[1:]
    if len(digits) == 10:
        text = f"{digits[:3]}-{digits[3:6]}-{digits[6:]}"
    return text, extension


def join_phone(number: str, extension: str) -> str:
    return f"{number} ext. {extension}" if extension else number


SPECIES_WORDS = {
    "dog": "dog",
    "dogs": "dog",
    "canine": "dog",
    "k9": "dog",
    "d": "dog",
    "cat": "cat",
    "cats": "cat",
    "feline": "cat",
    "c": "cat",
    "ferret": "ferret",
    "f": "ferret",
    "other": "other",
}


def parse_species(text: str) -> str:
    key = re.sub(r"[^a-z0-9]", "", (text or "").lower())
    if not key:
        raise ValueError(_("Enter the species (dog, cat, ferret or other)."))
    if key in SPECIES_WORDS:
        return SPECIES_WORDS[key]
    raise ValueError(
        _("“%(value)s” is not a species this system registers (dog, cat, ferret or other).")
        % {"value": text[:40]}
    )


def parse_sex(text: str) -> tuple[str, bool | None]:
    """(sex, sterilized or None when the cell does not say): "MN" -> male, neutered."""
    key = re.sub(r"[^a-z]", "", (text or "").lower())
    sterilized = None
    if key in ("mn", "fs", "neuteredmale", "spayedfemale", "neutered", "spayed", "n", "s"):
        sterilized = True
    if key in ("m", "male", "mn", "neuteredmale", "neutered", "n", "intactmale"):
        return "male", sterilized
    if key in ("f", "female", "fs", "spayedfemale", "spayed", "s", "intactfemale"):
        return "female", sterilized
    if key in ("", "u", "unknown", "unk"):
        return "unknown", sterilized
    raise ValueError(
        _("“%(value)s” is not a sex (male, female or unknown).") % {"value": text[:20]}
    )


def parse_bool(text: str) -> bool | None:
    key = (text or "").strip().lower()
    if key in ("y", "yes", "true", "1", "x", "t"):
        return True
    if key in ("n", "no", "false", "0", "f"):
        return False
    if not key:
        return None
    raise ValueError(_("“%(value)s” is not yes or no.") % {"value": text[:20]})


def parse_int(text: str) -> int | None:
    text = (text or "").strip()
    if not text:
        return None
    if not re.fullmatch(r"\d{1,9}", text):
        raise ValueError(_("“%(value)s” is not a whole number.") % {"value": text[:20]})
    return int(text)


_SUFFIXES = {
    "street": "st",
    "avenue": "ave",
    "av": "ave",
    "road": "rd",
    "drive": "dr",
    "lane": "ln",
    "court": "ct",
    "boulevard": "blvd",
    "place": "pl",
    "circle": "cir",
    "north": "n",
    "south": "s",
    "east": "e",
    "west": "w",
    "apartment": "apt",
}


def normalise(text: str) -> str:
    """A name or street address as matching compares it: lower case, no punctuation,
    the usual street words abbreviated ("123 N. Main Street" == "123 north main st")."""
    words = re.sub(r"[^a-z0-9 ]", " ", (text or "").lower()).split()
    return " ".join(_SUFFIXES.get(w, w) for w in words)
