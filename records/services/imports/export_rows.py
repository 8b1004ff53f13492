"""Rows of this system's own export (README "Export"), read back.

The built-in source layout: each file is one table, each row keeps its ``id`` (the
source's id, the idempotence key) and names the rows it refers to by ``<name>_id``,
which are found among the rows imported before from the same source; so the files are
imported in the order of ``fields.EXPORT_FILES``. The personal and animal fields go
through the same forms as a spreadsheet row; a license keeps its number, term, status
and dates as they were (history as history), with no receipt.
"""

from django.utils.translation import gettext as _

from licensing.forms.registry import AnimalForm, OwnerForm, VaccinationForm
from licensing.models import (
    Animal,
    License,
    LicenseStatus,
    Owner,
    Premises,
    RabiesVaccination,
    Tag,
    TagStatus,
)
from records.models import ImportLayout

from .lookups import same_record
from .rows import (
    CREATED,
    DUPLICATE,
    MATCHED,
    NOT_IMPORTED,
    UPDATED,
    ImportVaccinationForm,
    Issue,
    Part,
    blocking,
    form_issues,
    vet_license_note,
)
from .values import parse_bool, parse_date, parse_datetime_or_date, parse_int


def _number(text: str) -> int | None:
    try:
        return parse_int(text)
    except ValueError:  # the row's check says so, in its words
        return None


TABLES = {
    ImportLayout.OWNERS: "owner",
    ImportLayout.PREMISES: "premises",
    ImportLayout.ANIMALS: "animal",
    ImportLayout.VACCINATIONS: "vaccination",
    ImportLayout.LICENSES: "license",
    ImportLayout.TAGS: "tag",
}
OWNER_FIELDS = [f for f in OwnerForm.Meta.fields]
ANIMAL_FIELDS = [f for f in AnimalForm.Meta.fields if f != "photo"]
VACCINATION_FIELDS = [f for f in VaccinationForm.Meta.fields if f != "certificate"]


class ReferringRow:
    """A row of this system's export: ``id`` is the source's id, and each ``<name>_id``
    column of ``REFS`` names a row imported before from the same source."""

    REFS: dict[str, tuple] = {}  # column -> (model, table) of the row it names

    def __init__(self, run, number: int, raw: dict[str, str]):
        self.run, self.number = run, number
        # the mapping of an export layout renames our column <- the file's header
        self.v = {ours: (raw.get(theirs) or "") for ours, theirs in run.columns.items() if theirs}
        self.issues: list[Issue] = []
        self.key = self.v.get("id", "")

    def own(self) -> tuple:
        """(model, table) of the row itself."""
        raise NotImplementedError

    def sources(self):
        """The (model, table, source id) this row looks up (engine.Run.prefetch)."""
        yield (*self.own(), self.key)
        for column, (model, table) in self.REFS.items():
            if self.v.get(column):
                yield model, table, self.v[column]

    @classmethod
    def prefetch(cls, run, rows) -> None:
        """What the chunk's rows look up besides source ids (none here)."""

    def _ref(self, model, table: str, column: str, *, required=True):
        value = self.v.get(column, "")
        if not value:
            if required:
                self.issues.append(Issue(column, _("%(column)s: empty.") % {"column": column}))
            return None
        found = self.run.find(model, table, value)
        if found is None and required:
            self.issues.append(
                Issue(
                    column,
                    _("%(column)s: no %(table)s with id %(id)s was imported from this source.")
                    % {"column": column, "table": table, "id": value},
                )
            )
        return found


