"""Dog licences at the counter: assess, issue, renew, transfer, close, void, duplicate tags.

Rules (rules.md): LIC-01..08, LIC-10..15, FEE-01/03..05, REC-01/02, KEN-01. Every value
(ages, windows, rates, fees) is read from the city's ordinance profile or fee schedule in
force on the day; this module writes no number of days, months or dollars itself.

Gates are enforced here, not only on the page: ``licence_issue`` re-runs the assessment
inside its transaction and refuses with the reasons and their citations.
"""

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from licensing.models import (
    Animal,
    AnimalStatus,
    Licence,
    LicenceExemption,
    LicenceSeries,
    LicenceStatus,
    Ownership,
    Receipt,
    ReceiptLine,
    Tag,
    TagStatus,
)
from licensing.services.limits import passes_age, premises_limit_check
from licensing.services.numbering import (
    TagUnavailable,
    licence_number_allocate,
    receipt_number_allocate,
    tag_claim,
)
from licensing.services.registry import owner_premises
from ordinance.calendar import add_calendar_days, add_months
from ordinance.fees import fee_amount
from ordinance.models import Event
from ordinance.rules import RuleUnavailable, get_rule, get_rules

CENT = Decimal("0.01")
# A screen safeguard against a mistyped range, not an ordinance value.
MAX_TAGS_PER_BATCH = 20000

TERM_KEYS = ("license_expiry", "renewal_window_days_before_term",
             "renewal_window_days_after_term_start", "new_subject_grace_days",
             "late_penalty_rate", "license_age_months", "license_age_comparison",
             "rabies_cert_max_months_before_expiry")


class LicenceRefused(Exception):
    """The licence cannot be issued; ``reasons`` are the failed checks with citations."""

    def __init__(self, reasons):
        self.reasons = list(reasons)
        super().__init__(" ".join(str(r) for r in self.reasons))


@dataclass
class Check:
    """One line of the counter's checklist: what was checked, the result, and the section."""

    label: str
    status: str  # "ok", "fail", "info"
    message: str
    citation: str = ""

    def __str__(self):
        cite = f" ({self.citation})" if self.citation else ""
        return f"{self.message}{cite}"

    @property
    def blocks(self) -> bool:
        return self.status == "fail"


@dataclass
class FeeLine:
    code: str
    description: str
    amount: Decimal
    authority: str


@dataclass
class Assessment:
    """Everything the counter shows before issuing, and what ``licence_issue`` re-checks."""

    enabled: bool
    checks: list[Check] = field(default_factory=list)
    term_start: date | None = None
    expires_on: date | None = None
    is_renewal_window: bool = False
    fee_lines: list[FeeLine] = field(default_factory=list)
    late_penalty: bool = False
    became_subject_on: date | None = None
    vaccination: object = None

    @property
    def total(self) -> Decimal:
        return sum((line.amount for line in self.fee_lines), Decimal("0.00"))

    @property
    def can_issue(self) -> bool:
        return self.enabled and not any(c.blocks for c in self.checks)

    @property
    def refusals(self) -> list[Check]:
        return [c for c in self.checks if c.blocks]


def _d(value: date) -> str:
    return date_format(value, "F j, Y")


# --- Terms and enablement -------------------------------------------------------------

def licensing_status(*, jurisdiction, species: str, on: date) -> Check:
    """Whether this city licenses this species at all (LIC-01, LIC-16, LIC-18)."""
    try:
        enabled = get_rule(jurisdiction, "dog_license_enabled", on=on)
    except RuleUnavailable as exc:
        return Check(_("Licensing in this city"), "fail", str(exc), exc.citation or "")
    if not enabled.value:
        ref = f", {enabled.ordinance_ref}" if enabled.ordinance_ref else ""
        return Check(_("Licensing in this city"), "fail",
                     _("%(city)s does not issue dog licences: the licensing section was "
                       "deleted from its ordinance.") % {"city": jurisdiction.short_name},
                     f"{enabled.citation}{ref}")
    species_rule = get_rule(jurisdiction, "licensed_species", on=on)
    if species not in species_rule.value:
        return Check(_("Licensing in this city"), "fail",
                     _("%(city)s does not license this species.")
                     % {"city": jurisdiction.short_name}, species_rule.citation)
    return Check(_("Licensing in this city"), "ok", _("Dog licences are issued here."),
                 enabled.citation)


