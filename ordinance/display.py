"""A rule's value in the words a clerk reads: "older than 6 months", "dogs", "Yes", "$25.00",
"30 days". Every page, message and document that shows a rule value asks here.

Profiles store some values as codes the software acts on (a comparison "gt", a species
"dog", an impound ground "dog_at_large", a fee "boarding_daily"); this module is the one
place that turns them into words. Rule keys and rules.md IDs stay in code and tests.
"""

import calendar as _stdlib_calendar
import re
from collections.abc import Mapping
from datetime import time
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

_UNITS = {
    "days": lambda n: ngettext("%(n)s day", "%(n)s days", n),
    "business_days": lambda n: ngettext("%(n)s business day", "%(n)s business days", n),
    "regular_business_days": lambda n: ngettext(
        "%(n)s regular business day", "%(n)s regular business days", n
    ),
    "months": lambda n: ngettext("%(n)s month", "%(n)s months", n),
    "hours": lambda n: ngettext("%(n)s hour", "%(n)s hours", n),
    "minutes": lambda n: ngettext("%(n)s minute", "%(n)s minutes", n),
    "feet": lambda n: ngettext("%(n)s foot", "%(n)s feet", n),
    "acres": lambda n: ngettext("%(n)s acre", "%(n)s acres", n),
}

# Comparison codes (``*_comparison`` values): how an age or a duration is tested.
_AGE_TESTS = {
    "gt": lambda v: _("older than %(v)s") % {"v": v},
    "gte": lambda v: _("%(v)s or older") % {"v": v},
    "lt": lambda v: _("younger than %(v)s") % {"v": v},
    "lte": lambda v: _("%(v)s or younger") % {"v": v},
}
_LENGTH_TESTS = {
    "gt": lambda v: _("longer than %(v)s") % {"v": v},
    "gte": lambda v: _("%(v)s or longer") % {"v": v},
    "lt": lambda v: _("shorter than %(v)s") % {"v": v},
    "lte": lambda v: _("%(v)s or shorter") % {"v": v},
}
_BARE_AGE_TESTS = {
    "gt": lambda: _("older than the age"),
    "gte": lambda: _("that age or older"),
    "lt": lambda: _("younger than the age"),
    "lte": lambda: _("that age or younger"),
}
_BARE_LENGTH_TESTS = {
    "gt": lambda: _("longer than the time"),
    "gte": lambda: _("that long or longer"),
    "lt": lambda: _("shorter than the time"),
    "lte": lambda: _("that long or shorter"),
}


def _code_words() -> dict[str, str]:
    """Codes profiles use in lists and text values, in words (translated on each call)."""
    return {
        # species (plural: "Species that must be licensed: dogs")
        "dog": _("dogs"),
        "cat": _("cats"),
        "ferret": _("ferrets"),
        "horse": _("horses"),
        # license exemptions (NB Sec. 6-62)
        "temporary_visitor": _("owners temporarily in the city"),
        "show": _("dogs at a show or performance"),
        "service_animal": _("service and guide animals"),
        "nonresident_confined": _("nonresidents' dogs kept confined or restrained"),
        # what a license application states
        "owner_name": _("owner's name"),
        "owner_address": _("owner's address"),
        "name": _("name"),
        "breed": _("breed"),
        "color": _("color"),
        "age": _("age"),
        "sex": _("sex"),
        # how a notice is served
        "personal": _("in person"),
        "certified": _("certified mail"),
        "mail": _("mail"),
        "posted": _("posting"),
        # anchors, gates and counting modes
        "bite_date": _("the date of the bite"),
        "veterinarian_report": _("the veterinarian's report"),
        "written_permission": _("written permission"),
        "cumulative": _("days added up, not necessarily in a row"),
        "consecutive": _("days in a row"),
    }


_CODE = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$|^[a-z]+$")


def code_words(code: str, *, profile=None, values: Mapping[str, Any] | None = None) -> str:
    """One code of a list or text value in words: an impound ground by its own label rule,
    a fee by its description, else the shared vocabulary; other text stays as written."""
    text = str(code)
    if not _CODE.match(text):
        return text
    values = values or {}
    ground = f"impound_ground_{text}"
    if values.get(ground):
        return str(values[ground])
    if profile is not None:
        if ground in profile.values and profile.values[ground].raw:
            return str(profile.values[ground].raw)
        if text in profile.fees:
            return profile.fees[text].description
    words = _code_words()
    if text in words:
        return words[text]
    return text.replace("_", " ") if "_" in text else text


