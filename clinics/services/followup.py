"""Vaccinated but unlicensed: the animals of a city with a rabies
vaccination in force and no license where the city requires one; letters (one per
owner, as a PDF) and e-mails to their owners, each sent once per animal and license
term; and their effect, the share licensed within the city's measure period.

Which animals is two answers the registry already gives, asked as database filters so a
city of thousands costs a few queries: ``standing.animals_unlicensed`` (the one answer
to "does it need a license and hold none", LIC-01, LIC-02, LIC-07, LIC-16, LIC-18) and
``vaccination.animals_vaccinated`` (the one answer to "is its vaccination in force",
RAB-01..05). Neither is decided here.

Each follow-up is a ``FollowUpLetter`` row under a unique constraint (animal, term,
channel), inserted by the run for one city under a lock on the city's row: running it
again, or two clerks at once, records and sends nothing twice. The letters are frozen in
the batch's snapshot (names, addresses, the fee with its authority, the deadline with
its section: style.md "Documents freeze their data first") and printed from it; the
e-mails are handed to a task after commit, which claims each owner's rows before
sending (``emailed_at``). The measure period is the profile's program measure
``unlicensed_followup_measure_days`` in force on the day a letter is sent, stored on its
row; it is not an ordinance rule, and the profile says so.
"""

import logging
from dataclasses import dataclass, field
from datetime import date, datetime
from itertools import groupby

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import Case, Count, DateField, Exists, OuterRef, Q, Subquery, Value, When
from django.db.models.functions import TruncMonth
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from licensing.models import Animal, License, LicenseStatus, Owner, RabiesVaccination
from licensing.services.assessment import (
    TERM_KEYS,
    became_subject_on,
    fee_lines,
    is_late,
    license_fee,
    license_term,
)
from licensing.services.reports import address_lines
from licensing.services.standing import Standing, animals_unlicensed, city_not_licensing
from licensing.services.standing import standing_rules as read_standing_rules
from licensing.services.vaccination import animals_vaccinated, vaccination_rules
from notices.snapshots import snapshot
from ordinance.calendar import add_calendar_days
from ordinance.models import Event, Jurisdiction
from ordinance.money import money_sum
from ordinance.rules import RuleUnavailable, rule_citation, rule_in_force, rules_in_force

from ..models import FollowUpBatch, FollowUpChannel, FollowUpLetter

logger = logging.getLogger(__name__)

# The profile's program measure (not an ordinance rule) and the ordinance's own deadline
# to license a dog once it is subject to licensing (LIC-03; North Branch Sec. 6-61).
MEASURE_KEY = "unlicensed_followup_measure_days"
DUE_KEY = "license_apply_within_days_of_acquisition"
ACTIONS = {
    FollowUpChannel.LETTER: "clinics.followup.letter_recorded",
    FollowUpChannel.EMAIL: "clinics.followup.email_recorded",
}
LETTERS_TEMPLATE = "clinics/unlicensed_letters.html"
# An owner no letter can be mailed to (``reports.address_lines`` gives no lines).
NO_ADDRESS = Q(owner__address_line="") | Q(owner__city="") | Q(owner__postal_code="")


@dataclass
class CityFollowUp:
    """What the follow-up can do in one city on a day: the license term its letters ask
    for, or why it does nothing there, with the section."""

    city: Jurisdiction
    term_start: date | None = None
    expires_on: date | None = None
    is_next: bool = False
    term_rules: dict = field(default_factory=dict)
    standing_rules: dict = field(default_factory=dict)
    vaccination_rules: dict = field(default_factory=dict)
    species_rule: object = None
    blocked: str = ""
    citation: str = ""


def city_followups(cities, *, on: date) -> list[CityFollowUp]:
    """Each city's plan: a city that licenses no animal (LIC-16: Glencoe 701 Subd. 2(D)
    deleted), or whose rules are not finished, is blocked with the standing service's
    own reason. Reads the rules once per city (none more within a request)."""
    plans = []
    for city in cities:
        rules = read_standing_rules(city, on=on)
        if why := city_not_licensing(city, rules):
            plans.append(CityFollowUp(city, blocked=why.reason, citation=why.citation))
            continue
        try:
            term_rules = rules_in_force(city, TERM_KEYS, on=on)
            start, expires_on, is_next = license_term(jurisdiction=city, on=on, rules=term_rules)
        except RuleUnavailable as exc:
            plans.append(CityFollowUp(city, blocked=str(exc), citation=exc.citation or ""))
            continue
        plans.append(
            CityFollowUp(
                city,
                term_start=start,
                expires_on=expires_on,
                is_next=is_next,
                term_rules=term_rules,
                standing_rules=rules,
                vaccination_rules=vaccination_rules(city, on=on),
                species_rule=rules["licensed_species"],
            )
        )
    return plans