def licence_term(*, jurisdiction, on: date, rules=None) -> tuple[date, date, bool]:
    """(term_start, expires_on, renewal_window) of the licence applied for on ``on``.

    Licences expire on the profile's date (NB December 31, LIC-07); the term starts the
    day after the previous expiry. From ``renewal_window_days_before_term`` days before
    the next term starts (Dec 2 in NB, LIC-13) an application is for the next term.
    """
    rules = rules or get_rules(jurisdiction, TERM_KEYS, on=on)
    expiry_md = rules["license_expiry"].value
    expires_on = expiry_md.on_year(on.year)
    if on > expires_on:  # an expiry date other than Dec 31: the term rolled over already
        expires_on = expiry_md.on_year(on.year + 1)
    term_start = add_calendar_days(expiry_md.on_year(expires_on.year - 1), 1)
    next_start = add_calendar_days(expires_on, 1)
    window_opens = add_calendar_days(next_start, -rules["renewal_window_days_before_term"].value)
    if on >= window_opens:
        return next_start, expiry_md.on_year(expires_on.year + 1), True
    return term_start, expires_on, False


def became_subject_on(animal: Animal, *, rules) -> date | None:
    """Later of acquisition and the day the dog passed the licence age (LIC-03, LIC-13)."""
    age_day = None
    if animal.date_of_birth:
        reached = add_months(animal.date_of_birth, rules["license_age_months"].value)
        strict = rules["license_age_comparison"].value == "gt"
        age_day = add_calendar_days(reached, 1) if strict else reached
    candidates = [d for d in (animal.acquired_on, age_day) if d]
    return max(candidates) if candidates else None


def is_late(*, on: date, term_start: date, subject_on: date | None, renewal: bool,
            rules) -> bool:
    """LIC-13 / FEE-03: late after the window following term start, unless newly subject.

    Read as rules.md interprets NB Sec. 6-65(c): penalty when the application comes
    more than N days after the term start; none when the dog became subject after the
    term started and the application is within the grace days of that date.
    """
    if renewal:
        return False
    window_ends = add_calendar_days(term_start, rules["renewal_window_days_after_term_start"].value)
    if on <= window_ends:
        return False
    if subject_on and subject_on > term_start:
        return on > add_calendar_days(subject_on, rules["new_subject_grace_days"].value)
    return True


# --- Checks ---------------------------------------------------------------------------

def rabies_check(animal: Animal, *, expires_on: date, on: date, rule, vaccination=None):
    """LIC-05/LIC-15: a vaccination given not more than N months before the licence's
    expiry date and not after today (NB Sec. 6-61, 6-77). Returns (Check, vaccination)."""
    earliest = add_months(expires_on, -rule.value)
    candidates = [vaccination] if vaccination else list(animal.vaccinations.all())
    valid = [v for v in candidates if earliest <= v.vaccinated_on <= on]
    label = _("Rabies vaccination")
    if valid:
        best = max(valid, key=lambda v: v.vaccinated_on)
        return Check(label, "ok", _("Vaccinated %(when)s by %(vet)s: covers a licence expiring "
                                    "%(expiry)s (on or after %(earliest)s).") % {
            "when": _d(best.vaccinated_on), "vet": best.veterinarian_name,
            "expiry": _d(expires_on), "earliest": _d(earliest)}, rule.citation), best
    dates = {"expiry": _d(expires_on), "earliest": _d(earliest)}
    if not candidates:
        message = _("No rabies vaccination is on file. A licence expiring %(expiry)s needs a "
                    "vaccination given between %(earliest)s and today.") % dates
    else:
        latest = max(candidates, key=lambda v: v.vaccinated_on)
        message = _("The vaccination of %(when)s does not qualify: a licence expiring "
                    "%(expiry)s needs a vaccination given on or after %(earliest)s and not "
                    "after today.") % {**dates, "when": _d(latest.vaccinated_on)}
    return Check(label, "fail", message, rule.citation), None


