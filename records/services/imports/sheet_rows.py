"""One spreadsheet row -> our records: validated as the forms validate, matched before
anything is created, written with the batch as the history's reason.

A row is checked whole before it writes anything (``rows``): the owner, the animal, the
rabies certificate, the license and tag, each through the counter's form, the species
through the city's species check (WLD-01..03).
"""

from datetime import date

from dateutil.relativedelta import relativedelta
from django.forms.models import model_to_dict
from django.utils.translation import gettext as _

from licensing.forms.registry import AnimalForm, OwnerForm
from licensing.models import (
    Animal,
    License,
    LicenseKind,
    LicenseStatus,
    Owner,
    Ownership,
    RabiesVaccination,
)
from licensing.services.registry import clean_microchip
from licensing.services.species import species_check
from ordinance.refusals import Refused

from .fields import ANIMAL, LABELS, LICENSE, OWNER, VACCINATION
from .rows import (
    CREATED,
    DUPLICATE,
    FILLED_OWNER_FIELDS,
    MATCHED,
    UPDATED,
    ImportVaccinationForm,
    Issue,
    Part,
    form_issues,
    vet_license_note,
)
from .sheet_licenses import SheetLicense
from .values import (
    join_phone,
    normalise,
    parse_bool,
    parse_date,
    parse_int,
    parse_sex,
    parse_species,
    split_name,
    split_phone,
)


def _iso(value: date | None) -> str:
    return value.isoformat() if value else ""