def unlicensed_animals(plans: list[CityFollowUp], *, on: date):
    """The living animals of the plans' open cities with a vaccination in force on ``on``
    and no license they need, annotated: ``license_lapsed``, their current certificate
    (``certificate_id``, ``certificate_on``, ``certificate_clinic``) and the day each
    channel's follow-up for the city's term was sent (``letter_on``, ``email_on``). One
    query to list or count, whatever the number of animals."""
    open_plans = [p for p in plans if not p.blocked]
    cities = [p.city for p in open_plans]
    animals = animals_vaccinated(
        animals_unlicensed(
            Animal.objects.all(),
            cities,
            on=on,
            rules_by_city={p.city.pk: p.standing_rules for p in open_plans},
        ),
        cities,
        on=on,
        rules_by_city={p.city.pk: p.vaccination_rules for p in open_plans},
    )
    term = Case(
        *[When(jurisdiction_id=p.city.pk, then=Value(p.term_start)) for p in open_plans],
        default=Value(None),
        output_field=DateField(),
    )
    latest = RabiesVaccination.objects.filter(
        animal=OuterRef("pk"), vaccinated_on__lte=on
    ).order_by("-vaccinated_on", "-pk")  # vaccination.latest_vaccination's order
    sent = FollowUpLetter.objects.filter(
        animal=OuterRef("pk"), term_start=OuterRef("followup_term")
    )
    return animals.annotate(
        followup_term=term,
        certificate_id=Subquery(latest.values("pk")[:1]),
        certificate_on=Subquery(latest.values("vaccinated_on")[:1]),
        certificate_clinic=Subquery(latest.values("clinic_name")[:1]),
        letter_on=Subquery(
            sent.filter(channel=FollowUpChannel.LETTER).values("sent_on")[:1],
            output_field=DateField(),
        ),
        email_on=Subquery(
            sent.filter(channel=FollowUpChannel.EMAIL).values("sent_on")[:1],
            output_field=DateField(),
        ),
    )


def followup_counts(plans: list[CityFollowUp], *, on: date) -> dict:
    """{(city pk, species): counts} of the report: animals, letters and e-mails sent for
    the term, and those still to send (an owner with no mailing address or e-mail address
    cannot be written to). One query."""
    rows = (
        unlicensed_animals(plans, on=on)
        .values("jurisdiction_id", "species")
        .annotate(
            animals=Count("pk"),
            letters_sent=Count("pk", filter=Q(letter_on__isnull=False)),
            letters_to_send=Count("pk", filter=Q(letter_on__isnull=True) & ~NO_ADDRESS),
            emails_sent=Count("pk", filter=Q(email_on__isnull=False)),
            emails_to_send=Count("pk", filter=Q(email_on__isnull=True) & ~Q(owner__email="")),
        )
        .order_by("jurisdiction_id", "species")
    )
    return {(row["jurisdiction_id"], row["species"]): row for row in rows}


# --- The run ------------------------------------------------------------------------------


@dataclass
class CityRun:
    city: Jurisdiction
    batch: FollowUpBatch | None = None
    refused: str = ""


def followup_run(*, actor, cities, now: datetime) -> list[CityRun]:
    """Record and send the follow-ups due in each of ``cities`` (the actor's own), one
    batch per city with something new. Run twice, the second run records nothing."""
    on = timezone.localdate(now)
    served = [c for c in cities if actor.serves(c.pk)]
    return [_city_run(plan, actor=actor, now=now, on=on) for plan in city_followups(served, on=on)]


@transaction.atomic
def _city_run(plan: CityFollowUp, *, actor, now: datetime, on: date) -> CityRun:
    if plan.blocked:
        return CityRun(plan.city, refused=plan.blocked)
    try:  # the program measure (not an ordinance rule): a blank refuses, with its label
        measure = rule_in_force(plan.city, MEASURE_KEY, on=on)
    except RuleUnavailable as exc:
        return CityRun(plan.city, refused=str(exc))
    # Two runs for one city wait for each other here; the second then finds the rows the
    # first recorded (the unique constraint stands behind it, ignore_conflicts).
    list(Jurisdiction.objects.select_for_update().filter(pk=plan.city.pk).values_list("pk"))
    animals = _animals_to_write(plan, on=on)
    ends_on = add_calendar_days(on, measure.value)
    rows = _rows(animals, term_start=plan.term_start, on=on, ends_on=ends_on)
    if not rows:
        return CityRun(plan.city)
    batch = _batch_record(plan, animals, rows, actor=actor, now=now, on=on)
    if batch.email_count:
        from ..tasks import followup_emails  # the task calls back into this module

        transaction.on_commit(lambda: followup_emails.delay(batch.pk))
    return CityRun(plan.city, batch=batch)