def _age_check(animal, *, on, rules) -> Check:
    months, comparison = rules["license_age_months"], rules["license_age_comparison"]
    label = _("Licence required")
    if animal.date_of_birth is None:
        return Check(label, "info", _("Date of birth unknown: treated as over the licence age."),
                     months.citation)
    if passes_age(animal.date_of_birth, months=months.value, comparison=comparison.value, on=on):
        return Check(label, "ok", _("Over the licence age: a licence is required."),
                     months.citation)
    return Check(label, "info", _("Under the licence age: not yet required, may be licensed."),
                 months.citation)


def _exemption_checks(animal, *, on) -> list[Check]:
    """LIC-02: recorded exemptions are shown; the owner may still choose to license."""
    checks = [
        Check(_("Exemption"), "info",
              _("Recorded exemption: %(kind)s (%(evidence)s).")
              % {"kind": e.get_kind_display(), "evidence": e.evidence}, e.citation)
        for e in animal.licence_exemptions.all() if e.covers(on)
    ]
    if animal.is_service_animal:
        checks.append(Check(_("Exemption"), "info",
                            _("Recorded as a service or guide animal: exempt from licensing.")))
    return checks


def _duplicate_check(animal, *, term_start) -> Check | None:
    existing = [lic for lic in animal.licences.all()
                if lic.status == LicenceStatus.ACTIVE and lic.term_start == term_start]
    if existing:
        return Check(_("Existing licence"), "fail",
                     _("Already licensed for this term (licence %(number)s).")
                     % {"number": existing[0].number})
    return None


def _animal_checks(animal, owner) -> list[Check]:
    checks = []
    if not animal.is_alive():
        checks.append(Check(_("Animal"), "fail", _("The animal is recorded as %(status)s.")
                            % {"status": animal.get_status_display().lower()}))
    if owner.pk != animal.owner_id:
        checks.append(Check(_("Owner"), "fail", _("The licence must be issued to the animal's "
                                                  "recorded owner; transfer it first.")))
    if animal.premises_id is None:
        checks.append(Check(_("Premises"), "fail", _("Record where the animal is kept first.")))
    return checks


# --- Assessment -----------------------------------------------------------------------

def licence_assess(*, animal: Animal, owner, on: date, subject_on: date | None = None,
                   vaccination=None) -> Assessment:
    """All checks and fee lines for licensing ``animal`` on ``on`` (the payment date)."""
    jurisdiction = animal.jurisdiction
    status = licensing_status(jurisdiction=jurisdiction, species=animal.species, on=on)
    if status.blocks:
        return Assessment(enabled=False, checks=[status])
    try:
        rules = get_rules(jurisdiction, TERM_KEYS, on=on)
    except RuleUnavailable as exc:
        return Assessment(enabled=False, checks=[status, Check(_("Ordinance"), "fail", str(exc))])
    term_start, expires_on, renewal = licence_term(jurisdiction=jurisdiction, on=on, rules=rules)
    a = Assessment(enabled=True, checks=[status], term_start=term_start, expires_on=expires_on,
                   is_renewal_window=renewal)
    a.checks += _animal_checks(animal, owner)
    a.checks.append(_age_check(animal, on=on, rules=rules))
    a.checks += _exemption_checks(animal, on=on)
    if dup := _duplicate_check(animal, term_start=term_start):
        a.checks.append(dup)
    if animal.premises_id:
        limit = premises_limit_check(premises=animal.premises, on=on, adding=animal)
        a.checks.append(Check(_("Animal limit"), "ok" if limit.ok else "fail", limit.message,
                              limit.citation))
    rabies, a.vaccination = rabies_check(animal, expires_on=expires_on, on=on, vaccination=vaccination,
                                         rule=rules["rabies_cert_max_months_before_expiry"])
    a.checks.append(rabies)
    a.became_subject_on = subject_on or became_subject_on(animal, rules=rules)
    a.late_penalty = is_late(on=on, term_start=term_start, subject_on=a.became_subject_on,
                             renewal=renewal, rules=rules)
    _add_fee_lines(a, jurisdiction=jurisdiction, on=on, rate=rules["late_penalty_rate"])
    return a