class SheetRow(SheetLicense):
    """A spreadsheet row (``ImportLayout.SHEET``): owner, animal, certificate, license."""

    def __init__(self, run, number: int, raw: dict[str, str]):
        self.run, self.number = run, number
        self.v = {k: (raw.get(col) or "").strip() for k, col in run.columns.items() if col}
        self.issues: list[Issue] = []

    # -- parsing ------------------------------------------------------------------------

    def _parse(self, key, parser, **kwargs):
        try:
            return parser(self.v.get(key, ""), **kwargs)
        except ValueError as error:
            self.issues.append(Issue(key, f"{LABELS[key]}: {error}"))
            return None

    def _date(self, key):
        return self._parse(key, parse_date, order=self.run.date_order)

    def _names(self) -> tuple[str, str]:
        first, last = self.v.get("first_name", ""), self.v.get("last_name", "")
        if self.v.get("owner_name") and not (first or last):
            first, last = split_name(self.v["owner_name"], order=self.run.name_order)
        return first, last

    def _address(self) -> str:
        return " ".join(self.v.get("address_line", "").split())

    def _owner_key(self, first: str, last: str) -> str:
        return self.v.get("owner_id") or "|".join(
            [
                normalise(first),
                normalise(last),
                normalise(self._address()),
                self.v.get("postal_code", "")[:5],
            ]
        )

    def _animal_key(self, owner_key: str, species: str, chip: str) -> str:
        v = self.v
        return v.get("animal_id") or (
            f"chip:{chip}" if chip else f"{owner_key}|{normalise(v['animal_name'])}|{species}"
        )

    def _quiet(self, parser, key, **kwargs):
        try:
            return parser(self.v.get(key, ""), **kwargs)
        except Exception:  # noqa: BLE001 - the row's check says what is wrong, in its words
            return None

    # -- what a chunk reads in bulk before its rows are checked (engine.Run.prefetch) -----

    def sources(self):
        """The (model, table, source id) this row will look up, computed as ``check``
        computes them, quietly: a value that does not parse is the check's to report."""
        v = self.v
        owner_key = self._owner_key(*self._names())
        yield Owner, "owner", owner_key
        if v.get("animal_name") or v.get("animal_id"):
            species = self._quiet(parse_species, "species")
            chip = self._quiet(clean_microchip, "microchip") or ""
            if species:
                animal_key = self._animal_key(owner_key, species, chip)
                yield Animal, "animal", animal_key
                given = self._quiet(parse_date, "vaccinated_on", order=self.run.date_order)
                if given:
                    yield RabiesVaccination, "vaccination", f"{animal_key}|{given.isoformat()}"
        if v.get("license_number"):
            yield License, "license", v["license_number"]

    @classmethod
    def prefetch(cls, run, rows: list["SheetRow"]) -> None:
        lookups = run.lookups
        lookups.load_owners(r._names()[1] for r in rows)
        lookups.load_chips(r._quiet(clean_microchip, "microchip") for r in rows)
        lookups.load_licenses(r.v.get("license_number", "") for r in rows)
        tags = [r._quiet(parse_int, "tag_number") for r in rows]
        lookups.load_tags(tags)
        lookups.load_stocks(tags)
        lookups.load_premises((r._address(), r.v.get("unit", "")) for r in rows)

    # -- the parts ----------------------------------------------------------------------

    def owner(self) -> Part | None:
        run, v = self.run, self.v
        first, last = self._names()
        number, extension = split_phone(v.get("phone", ""))
        data = {
            "kind": Owner.Kind.PERSON,
            "first_name": first,
            "last_name": last,
            "address_line": self._address(),
            "unit": v.get("unit", ""),
            "city": v.get("city", "") or run.city.name,
            "state": v.get("state", "") or run.city.state,
            "postal_code": v.get("postal_code", ""),
            "phone": number,
            "email": v.get("email", ""),
            "is_resident": True,
        }
        key = self._owner_key(first, last)
        part = Part(OWNER, key)
        existing = run.find(Owner, "owner", key)
        if existing is None and last:
            found = [
                o
                for o in run.lookups.owners_named(first, last)
                if normalise(o.address_line) == normalise(data["address_line"])
                and o.postal_code[:5] == data["postal_code"][:5]
            ]
            if len(found) > 1:
                self.issues.append(
                    Issue(
                        "owner_name",
                        _(
                            "%(n)s owners in this city have this name and address: a clerk "
                            "should merge them or choose one; the row is not imported."
                        )
                        % {"n": len(found)},
                        DUPLICATE,
                    )
                )
                return None
            if found:
                part.instance, part.action = found[0], MATCHED
        if existing is not None:
            part.instance = existing
            data["is_resident"] = existing.is_resident
        before = existing.phone if existing else ""  # the form writes into the instance
        form = OwnerForm(data, instance=existing if existing else None)
        if not form.is_valid():
            self.issues.extend(form_issues(form))
            return None
        phone = join_phone(form.cleaned_data["phone"], extension)
        if len(phone) > Owner._meta.get_field("phone").max_length:
            self.issues.append(Issue("phone", _("Phone: the number and extension are too long.")))
            return None
        part.form, part.extra = form, {"phone": phone}
        if existing is not None:
            changed = bool(set(form.changed_data) - {"phone"}) or before != phone
            part.action = UPDATED if changed else MATCHED
        elif part.instance is not None:
            # Matched by name and address, never imported from this source: the city's
            # record is newer than the old system's, so the sheet only fills what it lacks.
            given = {**form.cleaned_data, "phone": phone}
            fill = {
                name: given[name]
                for name in FILLED_OWNER_FIELDS
                if given.get(name) and not getattr(part.instance, name)
            }
            if fill:
                part.extra["fill"], part.action = fill, UPDATED
        return part

    def animal(self, owner: Part | None) -> Part | None:
        v = self.v
        if not (v.get("animal_name") or v.get("animal_id")):
            return None
        species = self._parse("species", parse_species)
        sex, sterilized = self._parse("sex", parse_sex) or ("unknown", None)
        if v.get("sterilized"):
            sterilized = self._parse("sterilized", parse_bool)
        born = self._date("date_of_birth")
        chip = self._microchip()
        if species is None:
            return None
        part = Part(ANIMAL, self._animal_key(owner.key if owner else "", species, chip))
        existing = self.run.find(Animal, "animal", part.key)
        owner_obj = owner.instance if owner else None
        if existing is None and not self._animal_match(part, owner, species, chip):
            return None
        answers = {"species": species, "sex": sex, "sterilized": sterilized, "born": born}
        form = self._animal_form(existing, answers, chip)
        if form is None:
            return None
        kind = self._animal_kind(owner_obj, existing, species, form.data["sterilized"])
        if kind is None:
            return None
        part.form, part.extra = form, {"kind": kind}
        if existing is not None:
            part.instance = existing
            part.action = UPDATED if form.has_changed() else MATCHED
        return part

    def _microchip(self) -> str:
        try:
            return clean_microchip(self.v.get("microchip", ""))
        except Exception as error:  # ValidationError: its message, as the form says it
            self.issues.append(
                Issue("microchip", f"{LABELS['microchip']}: {' '.join(error.messages)}")
            )
            return ""

    def _animal_match(self, part: Part, owner: Part | None, species: str, chip: str) -> bool:
        """An animal of the city this row means, not imported from this source before: by
        its microchip, else by the owner's animal of that name (``part`` matched). False
        (with a DUPLICATE issue) when a clerk must decide which it is."""
        owner_obj = owner.instance if owner else None
        found = []
        if chip:
            found = self.run.lookups.animals_chipped(chip)
        elif owner_obj is not None and owner_obj.pk:
            found = list(
                Animal.objects.filter(
                    owner=owner_obj, name__iexact=self.v["animal_name"], species=species
                )[:3]
            )
        if len(found) > 1:
            message = _(
                "%(n)s animals in this city match this row: a clerk should decide which it "
                "is; the row is not imported."
            ) % {"n": len(found)}
            self.issues.append(Issue("microchip" if chip else "animal_name", message, DUPLICATE))
            return False
        if not found:
            return True
        holder = found[0]
        if holder.owner_id is not None:
            same_owner = owner_obj is not None and holder.owner_id == owner_obj.pk
        else:  # both made earlier in this chunk, not written yet
            same_owner = holder.owner is owner_obj
        if owner is not None and not same_owner:
            message = _(
                "Microchip %(chip)s is registered to %(animal)s of another owner: a clerk "
                "should decide; the row is not imported."
            ) % {"chip": chip, "animal": holder.name}
            self.issues.append(Issue("microchip", message, DUPLICATE))
            return False
        part.instance, part.action = holder, MATCHED
        return True

    def _animal_form(self, existing, answers: dict, chip: str):
        """The counter's animal form on what the row says over what the record has; None
        (with its issues) when it refuses."""
        v, base = self.v, {}
        if existing is not None:
            base = model_to_dict(
                existing, fields=[f for f in AnimalForm.Meta.fields if f != "photo"]
            )
        sterilized = answers["sterilized"]
        data = {
            **base,
            "species": answers["species"],
            "name": v.get("animal_name", "") or base.get("name", ""),
            "sex": answers["sex"] if v.get("sex") or not base else base["sex"],
            "sterilized": sterilized if sterilized is not None else base.get("sterilized", False),
        }
        for key in ("breed", "color"):
            if key in v:
                data[key] = v[key]
        if answers["born"] is not None:
            data["date_of_birth"] = answers["born"].isoformat()
        if chip:
            data["microchip"] = chip
        form = AnimalForm(data, instance=existing)
        if not form.is_valid():
            self.issues.extend(form_issues(form))
            return None
        return form

    def _animal_kind(self, owner_obj, existing, species: str, sterilized) -> str | None:
        """The row of the city's species table (WLD-01..03); None when it refuses."""
        try:
            kind, _found = species_check(
                owner=owner_obj or Owner(jurisdiction=self.run.city),
                premises=None,
                species=species,
                kind=existing.kind if existing else "",
                sterilized=bool(sterilized),
                on=self.run.today,
                animal=existing,
            )
        except Refused as refused:
            self.issues.extend(Issue("species", str(check)) for check in refused.checks)
            return None
        return kind

    def vaccination(self, animal: Part | None) -> Part | None:
        v = self.v
        if not v.get("vaccinated_on"):
            return None
        given = self._date("vaccinated_on")
        due = self._date("vaccination_expires")
        if given is None or animal is None:
            return None
        years = 3 if due and (due - given).days > 2 * 366 else 1
        key = f"{animal.key}|{given.isoformat()}"
        part = Part(VACCINATION, key)
        existing = self.run.find(RabiesVaccination, "vaccination", key)
        if existing is None and animal.instance is not None and animal.instance.pk:
            found = RabiesVaccination.objects.filter(
                animal=animal.instance, vaccinated_on=given
            ).first()
            if found is not None:
                part.instance, part.action = found, MATCHED
        data = {
            "vaccinated_on": given.isoformat(),
            "duration_years": years,
            "next_due_on": _iso(due or given + relativedelta(years=years)),
            "rabies_tag_number": v.get("rabies_tag_number", ""),
            "veterinarian_name": v.get("veterinarian_name", ""),
            "veterinarian_license": v.get("veterinarian_license", ""),
        }
        if existing is not None:
            part.instance = existing
            base = model_to_dict(
                existing,
                fields=[
                    "clinic_name",
                    "clinic_address",
                    "manufacturer",
                    "product",
                    "lot_number",
                    "lot_expires_on",
                ],
            )
            data = {**base, **data}
        form = ImportVaccinationForm(data, instance=existing)
        if not form.is_valid():
            self.issues.extend(form_issues(form))
            return None
        self.issues.extend(vet_license_note(form))
        if due is not None and due <= given:  # RAB-03, as the counter's service says it
            self.issues.append(
                Issue(
                    "vaccination_expires",
                    _("The next due date must be after the vaccination date."),
                )
            )
            return None
        part.form = form
        if existing is not None:
            part.action = UPDATED if form.has_changed() else MATCHED
        return part

    # -- the row ------------------------------------------------------------------------

    def check(self) -> list[Part]:
        owner = self.owner()
        animal = self.animal(owner)
        vacc = self.vaccination(animal)
        lic = self.license(animal, owner, vacc)
        return [p for p in (owner, animal, vacc, lic) if p is not None]

    def _write_owner(self, owner: Part) -> None:
        run = self.run
        if "fill" in owner.extra:
            for name, value in owner.extra["fill"].items():
                setattr(owner.instance, name, value)
            run.save(owner.instance)
        elif owner.action != MATCHED:
            obj = owner.form.save(commit=False)
            obj.jurisdiction = run.city
            obj.phone = owner.extra["phone"]
            run.save(obj)
            owner.instance = obj
            run.lookups.add_owner(obj)
        run.remember("owner", owner.key, owner.instance, owner.action, self.number)

    def write(self, parts: list[Part]) -> dict[str, str]:
        run = self.run
        by = {p.name: p for p in parts}
        owner, animal = by.get(OWNER), by.get(ANIMAL)
        vacc, lic = by.get(VACCINATION), by.get(LICENSE)
        if owner is not None:
            self._write_owner(owner)
        if animal is not None:
            created = animal.instance is None
            if animal.action != MATCHED:
                obj = animal.form.save(commit=False)
                obj.kind = animal.extra["kind"]
                if created:
                    obj.jurisdiction, obj.owner = run.city, owner.instance
                    obj.premises = run.lookups.premises_for(owner.instance)
                run.save(obj)
                animal.instance = obj
                run.lookups.add_animal(obj)
                if created:
                    ownership = Ownership(
                        animal=obj,
                        owner=obj.owner,
                        premises=obj.premises,
                        started_on=obj.acquired_on or run.today,
                        note=run.note[:200],
                    )
                    run.save(ownership)
                    run.remember("ownership", animal.key, ownership, CREATED, self.number)
            run.remember("animal", animal.key, animal.instance, animal.action, self.number)
        if vacc is not None:
            if vacc.action != MATCHED:
                obj = vacc.form.save(commit=False)
                if obj.pk is None:
                    obj.animal, obj.recorded_by = animal.instance, run.actor
                run.save(obj)
                vacc.instance = obj
            run.remember("vaccination", vacc.key, vacc.instance, vacc.action, self.number)
        if lic is not None:
            x = lic.extra
            if lic.action != MATCHED:
                obj = lic.instance or License(
                    jurisdiction=run.city,
                    number=lic.key,
                    kind=LicenseKind.DOG,
                    animal=animal.instance,
                    owner=owner.instance,
                    issued_by=run.actor,
                )
                obj.term_start, obj.expires_on, obj.issued_on = (
                    x["term_start"],
                    x["expires_on"],
                    x["issued_on"],
                )
                if vacc is not None:
                    obj.vaccination = vacc.instance
                if obj.pk is None or obj.status in (LicenseStatus.ACTIVE, LicenseStatus.EXPIRED):
                    past = obj.expires_on < run.today  # as the year-end expiry would have
                    status = LicenseStatus.EXPIRED if past else LicenseStatus.ACTIVE
                    run.record_as(obj, status=status)
                else:
                    run.save(obj)
                lic.instance = obj
                run.lookups.add_license(obj)
                run.note_numbers(obj.number, x["receipt"])
            if x["tag"] is not None:
                run.issue_tag(lic.instance, x["tag"], self.number)
            run.remember("license", lic.key, lic.instance, lic.action, self.number)
        return {p.name: p.action for p in parts}