def _animals_to_write(plan: CityFollowUp, *, on: date) -> list[Animal]:
    """The city's animals with a letter (to an owner with a mailing address) or an
    e-mail (to an owner with an e-mail address) not yet sent for the term, by owner."""
    return list(
        unlicensed_animals([plan], on=on)
        .filter(
            (Q(letter_on__isnull=True) & ~NO_ADDRESS)
            | (Q(email_on__isnull=True) & ~Q(owner__email=""))
        )
        .select_related("owner")
        .order_by("owner__last_name", "owner__first_name", "owner_id", "name", "pk")
    )


def _batch_record(plan, animals, rows, *, actor, now: datetime, on: date) -> FollowUpBatch:
    """The batch, its rows (one insert) and their Events; the letters and e-mails frozen
    in its snapshot, for the rows really inserted."""
    batch = FollowUpBatch.objects.create(
        jurisdiction=plan.city, run_by=actor, run_at=now, term_start=plan.term_start
    )
    for row in rows:
        row.batch = batch
    FollowUpLetter.objects.bulk_create(rows, ignore_conflicts=True)
    recorded = list(FollowUpLetter.objects.filter(batch=batch).select_related("animal"))
    kept = {(row.animal_id, row.channel) for row in recorded}
    batch.snapshot = snapshot(_batch_snapshot(plan, animals, kept, actor=actor, now=now, on=on))
    batch.letter_count = sum(1 for r in recorded if r.channel == FollowUpChannel.LETTER)
    batch.email_count = len(recorded) - batch.letter_count
    batch.save(update_fields=["snapshot", "letter_count", "email_count"])
    _record_events(recorded, actor=actor, now=now)
    return batch


def _rows(animals, *, term_start, on, ends_on) -> list[FollowUpLetter]:
    rows = []
    for animal in animals:
        owner = animal.owner
        mailed_to = ", ".join(owner_address(owner))
        wanted = []
        if animal.letter_on is None and mailed_to:
            wanted.append((FollowUpChannel.LETTER, mailed_to))
        if animal.email_on is None and owner.email:
            wanted.append((FollowUpChannel.EMAIL, owner.email))
        rows += [
            FollowUpLetter(
                jurisdiction_id=animal.jurisdiction_id,
                animal=animal,
                owner=owner,
                vaccination_id=animal.certificate_id,
                channel=channel,
                term_start=term_start,
                sent_on=on,
                sent_to=to[:300],
                measure_ends_on=ends_on,
            )
            for channel, to in wanted
        ]
    return rows


def _record_events(recorded: list[FollowUpLetter], *, actor, now: datetime) -> None:
    """One Event per follow-up, on the animal's history (one insert)."""
    animal_type = ContentType.objects.get_for_model(Animal, for_concrete_model=False)
    Event.objects.bulk_create(
        Event(
            action=ACTIONS[row.channel],
            actor=actor,
            at=now,
            jurisdiction_id=row.jurisdiction_id,
            subject_type=animal_type,
            subject_id=str(row.animal_id),
            summary=(
                f"Unlicensed follow-up ({row.channel}) for {row.animal.name} to "
                f"{row.sent_to}, term from {row.term_start:%Y-%m-%d}"
            )[:300],
            data={
                "batch": row.batch_id,
                "term_start": row.term_start.isoformat(),
                "vaccination": row.vaccination_id,
            },
        )
        for row in recorded
    )


def owner_address(owner: Owner) -> list[str]:
    return address_lines(
        street=owner.address_line,
        unit=owner.unit,
        city=owner.city,
        state=owner.state,
        postal_code=owner.postal_code,
    )


# --- What the letters and e-mails say (frozen in the batch) -------------------------------