def _add_fee_lines(a: Assessment, *, jurisdiction, on, rate) -> None:
    """FEE-01 licence fee from the schedule in force on the payment date; FEE-03 penalty."""
    try:
        fee = fee_amount(jurisdiction, "dog_license", on=on)
    except RuleUnavailable as exc:
        a.checks.append(Check(_("Licence fee"), "fail", str(exc), exc.citation or ""))
        return
    a.fee_lines.append(FeeLine(fee.code, fee.description, fee.amount, fee.authority))
    if a.late_penalty:
        penalty = (fee.amount * rate.value).quantize(CENT, rounding=ROUND_HALF_UP)
        a.fee_lines.append(FeeLine(
            "late_penalty",
            _("Late penalty (%(rate)s of the licence fee)") % {"rate": rate.display()},
            penalty, rate.citation))


# --- Receipts -------------------------------------------------------------------------

def receipt_create(*, jurisdiction, payer, lines: list[FeeLine], method: str, reference: str,
                   actor, now: datetime, voids: Receipt | None = None,
                   void_reason: str = "") -> Receipt:
    """A numbered receipt with its lines (LIC-06, REC-01); call inside a transaction.

    A void copies the original's payer snapshot, so it reads the same as the original.
    """
    number = receipt_number_allocate(jurisdiction=jurisdiction)
    receipt = Receipt.objects.create(
        jurisdiction=jurisdiction, number=number, issued_at=now, issued_by=actor, payer=payer,
        payer_name=voids.payer_name if voids else payer.name,
        payer_address=voids.payer_address if voids else payer.address, method=method,
        reference=reference, total=sum((ln.amount for ln in lines), Decimal("0.00")),
        voids=voids, void_reason=void_reason,
    )
    ReceiptLine.objects.bulk_create(
        ReceiptLine(receipt=receipt, position=i, code=ln.code, description=ln.description,
                    amount=ln.amount, authority=ln.authority)
        for i, ln in enumerate(lines)
    )
    Event.record("licensing.receipt.issued", receipt, actor=actor, at=now,
                 summary=f"Receipt {number}: {receipt.total}",
                 data={"number": number, "total": str(receipt.total)})
    return receipt


def _issue_tag(tag: Tag, *, licence: Licence, on: date) -> Tag:
    tag.status, tag.licence, tag.issued_on, tag.status_changed_on = (
        TagStatus.ISSUED, licence, on, on)
    tag.save(update_fields=["status", "licence", "issued_on", "status_changed_on"])
    return tag


@dataclass
class IssueResult:
    licence: Licence
    receipt: Receipt
    tag: Tag


def licence_issue(*, animal: Animal, owner, actor, on: date, method: str,
                  reference: str = "", tag_number: int | None = None,
                  subject_on: date | None = None, vaccination=None,
                  now: datetime | None = None) -> IssueResult:
    """Issue a dog licence, its metal tag and a numbered receipt, or raise LicenceRefused.

    One transaction: the animal row is locked (no double licence from two windows), the
    checks are re-run, then licence number, tag and receipt number are allocated.
    """
    now = now or timezone.now()
    with transaction.atomic():
        animal = Animal.objects.select_for_update(of=("self",)).select_related(
            "jurisdiction", "premises").get(pk=animal.pk)
        a = licence_assess(animal=animal, owner=owner, on=on, subject_on=subject_on,
                           vaccination=vaccination)
        if not a.can_issue:
            raise LicenceRefused(a.refusals)
        jurisdiction = animal.jurisdiction
        try:
            tag = tag_claim(jurisdiction=jurisdiction, year=a.expires_on.year, number=tag_number)
        except TagUnavailable as exc:
            raise LicenceRefused([Check(_("Tag"), "fail", str(exc))]) from exc
        receipt = receipt_create(jurisdiction=jurisdiction, payer=owner, lines=a.fee_lines,
                                 method=method, reference=reference, actor=actor, now=now)
        previous = animal.licences.exclude(status=LicenceStatus.VOID).order_by(
            "-term_start").first()
        licence = Licence.objects.create(
            jurisdiction=jurisdiction, animal=animal, owner=owner, term_start=a.term_start,
            number=licence_number_allocate(jurisdiction=jurisdiction,
                                           kind=LicenceSeries.Kind.DOG, year=a.expires_on.year),
            expires_on=a.expires_on, issued_on=on, issued_by=actor, receipt=receipt,
            vaccination=a.vaccination, late_penalty=a.late_penalty,
            became_subject_on=a.became_subject_on, renewal_of=previous,
        )
        _issue_tag(tag, licence=licence, on=on)
        Event.record("licensing.licence.issued", licence, actor=actor, at=now,
                     summary=f"Licence {licence.number}, tag {tag.number} ({tag.year})",
                     data={"receipt": receipt.number, "tag": tag.number, "year": tag.year,
                           "late_penalty": a.late_penalty, "total": str(receipt.total)})
    return IssueResult(licence=licence, receipt=receipt, tag=tag)


