"""Renewal notices by mail: from the expiring-licenses report, one
printed notice per owner listing all of that owner's licenses expiring in the range, each
with its renewal fee (``assessment.renewal_fee_lines``, the counter's own fee) and its
deadline (the expiry date, LIC-07), with their sections; and the same owners' mailing
labels.

Rendered with WeasyPrint through ``notices.document_render`` as the tag mailing list is
(``mailing.py``): a working batch, not an issued document, so it is not archived. What
is kept is which notices were printed: one ``RenewalNotice`` row per owner, license and
renewal term under a unique constraint, and an ordinance ``Event`` for each new row.
Printing the same batch again adds nothing.
"""

from dataclasses import dataclass, field
from datetime import date, datetime
from itertools import groupby

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from licensing.models import License, Owner, RenewalNotice
from licensing.services.assessment import renewal_fee_lines
from licensing.services.reports import address_lines, expiring_licenses
from notices.services import document_render
from ordinance.calendar import add_calendar_days
from ordinance.models import Event
from ordinance.money import money_sum
from ordinance.rules import RuleUnavailable, rule_in_force

ACTION = "licensing.license.renewal_notice_printed"
# Which owners a batch takes (``forms.reports.RenewalNoticesForm``): not yet sent a
# notice (the default), those whose notice was printed today (the same batch again, and
# its labels), or every owner.
UNSENT, PRINTED_TODAY, ALL = "unsent", "today", "all"
# An Avery 5160 sheet: three labels across, ten down (paper, not ordinance values).
LABELS_ACROSS, LABELS_DOWN = 3, 10


@dataclass
class Notice:
    owner: Owner
    address: list[str]
    licenses: list[License]


@dataclass
class Batch:
    notices: list[Notice] = field(default_factory=list)
    skipped: list[dict] = field(default_factory=list)  # {"owner", "reason"}


def owner_address(owner: Owner) -> list[str]:
    return address_lines(
        street=owner.address_line,
        unit=owner.unit,
        city=owner.city,
        state=owner.state,
        postal_code=owner.postal_code,
    )


def renewal_term_start(license: License) -> date:
    """The term a renewal of ``license`` is for: it starts the day after it expires."""
    return add_calendar_days(license.expires_on, 1)


def renewal_batch(*, user, start: date, end: date, which: str = UNSENT, on: date) -> Batch:
    """The owners of the user's cities' licenses expiring in the range, one notice each;
    an owner with no mailing address is skipped, with the reason. Two queries."""
    licenses = list(
        expiring_licenses(jurisdiction_ids=user.jurisdiction_ids, start=start, end=end)
        .select_related("owner", "animal", "jurisdiction")
        .order_by("owner__last_name", "owner__first_name", "owner_id", "expires_on", "number")
    )
    printed = _printed_on(licenses)
    batch = Batch()
    for _owner_id, group in groupby(licenses, key=lambda lic: lic.owner_id):
        group = list(group)
        if not _wanted(group, printed, which=which, on=on):
            continue
        owner = group[0].owner
        address = owner_address(owner)
        if not address:
            batch.skipped.append({"owner": owner.name, "reason": _("No mailing address")})
            continue
        batch.notices.append(Notice(owner=owner, address=address, licenses=group))
    return batch


def _printed_on(licenses: list[License]) -> dict:
    """{(owner id, license id): local date its notice for the renewal term was printed}."""
    rows = RenewalNotice.objects.filter(license__in=[lic.pk for lic in licenses]).values_list(
        "owner_id", "license_id", "term_start", "printed_at"
    )
    terms = {lic.pk: renewal_term_start(lic) for lic in licenses}
    return {
        (owner, license): timezone.localdate(at)
        for owner, license, term, at in rows
        if terms.get(license) == term
    }


def _wanted(group: list[License], printed: dict, *, which: str, on: date) -> bool:
    """An owner is in an "unsent" batch while any of their licenses has no notice yet;
    the notice then lists all of them."""
    days = [printed.get((lic.owner_id, lic.pk)) for lic in group]
    if which == UNSENT:
        return any(day is None for day in days)
    if which == PRINTED_TODAY:
        return on in days
    return True


# --- Printing ---------------------------------------------------------------------------


def renewal_notices_print(*, user, start: date, end: date, which: str, now: datetime):
    """The notices PDF of the batch, and the printed records (idempotent). Returns
    (pdf bytes, batch, number of new records)."""
    on = timezone.localdate(now)
    batch = renewal_batch(user=user, start=start, end=end, which=which, on=on)
    pdf = document_render(
        template="renewal_notices.html", snapshot=_notices_snapshot(batch, user=user, now=now)
    )
    return pdf, batch, renewal_notices_record(batch, actor=user, now=now)