def _amount(unit: str, value) -> str:
    if unit in _UNITS:
        count = int(value) if value == int(value) else 2  # 1.5 hours: plural
        return _UNITS[unit](count) % {"n": value}
    return str(value)


def _comparison(key: str, code: str, values: Mapping[str, Any], specs: Mapping) -> str:
    """ "gt" beside adult_age_months = 6 reads "older than 6 months"."""
    prefix = key.removesuffix("_comparison")
    sibling = next(
        (k for k in specs if k != key and k.startswith(prefix) and specs[k].kind == "int"), None
    )
    is_age = "age" in prefix.split("_")
    if sibling is not None and values.get(sibling) is not None:
        tests = _AGE_TESTS if is_age else _LENGTH_TESTS
        return tests[code](_amount(specs[sibling].unit, values[sibling]))
    return (_BARE_AGE_TESTS if is_age else _BARE_LENGTH_TESTS)[code]()


def words(
    kind: str,
    unit: str,
    value: Any,
    *,
    key: str = "",
    profile=None,
    values: Mapping[str, Any] | None = None,
) -> str:
    """How a value reads on a page: "5 business days", "$3.00", "50%", "December 31",
    "older than 6 months", "dogs, cats". ``values`` (key -> value in force) and
    ``profile`` let a code borrow its neighbor's words."""
    if value is None:
        return _("blank (requires city input)")
    if kind == "money":
        return f"${value:,.2f}"
    if kind == "rate":
        return f"{(value * 100).normalize():f}%"
    if kind == "bool":
        return _("Yes") if value else _("No")
    if kind == "list":
        items = [code_words(item, profile=profile, values=values) for item in value]
        return "; ".join(items) if any("," in i for i in items) else ", ".join(items) or _("none")
    if kind == "month_day":
        return f"{_stdlib_calendar.month_name[value.month]} {value.day}"
    if kind == "time":
        return _clock(value)
    if kind == "text":
        if key.endswith("_comparison") and value in _AGE_TESTS:
            specs = profile.values if profile is not None else {}
            return _comparison(key, value, values or {}, specs)
        return code_words(value, profile=profile, values=values)
    return _amount(unit, value)


def spec_words(spec, value, *, profile=None, values=None) -> str:
    """``words`` for a profile value spec (``ordinance.profiles.ValueSpec``)."""
    return words(spec.kind, spec.unit, value, key=spec.key, profile=profile, values=values)


def _clock(value: time) -> str:
    """8:00 a.m., 7:00 p.m., noon and midnight as the statutes write them."""
    if value.minute == 0 and value.hour in (0, 12):
        return _("midnight") if value.hour == 0 else _("noon")
    hour = value.hour % 12 or 12
    return f"{hour}:{value.minute:02d} {_('a.m.') if value.hour < 12 else _('p.m.')}"


# Developers' references in a note: "(Appendix D G44)", "rules.md IMP-08", "Appendix H,
# MN-04". A clerk reads the note without them.
_REF = (
    r"(?:(?i:rules\.md)\s*)?(?:Appendix\s+[A-Z](?:,?\s*(?:[A-Z]{1,3}-?\d+))?|[A-Z]{1,3}-\d+|"
    r"(?i:rules\.md))(?:\s*\([^)]*\))?"
)
_REF_PARENS = re.compile(r"\s*\((?:see\s+)?" + _REF + r"(?:[;,]\s*" + _REF + r")*\)")
_REF_LEAD = re.compile(r"^\s*" + _REF + r"\s*[:.]\s*")
_REF_ANY = re.compile(r"\s*\b" + _REF + r"\b")


def plain_note(text: str) -> str:
    """A profile note without the developers' cross-references."""
    text = _REF_PARENS.sub("", text or "")
    text = _REF_LEAD.sub("", text)
    text = _REF_ANY.sub("", text)
    text = re.sub(r"\s+([,.;:)])", r"\1", text).strip()
    if not text or not re.search(r"[A-Za-z]{3}", text):
        return ""
    return text[0].upper() + text[1:]