def receipt_void(*, receipt: Receipt, actor, reason: str, now: datetime | None = None) -> Receipt:
    """Void a receipt by a new receipt with negative lines pointing at it (LIC-06).

    The licences it paid for become void; their tags are marked void, not returned to
    stock: the metal tag is already in the owner's hands, and a reissued number could
    then be worn by two dogs (LIC-14).
    """
    now = now or timezone.now()
    with transaction.atomic():
        receipt = Receipt.objects.select_for_update().get(pk=receipt.pk)
        if receipt.voids_id is not None or Receipt.objects.filter(voids=receipt).exists():
            raise LicenceRefused([Check(_("Receipt"), "fail",
                                        _("This receipt is already voided or is itself a void."))])
        lines = [FeeLine(ln.code, _("Void: %(d)s") % {"d": ln.description}, -ln.amount,
                         ln.authority) for ln in receipt.lines.all()]
        void = receipt_create(jurisdiction=receipt.jurisdiction, payer=receipt.payer, lines=lines, method=receipt.method, reference=receipt.reference,
            actor=actor, now=now, voids=receipt, void_reason=reason)
        on = timezone.localdate(now)
        for licence in receipt.licences.all():
            _licence_set_status(licence, LicenceStatus.VOID, on=on, reason=reason)
            licence.tags.filter(status=TagStatus.ISSUED).update(
                status=TagStatus.VOID, status_changed_on=on)
            Event.record("licensing.licence.voided", licence, actor=actor, at=now,
                         summary=reason, data={"void_receipt": void.number})
        Event.record("licensing.receipt.voided", receipt, actor=actor, at=now, summary=reason,
                     data={"void_receipt": void.number})
    return void


def _licence_set_status(licence: Licence, status: str, *, on: date, reason: str) -> None:
    licence.status, licence.status_changed_on, licence.status_reason = status, on, reason
    licence.save(update_fields=["status", "status_changed_on", "status_reason"])


# --- Tags -----------------------------------------------------------------------------

def tag_replace_lost(*, licence: Licence, actor, on: date, method: str, reference: str = "",
                     tag_number: int | None = None, now: datetime | None = None) -> IssueResult:
    """LIC-10: mark the lost tag lost, charge the duplicate-tag fee, issue a new number."""
    now = now or timezone.now()
    with transaction.atomic():
        licence = Licence.objects.select_for_update().get(pk=licence.pk)
        if not licence.is_current(on):
            raise LicenceRefused([Check(_("Licence"), "fail", _("The licence is not current."))])
        fee = fee_amount(licence.jurisdiction, "duplicate_tag", on=on)
        old = licence.tags.filter(status=TagStatus.ISSUED).first()
        try:
            tag = tag_claim(jurisdiction=licence.jurisdiction, year=licence.expires_on.year,
                            number=tag_number)
        except TagUnavailable as exc:
            raise LicenceRefused([Check(_("Tag"), "fail", str(exc))]) from exc
        if old:
            old.status, old.status_changed_on = TagStatus.LOST, on
            old.save(update_fields=["status", "status_changed_on"])
            Event.record("licensing.tag.lost", old, actor=actor, at=now,
                         summary=f"Tag {old.number} ({old.year}) reported lost")
        receipt = receipt_create(
            jurisdiction=licence.jurisdiction, payer=licence.owner, method=method,
            reference=reference, actor=actor, now=now,
            lines=[FeeLine(fee.code, fee.description, fee.amount, fee.authority)])
        _issue_tag(tag, licence=licence, on=on)
        Event.record("licensing.tag.duplicate_issued", licence, actor=actor, at=now,
                     summary=f"Duplicate tag {tag.number} ({tag.year})",
                     data={"old_tag": old.number if old else None, "tag": tag.number,
                           "receipt": receipt.number})
    return IssueResult(licence=licence, receipt=receipt, tag=tag)