@transaction.atomic
def renewal_notices_record(batch: Batch, *, actor, now: datetime) -> int:
    """One row per owner, license and renewal term; an Event for each new one. Set-based:
    one read of the rows already printed, one insert of the new rows and one of their
    Events, whatever the batch size. The unique constraint settles two clerks printing
    the same batch at once (``ignore_conflicts``)."""
    wanted = [
        (notice, lic, renewal_term_start(lic), ", ".join(notice.address))
        for notice in batch.notices
        for lic in notice.licenses
    ]
    if not wanted:
        return 0
    printed = set(
        RenewalNotice.objects.filter(license__in=[lic for _n, lic, _t, _m in wanted]).values_list(
            "owner_id", "license_id", "term_start"
        )
    )
    new = [w for w in wanted if (w[0].owner.pk, w[1].pk, w[2]) not in printed]
    RenewalNotice.objects.bulk_create(
        [
            RenewalNotice(
                owner=notice.owner,
                license=lic,
                term_start=term_start,
                mailed_to=mailed_to,
                printed_at=now,
                printed_by=actor,
            )
            for notice, lic, term_start, mailed_to in new
        ],
        ignore_conflicts=True,
    )
    license_type = ContentType.objects.get_for_model(License, for_concrete_model=False)
    Event.objects.bulk_create(
        Event(
            action=ACTION,
            actor=actor,
            at=now,
            jurisdiction_id=lic.jurisdiction_id,
            subject_type=license_type,
            subject_id=str(lic.pk),
            summary=f"Renewal notice printed for {notice.owner.name}, {mailed_to}"[:300],
            data={"term_start": term_start.isoformat(), "owner": notice.owner.pk},
        )
        for notice, lic, term_start, mailed_to in new
    )
    return len(new)


def renewal_labels_pdf(*, user, start: date, end: date, which: str, now: datetime):
    """Mailing labels (a 3 x 10 sheet) for the owners of the same batch. (pdf, batch)"""
    batch = renewal_batch(user=user, start=start, end=end, which=which, on=timezone.localdate(now))
    snapshot = {
        **_header(user, title=_("Mailing labels: renewal notices"), now=now),
        "sheets": _sheets([[n.owner.name, *n.address] for n in batch.notices]),
        "skipped": batch.skipped,
    }
    return document_render(template="mailing_labels.html", snapshot=snapshot), batch


def _sheets(labels: list) -> list:
    """Labels by sheet and row of an Avery 5160 sheet (paper, not ordinance values)."""
    per_sheet = LABELS_ACROSS * LABELS_DOWN
    return [
        [
            labels[row : row + LABELS_ACROSS]
            for row in range(start, min(start + per_sheet, len(labels)), LABELS_ACROSS)
        ]
        for start in range(0, len(labels), per_sheet)
    ]


def _header(user, *, title: str, now: datetime) -> dict:
    cities = list(user.served_jurisdictions().order_by("name"))
    return {
        "jurisdiction": {"name": ", ".join(c.name for c in cities)},
        "document": {
            "title": title,
            "issued_at": now,
            "issued_by": {"name": user.get_full_name() or user.username},
        },
    }


def _notices_snapshot(batch: Batch, *, user, now: datetime) -> dict:
    rules = _Rules()
    portal = settings.SITE_URL.rstrip("/") + reverse("licensing:portal_home")
    return {
        **_header(user, title=_("Renewal notices"), now=now),
        "notices": [
            {
                "city": _city(n.licenses[0].jurisdiction),
                "owner": {"name": n.owner.name, "address": n.address},
                "licenses": [rules.line(lic) for lic in n.licenses],
                "total": money_sum(
                    line.amount for lic in n.licenses for line in rules.fees(lic)[0]
                ),
                "portal_url": portal,
            }
            for n in batch.notices
        ],
        "skipped": batch.skipped,
    }


def _city(city) -> dict:
    return {
        "name": city.name,
        "seal_text": city.seal_text,
        "address": city.address,
        "phone": city.phone,
    }


class _Rules:
    """Each city's fee and expiry section, read once per city and renewal term."""

    def __init__(self):
        self._fees, self._expiry = {}, {}

    def fees(self, lic: License) -> tuple[list, str]:
        """(fee lines, why none) of renewing ``lic`` on time."""
        key = (lic.jurisdiction_id, renewal_term_start(lic))
        if key not in self._fees:
            try:
                self._fees[key] = (renewal_fee_lines(lic.jurisdiction, term_start=key[1]), "")
            except RuleUnavailable as exc:
                self._fees[key] = ([], str(exc))
        return self._fees[key]

    def expiry_citation(self, lic: License) -> str:
        key = (lic.jurisdiction_id, lic.expires_on)
        if key not in self._expiry:
            try:  # LIC-07: the section that sets the expiry date
                self._expiry[key] = rule_in_force(
                    lic.jurisdiction, "license_expiry", on=lic.expires_on
                ).citation
            except RuleUnavailable as exc:
                self._expiry[key] = exc.citation or ""
        return self._expiry[key]

    def line(self, lic: License) -> dict:
        lines, unavailable = self.fees(lic)
        return {
            "number": lic.number,
            "animal": lic.animal.name,
            "species": lic.animal.get_species_display(),
            "expires_on": lic.expires_on,
            "expiry_citation": self.expiry_citation(lic),
            "fees": [
                {"description": ln.description, "amount": ln.amount, "authority": ln.authority}
                for ln in lines
            ],
            "fee_unavailable": unavailable,
        }