def _site(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


class _Lines:
    """Each animal's line of a letter: its certificate, the deadline with its section and
    the fee with its authority, as the counter would charge it on the day (the counter's
    own functions: ``assessment.became_subject_on``, ``is_late``, ``fee_lines``)."""

    def __init__(self, plan: CityFollowUp, *, on: date):
        self.plan, self.on = plan, on
        city = plan.city
        try:
            self.due_rule = rule_in_force(city, DUE_KEY, on=on)  # LIC-03: NB Sec. 6-61
        except RuleUnavailable:
            self.due_rule = None  # the city's ordinance sets no such deadline
        try:  # FEE-01: the fee in force on the term's first day or today, the later
            self.fee, self.fee_unavailable = license_fee(city, on=max(on, plan.term_start)), ""
        except RuleUnavailable as exc:
            self.fee, self.fee_unavailable = None, str(exc)
        self.fee_section = rule_citation(city, "LIC-06")

    def line(self, animal) -> dict:
        rules, plan = self.plan.term_rules, self.plan
        subject = became_subject_on(animal, rules=rules)
        due = (
            add_calendar_days(subject, self.due_rule.value)
            if subject is not None and self.due_rule is not None
            else None
        )
        late = is_late(
            on=self.on,
            term_start=plan.term_start,
            subject_on=subject,
            renewal=plan.is_next,
            rules=rules,
        )
        lines = fee_lines(self.fee, late=late, rate=rules["late_penalty_rate"]) if self.fee else []
        standing = Standing.EXPIRED if animal.license_lapsed else Standing.REQUIRED
        return {
            "name": animal.name,
            "species": animal.get_species_display(),
            "standing": str(standing.label),
            "vaccinated_on": animal.certificate_on,
            "clinic": animal.certificate_clinic or "",
            "due_on": due,
            "due_passed": due is not None and due < self.on,
            "due_citation": self.due_rule.citation if self.due_rule else "",
            "fees": [
                {"description": ln.description, "amount": ln.amount, "authority": ln.authority}
                for ln in lines
            ],
            "total": money_sum(ln.amount for ln in lines),
            "fee_unavailable": self.fee_unavailable,
            "fee_section": self.fee_section,
            "apply_url": _site(reverse("licensing:application_start", args=[animal.pk])),
        }


def _batch_snapshot(plan, animals, kept, *, actor, now, on) -> dict:
    """The batch as printed and e-mailed: one letter per owner with a mailing address
    (the owners without one listed for the clerk), one e-mail per owner with an address."""
    city, lines = plan.city, _Lines(plan, on=on)
    letters, emails, skipped = [], [], []
    for _owner_id, group in groupby(animals, key=lambda a: a.owner_id):
        group = list(group)
        owner = group[0].owner
        by_letter = [a for a in group if (a.pk, FollowUpChannel.LETTER) in kept]
        by_email = [a for a in group if (a.pk, FollowUpChannel.EMAIL) in kept]
        if by_letter:
            letters.append(_owner_part(owner, [lines.line(a) for a in by_letter]))
        elif any(a.letter_on is None for a in group) and not owner_address(owner):
            skipped.append({"owner": owner.name, "reason": _("No mailing address")})
        if by_email:
            emails.append(
                {**_owner_part(owner, [lines.line(a) for a in by_email]), "to": owner.email}
            )
    return {
        "jurisdiction": {
            "name": city.name,
            "short_name": city.short_name,
            "seal_text": city.seal_text,
            "address": city.address,
            "phone": city.phone,
        },
        "document": {
            "title": _("Rabies vaccinated, not licensed: letters"),
            "issued_at": now,
            "issued_by": {"name": actor.get_full_name() or actor.username},
        },
        "term": {"start": plan.term_start, "expires_on": plan.expires_on},
        "sections": {
            "requirement": plan.species_rule.citation,  # LIC-01: NB Sec. 6-60
            "vaccination": rule_citation(city, "RAB-01"),  # NB Sec. 6-77
            "application": rule_citation(city, "LIC-04"),  # NB Sec. 6-61
            "tag": rule_citation(city, "LIC-08"),  # NB Sec. 6-63
        },
        "portal_url": _site(reverse("licensing:portal_home")),
        "letters": letters,
        "emails": emails,
        "skipped": skipped,
    }


def _owner_part(owner: Owner, animals: list[dict]) -> dict:
    return {
        "owner_pk": owner.pk,
        "name": owner.name,
        "address": owner_address(owner),
        "linked": owner.user_id is not None,
        "animals": animals,
        "total": money_sum(a["total"] for a in animals),
    }


# --- The e-mails (a task, after commit) -------------------------------------------------


def followup_emails_send(*, batch_pk: int, now: datetime) -> int:
    """E-mail each owner of the batch whose rows are not yet e-mailed: claim the rows
    with a conditional UPDATE, then send. Run twice, or by two workers, each owner gets
    one e-mail. Returns the number sent."""
    from notices.snapshots import thaw

    batch = FollowUpBatch.objects.select_related("jurisdiction").get(pk=batch_pk)
    data = thaw(batch.snapshot)
    sent = 0
    for entry in data.get("emails", []):
        claimed = FollowUpLetter.objects.filter(
            batch=batch,
            channel=FollowUpChannel.EMAIL,
            owner_id=entry["owner_pk"],
            emailed_at__isnull=True,
        ).update(emailed_at=now)
        if claimed and _mail(entry, data, batch=batch):
            sent += 1
    return sent


def _mail(entry: dict, data: dict, *, batch) -> bool:
    city = data["jurisdiction"]
    names = ", ".join(a["name"] for a in entry["animals"])
    subject = _("%(city)s: a license for %(animals)s") % {
        "city": city["short_name"],
        "animals": names,
    }
    body = render_to_string("clinics/emails/unlicensed_followup.txt", {**data, "entry": entry})
    try:
        EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [entry["to"]]).send()
    except Exception as exc:  # the row stays claimed: once per term, never a storm of retries
        logger.exception("Unlicensed follow-up e-mail of batch %s failed", batch.pk)
        Event.record(
            "clinics.followup.email_failed",
            batch,
            jurisdiction=batch.jurisdiction,
            summary=f"Follow-up e-mail to {entry['to']} not sent",
            data={"error": exc.__class__.__name__, "owner": entry["owner_pk"]},
        )
        return False
    return True