# --- Transfer, address change, closing -----------------------------------------------

def licence_transfer(*, licence: Licence, new_owner, actor, on: date, method: str,
                     reference: str = "", now: datetime | None = None) -> IssueResult:
    """LIC-12: the new owner takes over the licence (same number and expiry) for the fee."""
    now = now or timezone.now()
    with transaction.atomic():
        licence = Licence.objects.select_for_update(of=("self",)).select_related("animal").get(
            pk=licence.pk)
        if not licence.is_current(on):
            raise LicenceRefused([Check(_("Licence"), "fail", _("The licence is not current."))])
        if new_owner.pk == licence.owner_id or new_owner.jurisdiction_id != licence.jurisdiction_id:
            raise LicenceRefused([Check(_("New owner"), "fail",
                                        _("Choose a different owner in the same city."))])
        fee = fee_amount(licence.jurisdiction, "transfer", on=on)
        animal = licence.animal
        premises = owner_premises(new_owner)
        limit = premises_limit_check(premises=premises, on=on, adding=animal)
        if not limit.ok:
            raise LicenceRefused([Check(_("Animal limit"), "fail", limit.message, limit.citation)])
        previous_owner = licence.owner
        Ownership.objects.filter(animal=animal, ended_on__isnull=True).update(ended_on=on)
        Ownership.objects.create(animal=animal, owner=new_owner, premises=premises,
                                 started_on=on, note=_("Licence %(n)s transferred")
                                 % {"n": licence.number})
        animal.owner, animal.premises = new_owner, premises
        animal.save(update_fields=["owner", "premises"])
        licence.owner = new_owner
        licence.save(update_fields=["owner"])
        receipt = receipt_create(
            jurisdiction=licence.jurisdiction, payer=new_owner, method=method,
            reference=reference, actor=actor, now=now,
            lines=[FeeLine(fee.code, fee.description, fee.amount, fee.authority)])
        Event.record("licensing.licence.transferred", licence, actor=actor, at=now,
                     summary=f"{previous_owner.name} → {new_owner.name}",
                     data={"from_owner": previous_owner.pk, "to_owner": new_owner.pk,
                           "receipt": receipt.number})
    return IssueResult(licence=licence, receipt=receipt, tag=licence.tags.filter(
        status=TagStatus.ISSUED).first())


@dataclass
class AddressChange:
    late: bool
    due_on: date
    citation: str
    closed: bool


def licence_address_change(*, licence: Licence, moved_on: date, reported_on: date,
                           within_city: bool, address_line: str = "", unit: str = "",
                           city: str = "", postal_code: str = "", actor,
                           now: datetime | None = None) -> AddressChange:
    """LIC-11: record a move; late when reported more than N days after it.

    A move out of the city closes the licence (rules.md LIC-11: out-of-city moves are not
    covered by Sec. 6-61; treated as closing the licence) and marks the animal moved out.
    """
    now = now or timezone.now()
    rule = get_rule(licence.jurisdiction, "address_change_notice_days", on=reported_on)
    due_on = add_calendar_days(moved_on, rule.value)
    late = reported_on > due_on
    with transaction.atomic():
        licence = Licence.objects.select_for_update(of=("self",)).select_related(
            "owner", "animal").get(pk=licence.pk)
        data = {"moved_on": moved_on.isoformat(), "reported_on": reported_on.isoformat(),
                "due_on": due_on.isoformat(), "late": late, "within_city": within_city}
        if within_city:
            owner = licence.owner
            owner.address_line, owner.unit = address_line, unit
            owner.city, owner.postal_code = city or owner.city, postal_code or owner.postal_code
            owner.save()
            animal = licence.animal
            animal.premises = owner_premises(owner)
            animal.save(update_fields=["premises"])
            data["address"] = owner.address
        else:
            _licence_set_status(licence, LicenceStatus.CLOSED, on=moved_on,
                                reason=_("Moved out of the city"))
            _animal_set_status(licence.animal, AnimalStatus.TRANSFERRED_OUT, on=moved_on)
        Event.record("licensing.licence.address_changed", licence, actor=actor, at=now,
                     summary=_("Reported late") if late else _("Reported in time"), data=data)
    return AddressChange(late=late, due_on=due_on, citation=rule.citation, closed=not within_city)


