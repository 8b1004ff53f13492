"""Kennel license rows: a kennel-license list or this system's export.

History as history, as for dog licenses: an imported kennel license keeps its number,
status, term, counts and conditions as they were; no receipt is made (its page says
"Imported from <source>, <date>"); the city's kennel series continues after the
imported numbers (``Run.note_kennel_number``; KEN-04, LIC-06). The row is checked
through the counter's kennel application form (``licensing.forms.kennels``: its labels,
its "Enter how many dogs or cats the kennel keeps.", its bounded dates) and, for the
owner on a spreadsheet row, the dog sheet's owner part (``rows.SheetRow.owner``: the
owner form, matching by normalised name and address). A kennel license that could be
one of several records, or whose number this city already gives another owner or
premises, is flagged for a clerk (DUPLICATE) and skipped, never guessed.
"""

from django import forms
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l

from base import dates
from licensing.forms.kennels import KennelApplyForm
from licensing.models import Animal, KennelAnimal, KennelLicense, KennelStatus, Owner, Premises

from .export_rows import ReferringRow
from .fields import KENNEL_DATE_KEYS as DATE_KEYS
from .fields import KENNEL_LABELS, OWNER, PREMISES
from .rows import (
    DUPLICATE,
    MATCHED,
    NOT_IMPORTED,
    UPDATED,
    Issue,
    Part,
    form_issues,
)
from .sheet_rows import SheetRow
from .values import normalise, parse_date

KENNEL = "kennellicense"  # the source table name of a kennel license's import record
# A kennel license is numbered when it is issued (KEN-04): these statuses have a number.
ISSUED = (KennelStatus.ACTIVE, KennelStatus.EXPIRED, KennelStatus.REVOKED)
# The fields an import writes on a kennel license, as the form cleans them.
WRITTEN = [
    "number",
    "status",
    "business_nature",
    "dog_count",
    "cat_count",
    "cup_reference",
    "conditions",
    "applied_on",
    "became_subject_on",
    "issued_on",
    "expires_on",
]
# Words old systems use for a kennel license's status, beside ours and their labels.
STATUS_WORDS = {
    "current": KennelStatus.ACTIVE,
    "issued": KennelStatus.ACTIVE,
    "valid": KennelStatus.ACTIVE,
    "lapsed": KennelStatus.EXPIRED,
    "pending": KennelStatus.UNDER_REVIEW,
    "in review": KennelStatus.UNDER_REVIEW,
    "application": KennelStatus.APPLIED,
}


class KennelRowForm(KennelApplyForm):
    """The counter's application form (its fields, labels, bounds and checks) without its
    owner search, which a row answers with its own owner, and with what an issued license
    also has: its number, dates and conditions."""

    number = forms.CharField(label=_l("Kennel license number"), required=False, max_length=20)
    status = forms.ChoiceField(label=_l("Kennel license status"), choices=KennelStatus.choices)
    applied_on = dates.PastDateField(label=_l("Applied on"))
    issued_on = dates.PastDateField(label=_l("Issued on"), required=False)
    expires_on = dates.DateField(label=_l("Expires on"), required=False)
    conditions = forms.CharField(label=_l("Conditions"), required=False)

    def __init__(self, *args, **kwargs):
        forms.Form.__init__(self, *args, **kwargs)  # the application form's, minus the owner
        del self.fields["owner"]

    def clean(self):
        try:
            data = super().clean()
        except forms.ValidationError as error:  # the counter's check; the row's own still run
            self.add_error(None, error)
            data = self.cleaned_data
        status, number = data.get("status"), data.get("number", "")
        applied, issued = data.get("applied_on"), data.get("issued_on")
        expires, subject = data.get("expires_on"), data.get("became_subject_on")
        if status in ISSUED and not (number and issued):
            self.add_error(
                "number" if not number else "issued_on",
                _("An issued kennel license needs its number and the day it was issued."),
            )
        if number and status not in ISSUED and status:
            self.add_error(
                "number",
                _("A kennel license that is %(status)s has no number yet.")
                % {"status": KennelStatus(status).label.lower()},
            )
        if applied and issued and issued < applied:
            self.add_error(
                "issued_on", _("The license cannot be issued before it was applied for.")
            )
        if expires and issued and expires <= issued:
            self.add_error("expires_on", _("The expiry date must be after the issue date."))
        if subject and applied and subject > applied:  # kennel_apply's check, its words
            self.add_error(
                "became_subject_on",
                _(
                    "The date the kennel became subject to licensing cannot be after the "
                    "application."
                ),
            )
        return data


def _data(form) -> dict:
    return {name: form.cleaned_data.get(name) for name in WRITTEN}


def _differs(existing: KennelLicense, data: dict) -> bool:
    return any(getattr(existing, name) != value for name, value in data.items())