class ExportRow(ReferringRow):
    REFS = {
        "owner_id": (Owner, "owner"),
        "premises_id": (Premises, "premises"),
        "animal_id": (Animal, "animal"),
        "vaccination_id": (RabiesVaccination, "vaccination"),
        "license_id": (License, "license"),
    }
    MODELS = {
        "owner": Owner,
        "premises": Premises,
        "animal": Animal,
        "vaccination": RabiesVaccination,
        "license": License,
        "tag": Tag,
    }

    def __init__(self, run, number: int, raw: dict[str, str]):
        super().__init__(run, number, raw)
        self.table = TABLES[run.layout]

    def own(self) -> tuple:
        return self.MODELS[self.table], self.table

    @classmethod
    def prefetch(cls, run, rows: list["ExportRow"]) -> None:
        if rows and rows[0].table == "license":
            run.lookups.load_licenses(r.v.get("number", "") for r in rows)
        if rows and rows[0].table == "tag":
            numbers = [_number(r.v.get("number", "")) for r in rows]
            run.lookups.load_tags(numbers)
            run.lookups.load_stocks(numbers)

    def _data(self, names, *, bools=(), dates=()):
        data = {}
        for name in names:
            if name not in self.v:
                continue
            value = self.v[name]
            if name in bools:
                value = bool(parse_bool(value))
            data[name] = value
        return data

    def _existing(self, model):
        if not self.key:
            self.issues.append(Issue("id", _("id: empty.")))
            return None
        return self.run.find(model, self.table, self.key)

    def _form_part(self, form_class, model, names, bools=()):
        existing = self._existing(model)
        data = self._data(names, bools=bools)
        form = form_class(data, instance=existing)
        if not form.is_valid():
            self.issues.extend(form_issues(form))
            return None
        part = Part(self.table, self.key, form=form, instance=existing)
        if existing is not None:
            part.action = UPDATED if form.has_changed() else MATCHED
        return part

    def check(self) -> list[Part]:
        try:
            part = getattr(self, f"_check_{self.table}")()
        except ValueError as error:
            self.issues.append(Issue("", str(error)))
            return []
        return [part] if part is not None and not blocking(self.issues) else []

    def _check_owner(self):
        return self._form_part(OwnerForm, Owner, OWNER_FIELDS, bools=("is_resident",))

    def _check_premises(self):
        existing = self._existing(Premises)
        part = Part(
            "premises", self.key, instance=existing, action=MATCHED if existing else CREATED
        )
        v = self.v
        if existing is None:
            found = Premises.objects.filter(
                jurisdiction=self.run.city,
                address_line__iexact=v.get("address_line", ""),
                unit__iexact=v.get("unit", ""),
            ).first()
            if found is not None:
                part.instance, part.action = found, MATCHED
        part.extra = {
            k: v.get(k, "")
            for k in ("address_line", "unit", "city", "state", "postal_code", "parcel_id")
        }
        if not part.extra["address_line"]:
            self.issues.append(Issue("address_line", _("Street address: empty.")))
        return part

    def _check_animal(self):
        owner = self._ref(Owner, "owner", "owner_id")
        premises = self._ref(Premises, "premises", "premises_id", required=False)
        part = self._form_part(
            AnimalForm,
            Animal,
            ANIMAL_FIELDS,
            bools=("sterilized", "dob_is_estimate", "is_service_animal", "is_law_enforcement"),
        )
        if part is None or owner is None:
            return None
        part.extra = {
            "owner": owner,
            "premises": premises,
            "kind": self.v.get("kind", ""),
            "status": self.v.get("status", "") or None,
            "status_changed_on": parse_date(self.v.get("status_changed_on", "")),
        }
        return part

    def _check_vaccination(self):
        animal = self._ref(Animal, "animal", "animal_id")
        part = self._form_part(ImportVaccinationForm, RabiesVaccination, VACCINATION_FIELDS)
        if part is None or animal is None:
            return None
        self.issues.extend(vet_license_note(part.form))
        part.extra = {"animal": animal}
        return part

    def _check_license(self):
        v = self.v
        animal = self._ref(Animal, "animal", "animal_id")
        owner = self._ref(Owner, "owner", "owner_id")
        vaccination = self._ref(RabiesVaccination, "vaccination", "vaccination_id", required=False)
        existing = self._existing(License)
        number = v.get("number", "")
        if not number:
            self.issues.append(Issue("number", _("License number: empty.")))
            return None
        if existing is None:
            found = self.run.lookups.license(number)
            if found is not None:
                self.issues.append(
                    Issue(
                        "number",
                        _("License %(number)s is already in this city's records.")
                        % {"number": number},
                        DUPLICATE,
                    )
                )
                return None
        status = v.get("status") or LicenseStatus.ACTIVE
        if status not in LicenseStatus.values:
            self.issues.append(
                Issue("status", _("Status: “%(s)s” is not a license status.") % {"s": status})
            )
        extra = {
            "number": number,
            "animal": animal,
            "owner": owner,
            "vaccination": vaccination,
            "term_start": parse_date(v.get("term_start", "")),
            "expires_on": parse_date(v.get("expires_on", "")),
            "issued_on": parse_date(v.get("issued_on", "")),
            "status": status,
            "status_changed_on": parse_date(v.get("status_changed_on", "")),
            "status_reason": v.get("status_reason", "")[:300],
            "late_penalty": bool(parse_bool(v.get("late_penalty", ""))),
            "became_subject_on": parse_date(v.get("became_subject_on", "")),
            "receipt": None,
        }
        if not (extra["term_start"] and extra["expires_on"] and extra["issued_on"]):
            self.issues.append(
                Issue("term_start", _("License: term and issue dates are required."))
            )
        part = Part("license", self.key, instance=existing, extra=extra)
        if existing is not None:
            same = all(
                getattr(existing, k) == extra[k]
                for k in ("term_start", "expires_on", "issued_on", "status")
            )
            if not same:
                self.issues.append(
                    Issue(
                        "number",
                        _("License %(number)s: an issued license is not rewritten.")
                        % {"number": number},
                        NOT_IMPORTED,
                    )
                )
                return None
            part.action = MATCHED
        return part

    def _check_tag(self):
        v = self.v
        license = self._ref(License, "license", "license_id", required=False)
        year, number = parse_int(v.get("year", "")), parse_int(v.get("number", ""))
        if year is None or number is None:
            self.issues.append(Issue("number", _("Tag: year and number are required.")))
            return None
        if v.get("status") != TagStatus.ISSUED or license is None:
            self.issues.append(
                Issue(
                    "status",
                    _(
                        "Tag %(tag)s of %(year)s was not issued to a license: tag stock is "
                        "received by the city itself."
                    )
                    % {"tag": number, "year": year},
                    NOT_IMPORTED,
                )
            )
            return None
        found = self.run.lookups.tag(year, number)
        if found is not None and found.status != TagStatus.ISSUED:
            found = None
        if found is not None and not same_record(found.license, license):
            self.issues.append(
                Issue(
                    "number",
                    _("Tag %(tag)s of %(year)s is already issued.") % {"tag": number, "year": year},
                )
            )
            return None
        action = MATCHED if found is not None else CREATED
        return Part(
            "tag",
            self.key,
            instance=found,
            action=action,
            extra={
                "license": license,
                "number": number,
                "year": year,
                "issued_on": parse_datetime_or_date(v.get("issued_on", "")),
            },
        )

    def write(self, parts: list[Part]) -> dict[str, str]:
        run = self.run
        for part in parts:
            if part.action != MATCHED:
                getattr(self, f"_write_{part.name}")(part)
            if part.name == "tag":
                if part.instance is None:
                    continue
            run.remember(part.name, part.key, part.instance, part.action, self.number)
        return {p.name: p.action for p in parts}

    def _write_owner(self, part):
        obj = part.form.save(commit=False)
        obj.jurisdiction = self.run.city
        self.run.save(obj)
        part.instance = obj

    def _write_premises(self, part):
        obj = Premises(jurisdiction=self.run.city, **part.extra)
        self.run.save(obj)
        part.instance = obj

    def _write_animal(self, part):
        obj = part.form.save(commit=False)
        x = part.extra
        if obj.pk is None:
            obj.jurisdiction, obj.owner, obj.premises = self.run.city, x["owner"], x["premises"]
        obj.kind = x["kind"]
        if x["status"]:
            self.run.record_as(obj, status=x["status"], status_changed_on=x["status_changed_on"])
        else:
            self.run.save(obj)
        part.instance = obj

    def _write_vaccination(self, part):
        obj = part.form.save(commit=False)
        if obj.pk is None:
            obj.animal, obj.recorded_by = part.extra["animal"], self.run.actor
        self.run.save(obj)
        part.instance = obj

    def _write_license(self, part):
        x = dict(part.extra)
        x.pop("receipt")
        obj = part.instance or License(jurisdiction=self.run.city, issued_by=self.run.actor)
        self.run.record_as(obj, **x)  # its status as the source has it
        part.instance = obj
        self.run.lookups.add_license(obj)
        self.run.note_numbers(obj.number, None)

    def _write_tag(self, part):
        x = part.extra
        tag = self.run.issue_tag(
            x["license"], x["number"], self.number, on=x["issued_on"], year=x["year"]
        )
        part.instance = tag