def _animal_set_status(animal, status, *, on):
    animal.status, animal.status_changed_on = status, on
    animal.save(update_fields=["status", "status_changed_on"])


def licence_close(*, licence: Licence, reason: str, on: date, actor,
                  now: datetime | None = None) -> Licence:
    """The dog died or moved away: close the licence and record the animal's status."""
    now = now or timezone.now()
    statuses = {"deceased": AnimalStatus.DECEASED, "moved_away": AnimalStatus.TRANSFERRED_OUT}
    with transaction.atomic():
        licence = Licence.objects.select_for_update(of=("self",)).select_related("animal").get(
            pk=licence.pk)
        if licence.status not in (LicenceStatus.ACTIVE, LicenceStatus.EXPIRED):
            raise LicenceRefused([Check(_("Licence"), "fail",
                                        _("Only an active or expired licence can be closed."))])
        label = _("Animal died") if reason == "deceased" else _("Animal moved away")
        _licence_set_status(licence, LicenceStatus.CLOSED, on=on, reason=label)
        _animal_set_status(licence.animal, statuses[reason], on=on)
        Event.record("licensing.licence.closed", licence, actor=actor, at=now, summary=label,
                     data={"reason": reason, "on": on.isoformat()})
    return licence


def exemption_record(*, animal: Animal, kind: str, starts_on: date, evidence: str, actor,
                     ends_on: date | None = None) -> LicenceExemption:
    """LIC-02: record an exemption with its evidence; the temporary stay ends by the profile."""
    jurisdiction = animal.jurisdiction
    citation = ""
    if kind == "temporary_visitor":
        rule = get_rule(jurisdiction, "temp_visitor_exemption_days", on=starts_on)
        limit = add_calendar_days(starts_on, rule.value)
        ends_on = min(ends_on, limit) if ends_on else limit
        citation = rule.citation
    exemption = LicenceExemption.objects.create(
        jurisdiction=jurisdiction, animal=animal, kind=kind, starts_on=starts_on,
        ends_on=ends_on, evidence=evidence, citation=citation, recorded_by=actor)
    Event.record("licensing.exemption.recorded", animal, actor=actor,
                 summary=exemption.get_kind_display(), data={"exemption": exemption.pk})
    return exemption


__all__ = [
    "Assessment", "Check", "FeeLine", "IssueResult", "LicenceRefused", "licence_assess",
    "licence_address_change", "licence_close", "licence_issue", "licence_term",
    "licence_transfer", "licensing_status", "receipt_void", "tag_replace_lost",
    "exemption_record",
]


# --- Documents (notices): receipt, licence certificate, 80 mm tag-and-receipt ---------

RECEIPT_KINDS = ("receipt", "receipt_80mm")


def _receipt_context(receipt: Receipt, *, tag: Tag | None, licence: Licence | None) -> dict:
    return {
        "receipt": {
            "number": receipt.number, "issued_at": receipt.issued_at,
            "payer_name": receipt.payer_name, "payer_address": receipt.payer_address,
            "method": receipt.get_method_display(), "reference": receipt.reference,
            "total": receipt.total, "voids": receipt.voids.number if receipt.voids else None,
            "void_reason": receipt.void_reason,
            "lines": [{"description": ln.description, "amount": ln.amount,
                       "authority": ln.authority} for ln in receipt.lines.all()],
        },
        "tag": {"number": tag.number, "year": tag.year} if tag else None,
        "licence": {"number": licence.number, "expires_on": licence.expires_on,
                    "animal": licence.animal.name} if licence else None,
    }


