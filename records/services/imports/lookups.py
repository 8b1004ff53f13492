"""What an import chunk's rows look up besides source ids, read in bulk.

A chunk's handlers name what they will ask (``load_*``, one query per kind for the whole
chunk); the rows then ask (``owners_named``, ``animals_chipped``, ``license``, ``tag``,
``stock``, ``premises_for``) and are answered from memory, including the records earlier
rows of the chunk made and that are not written yet (``add_*``). A key nobody loaded is
read on its own, so a handler that loads nothing still gets right answers. One
``Lookups`` lives for one chunk.
"""

from django.db.models.functions import Lower

from licensing.models import (
    Animal,
    KennelLicense,
    License,
    Owner,
    Premises,
    Tag,
    TagStatus,
    TagStock,
)
from licensing.services.registry import premises_address


def _name_key(first: str, last: str) -> tuple[str, str]:
    return first.strip().lower(), last.strip().lower()


def _premises_key(address_line: str, unit: str) -> tuple[str, str]:
    address_line, unit = premises_address(address_line, unit)
    return address_line.lower(), unit.lower()


class Lookups:
    def __init__(self, run):
        self.run, self.city = run, run.city
        self._owners: dict[tuple[str, str], list] = {}
        self._owner_lasts: set[str] = set()
        self._chips: dict[str, list] = {}
        self._licenses: dict[str, object] = {}
        self._tags: dict[tuple[int, int], object] = {}
        self._tag_numbers: set[int] = set()
        self._issued: dict[int, list] = {}  # id(license) -> the tags this chunk issued it
        self._premises: dict[tuple[str, str], object] = {}
        self._stocks: list = []
        self._stock_span: tuple[int, int] | None = None
        self._kennels: dict[str, object] = {}

    def adopt(self, obj):
        """A record read from the database: its city is the run's, known without a query."""
        if getattr(obj, "jurisdiction_id", None) == self.city.pk:
            obj.jurisdiction = self.city
        return obj

    # -- owners by name -------------------------------------------------------------------

    def load_owners(self, last_names) -> None:
        lasts = {n.strip().lower() for n in last_names if n.strip()} - self._owner_lasts
        if not lasts:
            return
        self._owner_lasts |= lasts
        found = Owner.objects.annotate(_last=Lower("last_name")).filter(
            jurisdiction=self.city, _last__in=lasts, merged_into__isnull=True
        )
        for owner in found:
            self._add(self._owners, _name_key(owner.first_name, owner.last_name), owner)

    def owners_named(self, first: str, last: str) -> list:
        self.load_owners([last])
        return list(self._owners.get(_name_key(first, last), []))

    def add_owner(self, owner) -> None:
        self.load_owners([owner.last_name])
        self._add(self._owners, _name_key(owner.first_name, owner.last_name), owner)

    # -- animals by microchip -------------------------------------------------------------

    def load_chips(self, chips) -> None:
        chips = {c for c in chips if c} - set(self._chips)
        if not chips:
            return
        for chip in chips:
            self._chips[chip] = []
        for animal in Animal.objects.filter(jurisdiction=self.city, microchip__in=chips):
            self._add(self._chips, animal.microchip, animal)

    def animals_chipped(self, chip: str) -> list:
        self.load_chips([chip])
        return list(self._chips[chip])

    def add_animal(self, animal) -> None:
        if animal.microchip:
            self.load_chips([animal.microchip])
            self._add(self._chips, animal.microchip, animal)

    # -- licenses by number ---------------------------------------------------------------

    def load_licenses(self, numbers) -> None:
        numbers = {n for n in numbers if n} - set(self._licenses)
        if not numbers:
            return
        self._licenses.update(dict.fromkeys(numbers))
        for license in License.objects.filter(jurisdiction=self.city, number__in=numbers):
            self._licenses[license.number] = self.adopt(license)

    def license(self, number: str):
        self.load_licenses([number])
        return self._licenses[number]

    def add_license(self, license) -> None:
        self._licenses[license.number] = license

    # -- tags by year and number, and the stock they come from ------------------------------

    def load_tags(self, numbers) -> None:
        numbers = {n for n in numbers if n is not None} - self._tag_numbers
        if not numbers:
            return
        self._tag_numbers |= numbers
        found = Tag.objects.filter(jurisdiction=self.city, number__in=numbers).select_related(
            "license"
        )
        for tag in found:
            self._tags[(tag.year, tag.number)] = self.adopt(tag)

    def tag(self, year: int, number: int):
        self.load_tags([number])
        return self._tags.get((year, number))

    def issued_to_another(self, year: int, number: int, license):
        """The tag of that year and number if it is issued to a license other than this."""
        tag = self.tag(year, number)
        if tag is None or tag.status != TagStatus.ISSUED or tag.license is None:
            return None
        return None if same_record(tag.license, license) else tag

    def issued_tags_of(self, license) -> list:
        tags = {id(t): t for t in self._issued.get(id(license), [])}
        if license.pk is not None:
            for tag in Tag.objects.filter(license=license, status=TagStatus.ISSUED):
                tag = self._tags.get((tag.year, tag.number), tag)
                if tag.status == TagStatus.ISSUED:
                    tags[id(tag)] = tag
        return list(tags.values())

    def add_tag(self, tag) -> None:
        self.load_tags([tag.number])
        self._tags[(tag.year, tag.number)] = tag
        if tag.status == TagStatus.ISSUED and tag.license is not None:
            self._issued.setdefault(id(tag.license), []).append(tag)

    def load_stocks(self, numbers) -> None:
        """The stock rows covering any number from the lowest to the highest given."""
        numbers = [n for n in numbers if n is not None]
        if not numbers:
            return
        low, high = min(numbers), max(numbers)
        self._stock_span = (low, high)
        self._stocks = list(
            TagStock.objects.filter(
                jurisdiction=self.city, first_number__lte=high, last_number__gte=low
            )
        )

    def stock(self, year: int, number: int):
        span = self._stock_span
        if span is None or not span[0] <= number <= span[1]:
            found = TagStock.objects.filter(
                jurisdiction=self.city, year=year, first_number__lte=number, last_number__gte=number
            ).first()
            if found is not None:
                self._stocks.append(found)
            return found
        return next(
            (
                s
                for s in self._stocks
                if s.year == year and s.first_number <= number <= s.last_number
            ),
            None,
        )

    def add_stock(self, stock) -> None:
        self._stocks.append(stock)

    # -- premises by address --------------------------------------------------------------

    def load_premises(self, addresses) -> None:
        """``addresses``: (address line, unit) pairs."""
        keys = {_premises_key(a, u) for a, u in addresses if a} - set(self._premises)
        if not keys:
            return
        self._premises.update(dict.fromkeys(keys))
        found = Premises.objects.annotate(_line=Lower("address_line")).filter(
            jurisdiction=self.city, _line__in={line for line, _unit in keys}
        )
        for premises in found:
            key = _premises_key(premises.address_line, premises.unit)
            if key in keys and self._premises[key] is None:
                self._premises[key] = self.adopt(premises)

    def premises_at(self, address_line: str, unit: str):
        """The premises at that address and unit, in the database or made earlier in the
        chunk, or None."""
        self.load_premises([(address_line, unit)])
        return self._premises.get(_premises_key(address_line, unit))

    def add_premises(self, premises) -> None:
        self.load_premises([(premises.address_line, premises.unit)])
        self._premises[_premises_key(premises.address_line, premises.unit)] = premises

    # -- kennel licenses by number --------------------------------------------------------

    def load_kennels(self, numbers) -> None:
        numbers = {n for n in numbers if n} - set(self._kennels)
        if not numbers:
            return
        self._kennels.update(dict.fromkeys(numbers))
        for kennel in KennelLicense.objects.filter(jurisdiction=self.city, number__in=numbers):
            self._kennels[kennel.number] = self.adopt(kennel)

    def kennel(self, number: str):
        self.load_kennels([number])
        return self._kennels[number]

    def add_kennel(self, kennel) -> None:
        if kennel.number:
            self._kennels[kennel.number] = kennel

    def premises_for(self, owner):
        """The premises at the owner's address, one per address and unit (KEN-01), made
        (and kept for the flush) the first time the address is seen."""
        key = _premises_key(owner.address_line, owner.unit)
        self.load_premises([(owner.address_line, owner.unit)])
        if self._premises.get(key) is None:
            line, unit = premises_address(owner.address_line, owner.unit)
            premises = Premises(
                jurisdiction=self.city,
                address_line=line,
                unit=unit,
                city=owner.city,
                state=owner.state,
                postal_code=owner.postal_code,
            )
            self.run.save(premises)
            self._premises[key] = premises
        return self._premises[key]

    @staticmethod
    def _add(index: dict, key, obj) -> None:
        found = index.setdefault(key, [])
        if not any(same_record(o, obj) for o in found):
            found.append(obj)


def same_record(a, b) -> bool:
    """The same record: one object, or two read of one row (a record not written yet is
    only itself)."""
    return a is b or (a is not None and b is not None and a.pk is not None and a.pk == b.pk)