class _KennelPart:
    """What both layouts share: the kennel license part, checked and matched, and its
    writing. ``self.run``, ``self.issues``, ``self.number`` are the row's."""

    def kennel_part(self, key: str, form_data: dict, owner, premises, *, export: bool):
        run = self.run
        form = KennelRowForm(form_data)
        if not form.is_valid():
            self.issues.extend(form_issues(form))
            return None
        data = _data(form)
        if (
            data["status"] == KennelStatus.ACTIVE
            and data["expires_on"]
            and data["expires_on"] < run.today
        ):
            data["status"] = KennelStatus.EXPIRED  # as the expiry sweep would have (KEN-05)
        part = Part(KENNEL, key, extra={"data": data, "owner": owner, "premises": premises})
        existing = run.find(KennelLicense, KENNEL, key)
        if existing is not None:
            return self._imported_before(part, existing)
        same_place = owner is not None and owner.pk and premises is not None and premises.pk
        if data["number"]:
            here = (owner.pk, premises.pk) if same_place else None
            return self._numbered(part, here, export=export)
        if same_place:  # an application: the same owner, premises and day is the same one
            return self._application(part, owner, premises)
        return part

    def _imported_before(self, part: Part, existing: KennelLicense) -> Part | None:
        """Imported from this source before: updated, unless its number or issue date
        would change (an issued license is not rewritten)."""
        data = part.extra["data"]
        part.instance = existing
        if existing.number and (
            existing.number != data["number"] or existing.issued_on != data["issued_on"]
        ):
            message = _(
                "Kennel license %(number)s was imported before with another number or issue "
                "date; an issued license is not rewritten."
            ) % {"number": existing.number}
            self.issues.append(Issue("license_number", message, NOT_IMPORTED))
            return None
        part.action = UPDATED if _differs(existing, data) else MATCHED
        return part

    def _numbered(self, part: Part, here, *, export: bool) -> Part | None:
        """A number the city has: the same owner's at the same premises (``here``) is this
        license, anyone else's is a DUPLICATE for a clerk (always, from an export)."""
        data = part.extra["data"]
        found = self.run.lookups.kennel(data["number"])
        if found is None:
            return part
        if export or found.pk is None or (found.owner_id, found.premises_id) != here:
            message = _(
                "Kennel license %(number)s of this city is another owner's or another "
                "premises': a clerk should decide; the row is not imported."
            ) % {"number": data["number"]}
            self.issues.append(Issue("license_number", message, DUPLICATE))
            return None
        part.instance = found
        part.action = UPDATED if _differs(found, data) else MATCHED
        return part

    def _application(self, part: Part, owner, premises) -> Part | None:
        data = part.extra["data"]
        found = list(
            KennelLicense.objects.filter(
                jurisdiction=self.run.city,
                owner=owner,
                premises=premises,
                applied_on=data["applied_on"],
                number="",
            )[:2]
        )
        if len(found) > 1:
            message = _(
                "%(n)s kennel applications of this owner at these premises were made that "
                "day: a clerk should decide which it is; the row is not imported."
            ) % {"n": len(found)}
            self.issues.append(Issue("applied_on", message, DUPLICATE))
            return None
        if found:
            part.instance = found[0]
            part.action = UPDATED if _differs(found[0], data) else MATCHED
        return part

    def write_kennel(self, part: Part, owner, premises) -> None:
        run = self.run
        if part.action != MATCHED:
            obj = part.instance or KennelLicense(jurisdiction=run.city, recorded_by=run.actor)
            obj.owner, obj.premises = owner, premises
            data = part.extra["data"]
            if data.get("number") is None and "number" in data:
                data = {**data, "number": ""}
            run.record_as(obj, **data)  # its status as the source has it
            part.instance = obj
            run.lookups.add_kennel(obj)
            if obj.number:
                run.note_kennel_number(obj.number)
        run.remember(KENNEL, part.key, part.instance, part.action, self.number)