def _certificate_context(licence: Licence, *, tag: Tag | None, on: date) -> dict:
    legend = get_rule(licence.jurisdiction, "tag_legend", on=on)
    expiry = get_rule(licence.jurisdiction, "license_expiry", on=on)
    animal, owner, vacc = licence.animal, licence.owner, licence.vaccination
    return {
        "licence": {"number": licence.number, "term_start": licence.term_start,
                    "expires_on": licence.expires_on, "issued_on": licence.issued_on,
                    "expiry_citation": expiry.citation},
        "tag": {"number": tag.number, "year": tag.year, "legend": legend.value,
                "citation": legend.citation} if tag else None,
        "animal": {"name": animal.name, "species": animal.get_species_display(),
                   "breed": animal.breed, "colour": animal.colour, "sex": animal.get_sex_display(),
                   "date_of_birth": animal.date_of_birth},
        "owner": {"name": owner.name, "address": owner.address},
        "vaccination": {"vaccinated_on": vacc.vaccinated_on, "veterinarian": vacc.veterinarian_name,
                        "rabies_tag": vacc.rabies_tag_number} if vacc else None,
    }


def receipt_documents_issue(*, receipt: Receipt, actor, tag: Tag | None = None,
                            licence: Licence | None = None, now: datetime | None = None):
    """Archive the Letter receipt and the 80 mm tag-and-receipt (LIC-06, REC-01)."""
    from notices.services import document_issue

    now = now or timezone.now()
    context = _receipt_context(receipt, tag=tag, licence=licence)
    owner_user = receipt.payer.user if receipt.payer else None
    title = _("Void receipt") if receipt.voids_id else _("Receipt")
    return [
        document_issue(kind=kind, template=f"{kind}.html", context=context, now=now,
                       jurisdiction=receipt.jurisdiction, actor=actor, title=title,
                       number=str(receipt.number), subject=receipt, owner_user=owner_user)
        for kind in RECEIPT_KINDS
    ]


def licence_certificate_issue(*, licence: Licence, actor, tag: Tag | None = None,
                              now: datetime | None = None):
    from notices.services import document_issue

    now = now or timezone.now()
    return document_issue(
        kind="licence_certificate", template="licence_certificate.html", now=now,
        context=_certificate_context(licence, tag=tag, on=licence.issued_on),
        jurisdiction=licence.jurisdiction, actor=actor, title=_("Dog licence"),
        number=licence.number, subject=licence, owner_user=licence.owner.user)


def issue_documents(result: IssueResult, *, actor, now: datetime | None = None) -> None:
    """The receipt, 80 mm slip and licence certificate for an issue, transfer or duplicate."""
    receipt_documents_issue(receipt=result.receipt, actor=actor, tag=result.tag,
                            licence=result.licence, now=now)
    licence_certificate_issue(licence=result.licence, actor=actor, tag=result.tag, now=now)


def documents_for(obj) -> dict:
    """{kind: IssuedDocument} archived for a receipt or licence, newest per kind."""
    from django.contrib.contenttypes.models import ContentType

    from notices.models import IssuedDocument

    docs = IssuedDocument.objects.filter(
        subject_type=ContentType.objects.get_for_model(obj), subject_id=obj.pk
    ).order_by("issued_at")
    return {d.kind: d for d in docs}


def tag_stock_receive(*, jurisdiction, year: int, first_number: int, last_number: int,
                      received_on: date, vendor: str, actor):
    """Enter a batch of numbered tags (LIC-08, REC-02); numbers must be new for that year."""
    from licensing.models import TagStock

    if last_number - first_number + 1 > MAX_TAGS_PER_BATCH:
        raise LicenceRefused([Check(_("Tag stock"), "fail",
                                    _("Enter at most %(n)s tags at a time.")
                                    % {"n": MAX_TAGS_PER_BATCH})])
    with transaction.atomic():
        clash = Tag.objects.filter(jurisdiction=jurisdiction, year=year,
                                   number__range=(first_number, last_number)).first()
        if clash:
            raise LicenceRefused([Check(_("Tag stock"), "fail",
                                        _("Tag %(n)s of %(y)s is already in stock.")
                                        % {"n": clash.number, "y": year})])
        stock = TagStock.objects.create(jurisdiction=jurisdiction, year=year,
                                        first_number=first_number, last_number=last_number,
                                        received_on=received_on, vendor=vendor, recorded_by=actor)
        Tag.objects.bulk_create(Tag(jurisdiction=jurisdiction, year=year, number=n, stock=stock)
                                for n in range(first_number, last_number + 1))
        Event.record("licensing.tag_stock.received", stock, actor=actor, summary=str(stock))
    return stock