# --- The effect: licensed within the measure period --------------------------------------


def followup_results(*, jurisdiction_ids, start: date, end: date, on: date) -> list[dict]:
    """By city and month sent: letters and e-mails sent, the animals first written to
    that month for their term, how many of them were licensed within the measure period
    (a license issued from the day sent through ``measure_ends_on``, not void), how many
    are still within it unlicensed (the share can still grow: not ``final``), and the
    share licensed. One query."""
    earlier = FollowUpLetter.objects.filter(
        animal=OuterRef("animal"),
        term_start=OuterRef("term_start"),
        sent_on__lt=OuterRef("sent_on"),
    )
    licensed = License.objects.filter(
        animal=OuterRef("animal"),
        issued_on__gte=OuterRef("sent_on"),
        issued_on__lte=OuterRef("measure_ends_on"),
    ).exclude(status=LicenseStatus.VOID)
    first, done = ~Q(Exists(earlier)), Q(Exists(licensed))
    rows = (
        FollowUpLetter.objects.filter(
            jurisdiction_id__in=jurisdiction_ids, sent_on__gte=start, sent_on__lte=end
        )
        .annotate(month=TruncMonth("sent_on"))
        .values("jurisdiction__short_name", "month")
        .annotate(
            letters=Count("pk", filter=Q(channel=FollowUpChannel.LETTER)),
            emails=Count("pk", filter=Q(channel=FollowUpChannel.EMAIL)),
            animals=Count("animal", distinct=True, filter=first),
            licensed=Count("animal", distinct=True, filter=first & done),
            waiting=Count(
                "animal", distinct=True, filter=first & ~done & Q(measure_ends_on__gte=on)
            ),
        )
        .order_by("jurisdiction__short_name", "month")
    )
    return [_with_share(row) for row in rows]


def _with_share(row: dict) -> dict:
    """The share licensed of the animals written to; final once no period is open."""
    share = round(100 * row["licensed"] / row["animals"], 1) if row["animals"] else None
    return {
        "city": row["jurisdiction__short_name"],
        "month": row["month"],
        "letters": row["letters"],
        "emails": row["emails"],
        "animals": row["animals"],
        "licensed": row["licensed"],
        "waiting": row["waiting"],
        "share": share,
        "final": row["waiting"] == 0,
    }


def measure_rules(cities, *, on: date) -> list[dict]:
    """Each city's measure period in force, with its label and citation (the profile
    says it is a program measure, not an ordinance rule)."""
    found = []
    for city in cities:
        try:
            rule = rule_in_force(city, MEASURE_KEY, on=on)
        except RuleUnavailable as exc:
            found.append({"city": city.short_name, "text": str(exc), "citation": ""})
            continue
        found.append(
            {
                "city": city.short_name,
                "text": f"{rule.label}: {rule.display()}",
                "citation": rule.citation,
            }
        )
    return found