class KennelSheetRow(_KennelPart, SheetRow):
    """A kennel-license list's row (``ImportLayout.KENNEL_SHEET``): its owner (as the dog
    sheet reads one), the kennel's premises (the owner's address when not given) and the
    license."""

    def _parse(self, key, parser, **kwargs):
        try:
            return parser(self.v.get(key, ""), **kwargs)
        except ValueError as error:
            self.issues.append(Issue(key, f"{KENNEL_LABELS[key]}: {error}"))
            return None

    def _status(self) -> str:
        text = " ".join(self.v.get("status", "").lower().replace("_", " ").split())
        if not text:
            return ""
        words = {**STATUS_WORDS}
        for value, label in KennelStatus.choices:
            words[value.replace("_", " ")] = value
            words[str(label).lower()] = value
        if text in words:
            return words[text]
        self.issues.append(
            Issue(
                "status",
                _("%(label)s: “%(value)s” is not a kennel license status (%(statuses)s).")
                % {
                    "label": KENNEL_LABELS["status"],
                    "value": self.v["status"][:40],
                    "statuses": ", ".join(str(label).lower() for _v, label in KennelStatus.choices),
                },
            )
        )
        return ""

    def premises(self, owner: Part | None) -> Part | None:
        v = self.v
        address = " ".join(v.get("premises_address_line", "").split())
        if address:
            unit = " ".join(v.get("premises_unit", "").split())
            city = v.get("premises_city", "")
            postal = v.get("premises_postal_code", "")
        elif owner is not None:
            o = owner.form.cleaned_data
            address, unit, city, postal = (
                o["address_line"],
                o.get("unit", ""),
                o["city"],
                o["postal_code"],
            )
        else:
            return None
        city = city or self.run.city.name
        postal = postal or (owner.form.cleaned_data["postal_code"] if owner else "")
        for key, value, name in (
            ("premises_address_line", address, "address_line"),
            ("premises_unit", unit, "unit"),
            ("premises_city", city, "city"),
            ("premises_postal_code", postal, "postal_code"),
        ):
            if len(value) > Premises._meta.get_field(name).max_length:
                self.issues.append(
                    Issue(key, _("%(label)s: too long.") % {"label": KENNEL_LABELS[key]})
                )
        part = Part(PREMISES, f"{normalise(address)}|{normalise(unit)}")
        part.extra = {
            "address_line": address,
            "unit": unit,
            "city": city,
            "state": self.run.city.state,
            "postal_code": postal,
        }
        found = self.run.lookups.premises_at(address, unit)
        if found is not None:
            part.instance, part.action = found, MATCHED
        return part

    # -- what a chunk reads in bulk before its rows are checked (engine.Run.prefetch) -----

    def sources(self):
        yield Owner, "owner", self._owner_key(*self._names())
        if self.v.get("kennel_id") or self.v.get("license_number"):
            yield KennelLicense, KENNEL, self.v.get("kennel_id") or self.v["license_number"]

    @classmethod
    def prefetch(cls, run, rows: list["KennelSheetRow"]) -> None:
        run.lookups.load_owners(r._names()[1] for r in rows)
        run.lookups.load_kennels(r.v.get("license_number", "") for r in rows)
        run.lookups.load_premises(
            (r.v.get("premises_address_line") or r._address(), r.v.get("premises_unit", ""))
            for r in rows
        )

    def check(self) -> list[Part]:
        v = self.v
        owner = self.owner()
        premises = self.premises(owner)
        status = self._status()
        got = {k: self._parse(k, parse_date, order=self.run.date_order) for k in DATE_KEYS}
        if self.issues or owner is None or premises is None:
            return []
        number = v.get("license_number", "")
        if not status:
            if number:
                expires = got["expires_on"]
                past = expires is not None and expires < self.run.today
                status = KennelStatus.EXPIRED if past else KennelStatus.ACTIVE
            else:
                status = KennelStatus.APPLIED
        applied = got["applied_on"] or got["issued_on"]
        form_data = {
            "number": number,
            "status": status,
            "business_nature": v.get("business_nature", ""),
            "dog_count": v.get("dog_count", "") or "0",
            "cat_count": v.get("cat_count", "") or "0",
            "cup_reference": v.get("cup_reference", ""),
            "conditions": v.get("conditions", ""),
            "applied_on": applied.isoformat() if applied else "",
            **{k: got[k].isoformat() for k in DATE_KEYS - {"applied_on"} if got[k]},
        }
        kennel = self.kennel_part(
            v.get("kennel_id") or number or self._application_key(owner, premises, applied),
            form_data,
            owner.instance,
            premises.instance,
            export=False,
        )
        if kennel is None:
            return []
        return [owner, premises, kennel]

    @staticmethod
    def _application_key(owner: Part, premises: Part, applied) -> str:
        return f"{owner.key}|{premises.key}|{applied.isoformat() if applied else ''}"

    def write(self, parts: list[Part]) -> dict[str, str]:
        run = self.run
        owner, premises, kennel = parts
        self._write_owner(owner)
        if premises.instance is None:
            obj = Premises(jurisdiction=run.city, **premises.extra)
            run.save(obj)
            run.lookups.add_premises(obj)
            premises.instance = obj
        run.remember("premises", premises.key, premises.instance, premises.action, self.number)
        self.write_kennel(kennel, owner.instance, premises.instance)
        return {OWNER: owner.action, PREMISES: premises.action, KENNEL: kennel.action}


