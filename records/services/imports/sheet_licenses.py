"""A spreadsheet row's license and its tag (``SheetRow``'s part): the term from the dates
or the license year (LIC-07), each date within what a record may hold, and the license
matched by its number, never rewritten once issued (the database's guard)."""

from datetime import date

from dateutil.relativedelta import relativedelta
from django.utils.translation import gettext as _

from base import dates
from licensing.models import License
from ordinance.calendar import add_calendar_days
from ordinance.rules import RuleUnavailable

from .fields import LABELS, LICENSE
from .rows import DUPLICATE, MATCHED, NOT_IMPORTED, Issue, Part
from .values import parse_int


class SheetLicense:
    """The license checks of a sheet row; the row gives ``run``, ``v``, ``issues``,
    ``_parse`` and ``_date``."""

    def _term(self) -> tuple[date | None, date | None]:
        start, expires = self._date("term_start"), self._date("expires_on")
        year = self._parse("license_year", parse_int)
        if expires is None and year:
            try:
                expiry_md = self.run.rule("license_expiry")
            except (KeyError, RuleUnavailable) as error:
                self.issues.append(Issue("license_year", str(error)))
                return None, None
            expires = expiry_md.on_year(year)
            start = start or add_calendar_days(expiry_md.on_year(year - 1), 1)
        if expires is not None and start is None:
            start = add_calendar_days(expires - relativedelta(years=1), 1)
        if expires is None:
            self.issues.append(
                Issue(
                    "expires_on",
                    _("License: map the license's expiry date or its year to import it."),
                )
            )
        return start, expires

    def license(self, animal: Part | None, owner: Part | None, vacc: Part | None) -> Part | None:
        v = self.v
        number = v.get("license_number", "")
        if not number:
            return None
        if len(number) > License._meta.get_field("number").max_length:
            self.issues.append(Issue("license_number", _("License number: too long.")))
            return None
        start, expires = self._term()
        issued = self._date("issued_on")
        tag = self._parse("tag_number", parse_int)
        receipt = self._parse("receipt_number", parse_int)
        if start is None or expires is None or animal is None or owner is None:
            if animal is None and not self.issues:  # a duplicate says why already
                self.issues.append(
                    Issue("animal_name", _("License: the row names no animal to license."))
                )
            return None
        issued = self._license_dates(start, expires, issued or start)
        part = Part(LICENSE, number)
        part.extra = {
            "term_start": start,
            "expires_on": expires,
            "issued_on": issued,
            "tag": tag,
            "receipt": receipt,
        }
        existing = self.run.find(License, "license", number)
        if existing is None:
            return self._license_match(part, animal)
        if not self._license_same(part, existing):
            return None
        if tag is not None:
            self._tag_free(expires.year, tag, existing)
        return part

    def _license_dates(self, start: date, expires: date, issued: date) -> date:
        """The term within the dates a record may hold, issued in the past, the expiry
        after the start: each one wrong is an issue. Returns the issue date."""
        low, high = dates.bounds(dates.ANY)
        for key, day in (("term_start", start), ("expires_on", expires)):
            if not low <= day <= high:
                self.issues.append(
                    Issue(key, f"{LABELS[key]}: {dates.out_of_range_message(dates.ANY)}")
                )
        low, high = dates.bounds(dates.PAST, today=self.run.today)
        if not low <= issued <= high:
            self.issues.append(
                Issue(
                    "issued_on",
                    f"{LABELS['issued_on']}: "
                    + dates.out_of_range_message(dates.PAST, future=issued > high),
                )
            )
        if expires <= start:
            self.issues.append(
                Issue("expires_on", _("License: the expiry date must be after the term starts."))
            )
        return issued

    def _license_match(self, part: Part, animal: Part) -> Part | None:
        """A license of the city under this number, not imported from this source: the
        same animal's (matched), or another's (a DUPLICATE for a clerk). A new one's tag
        must be free."""
        found = self.run.lookups.license(part.key)
        if found is None:
            tag = part.extra["tag"]
            if tag is not None:
                self._tag_free(part.extra["expires_on"].year, tag, None)
            return part
        mine = animal.instance
        if mine is None or not (
            found.animal_id == mine.pk if found.animal_id is not None else found.animal is mine
        ):
            message = _(
                "License %(number)s of this city belongs to another animal: a clerk should "
                "decide; the row is not imported."
            ) % {"number": part.key}
            self.issues.append(Issue("license_number", message, DUPLICATE))
            return None
        part.instance, part.action = found, MATCHED
        return part

    def _license_same(self, part: Part, existing) -> bool:
        """A license imported before is matched only as it was: an issued license's term
        is never rewritten (the database's guard)."""
        part.instance, x = existing, part.extra
        same = (
            existing.term_start == x["term_start"]
            and existing.expires_on == x["expires_on"]
            and existing.issued_on == x["issued_on"]
        )
        if not same:
            message = _(
                "License %(number)s was imported before with another term or issue date; an "
                "issued license is not rewritten."
            ) % {"number": part.key}
            self.issues.append(Issue("license_number", message, NOT_IMPORTED))
            return False
        part.action = MATCHED
        return True

    def _tag_free(self, year: int, tag: int, existing) -> None:
        taken = self.run.lookups.issued_to_another(year, tag, existing)
        if taken is not None:
            self.issues.append(
                Issue(
                    "tag_number",
                    _("Tag %(tag)s of %(year)s is already issued to license %(license)s.")
                    % {"tag": tag, "year": year, "license": taken.license.number},
                )
            )