class _ExportRow(ReferringRow):
    """A row of the export's kennel tables: ``MODEL`` and ``TABLE`` are the row's own."""

    MODEL, TABLE = None, ""

    def own(self) -> tuple:
        return self.MODEL, self.TABLE


class KennelExportRow(_KennelPart, _ExportRow):
    """A row of this system's export's ``licensing.kennellicense.csv``
    (``ImportLayout.KENNELS``): its owner and premises are the rows imported before from
    the same source (``owner_id``, ``premises_id``); its receipt is not carried over."""

    MODEL, TABLE = KennelLicense, KENNEL
    REFS = {"owner_id": (Owner, "owner"), "premises_id": (Premises, "premises")}

    def check(self) -> list[Part]:
        v = self.v
        if not self.key:
            self.issues.append(Issue("id", _("id: empty.")))
            return []
        owner = self._ref(Owner, "owner", "owner_id")
        premises = self._ref(Premises, "premises", "premises_id")
        status = v.get("status", "")
        if status not in KennelStatus.values:
            self.issues.append(
                Issue(
                    "status",
                    _("Status: “%(s)s” is not a kennel license status.") % {"s": status[:40]},
                )
            )
        if self.issues:
            return []
        form_data = {name: v.get(name, "") for name in WRITTEN}
        part = self.kennel_part(self.key, form_data, owner, premises, export=True)
        if part is None:
            return []
        try:
            part.extra["decisions"] = {
                name: parse_date(v.get(name, ""))
                for name in ("denied_on", "denial_notified_on", "appeal_deadline")
            }
        except ValueError as error:
            self.issues.append(Issue("denied_on", str(error)))
            return []
        data = part.extra["data"]
        data.update(part.extra["decisions"])
        data["status"] = status  # as it was: the source's sweep already ran (history)
        if part.instance is not None:
            part.action = UPDATED if _differs(part.instance, data) else MATCHED
        return [part]

    def write(self, parts: list[Part]) -> dict[str, str]:
        (part,) = parts
        self.write_kennel(part, part.extra["owner"], part.extra["premises"])
        return {KENNEL: part.action}


class KennelAnimalRowForm(forms.Form):
    added_on = dates.PastDateField(label=_l("Added on"))
    removed_on = dates.PastDateField(label=_l("Removed on"), required=False)

    def clean(self):
        data = super().clean()
        added, removed = data.get("added_on"), data.get("removed_on")
        if added and removed and removed < added:  # kennel_animal_remove's check, its words
            self.add_error(
                "removed_on",
                _("The removal cannot come before the animal was added (%(d)s).")
                % {"d": date_format(added)},
            )
        return data


class KennelAnimalExportRow(_ExportRow):
    """A row of the export's ``licensing.kennelanimal.csv`` (``ImportLayout.KENNEL_ANIMALS``):
    an animal kept under a kennel license, both imported before from the same source."""

    MODEL, TABLE = KennelAnimal, "kennelanimal"
    REFS = {"kennel_license_id": (KennelLicense, KENNEL), "animal_id": (Animal, "animal")}

    def check(self) -> list[Part]:
        if not self.key:
            self.issues.append(Issue("id", _("id: empty.")))
            return []
        kennel = self._ref(KennelLicense, KENNEL, "kennel_license_id")
        animal = self._ref(Animal, "animal", "animal_id")
        form = KennelAnimalRowForm(
            {"added_on": self.v.get("added_on", ""), "removed_on": self.v.get("removed_on", "")}
        )
        if not form.is_valid():
            self.issues.extend(form_issues(form))
        if self.issues:
            return []
        data = {
            "added_on": form.cleaned_data["added_on"],
            "removed_on": form.cleaned_data["removed_on"],
        }
        existing = self.run.find(KennelAnimal, self.TABLE, self.key)
        if existing is None:  # one row per kennel and animal (kennel_animal_unique)
            existing = KennelAnimal.objects.filter(kennel_license=kennel, animal=animal).first()
        part = Part(self.TABLE, self.key, instance=existing, extra={"data": data})
        part.extra.update(kennel=kennel, animal=animal)
        if existing is not None:
            same = all(getattr(existing, k) == v for k, v in data.items())
            part.action = MATCHED if same else UPDATED
        return [part]

    def write(self, parts: list[Part]) -> dict[str, str]:
        (part,) = parts
        if part.action != MATCHED:
            obj = part.instance or KennelAnimal(
                kennel_license=part.extra["kennel"], animal=part.extra["animal"]
            )
            for name, value in part.extra["data"].items():
                setattr(obj, name, value)
            self.run.save(obj)
            part.instance = obj
        self.run.remember(self.TABLE, part.key, part.instance, part.action, self.number)
        return {self.TABLE: part.action}
