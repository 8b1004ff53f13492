"""Permit sweeps and upcoming deadlines, registered with ordinance.

- ``permits.temporary_expire``: an issued temporary permit whose stored ``ends_on`` is
  before today expires (Subd. 32(A)): the show keeps its animals through its last day.
- ``permits.horse_expire``: an issued horse permit whose stored ``expires_on`` has come
  expires (702: it "shall expire on the ensuing 15th day of April").
- ``permits.horse_reminders``: the renewal reminder e-mail, once, from the stored
  ``remind_on`` (HOR-05), to an applicant who gave an address.

Each selects on the stored date and the expected state, so a second run changes nothing
and a run after days down catches up once per row (ordinance.sweeps).
"""

from collections.abc import Iterable
from datetime import date, datetime

from django.core.mail import send_mail
from django.db.models import CharField, F, Value
from django.db.models.functions import JSONObject
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from base.together import Part
from ordinance.deadlines import Deadline, UpcomingQuery, register_sweep, register_upcoming
from ordinance.models import Event
from ordinance.sweeps import run_sweep
from permits.models import HorsePermit, HorseStatus, TemporaryPermit, TemporaryStatus


@register_sweep("permits.temporary_expire")
def sweep_temporary_expire(*, now: datetime, dry_run: bool = False):
    today = timezone.localdate(now)
    return run_sweep(
        name="temporary wild-animal permits expire",
        action="permits.temporary.expired",
        due=TemporaryPermit.objects.filter(status=TemporaryStatus.ISSUED, ends_on__lt=today),
        still_applies=lambda p: p.may("expire") and p.ends_on < today,
        transition=lambda p, at: p.expire(at=at),
        now=now,
        dry_run=dry_run,
        transition_records=True,
    )


@register_sweep("permits.horse_expire")
def sweep_horse_expire(*, now: datetime, dry_run: bool = False):
    today = timezone.localdate(now)
    return run_sweep(
        name="horse permits expire",
        action="permits.horse.expired",
        due=HorsePermit.objects.filter(status=HorseStatus.ISSUED, expires_on__lte=today),
        still_applies=lambda p: p.may("expire") and p.expires_on <= today,
        transition=lambda p, at: p.expire(at=at),
        now=now,
        dry_run=dry_run,
        transition_records=True,
    )


def _remind(permit: HorsePermit, at: datetime) -> None:
    """Send the reminder and mark it sent, under the sweep's row lock (sent once)."""
    send_mail(
        _("Your horse permit %(n)s expires on %(d)s")
        % {"n": permit.number, "d": date_format(permit.expires_on, "F j, Y")},
        _(
            "Dear %(name)s,\n\nHorse permit %(n)s for %(place)s expires on %(d)s (%(s)s). "
            "To keep horses after that day, apply to the City Clerk for a new permit.\n\n"
            "%(city)s"
        )
        % {
            "name": permit.applicant_name,
            "n": permit.number,
            "place": permit.legal_description,
            "d": date_format(permit.expires_on, "F j, Y"),
            "s": permit.expiry_citation,
            "city": permit.jurisdiction.name,
        },
        None,
        [permit.applicant_email],
    )
    permit.reminder_sent_at = at
    permit.save(update_fields=["reminder_sent_at"])
    Event.record(
        "permits.horse.reminder_sent",
        permit,
        at=at,
        jurisdiction=permit.jurisdiction,
        summary=_("Renewal reminder sent to %(to)s") % {"to": permit.applicant_email},
    )


@register_sweep("permits.horse_reminders")
def sweep_horse_reminders(*, now: datetime, dry_run: bool = False):
    today = timezone.localdate(now)

    def due_now(p):
        return (
            p.status == HorseStatus.ISSUED
            and p.reminder_sent_at is None
            and p.remind_on <= today < p.expires_on
        )

    return run_sweep(
        name="horse permit renewal reminders",
        action="permits.horse.reminder_sent",
        due=HorsePermit.objects.filter(
            status=HorseStatus.ISSUED,
            reminder_sent_at__isnull=True,
            remind_on__lte=today,
            expires_on__gt=today,
        )
        .exclude(applicant_email="")
        .select_related("jurisdiction"),
        still_applies=due_now,
        transition=_remind,
        now=now,
        dry_run=dry_run,
        transition_records=True,
    )


def _upcoming_rows(model, *, status, due, citation, kind, ids, start, end):
    return (
        model.objects.filter(
            jurisdiction_id__in=ids, status=status, **{f"{due}__range": (start, end)}
        )
        .order_by()
        .values(
            row=JSONObject(
                pk=F("pk"),
                number=F("number"),
                city=F("jurisdiction__short_name"),
                due=F(due),
                citation=F(citation),
                kind=Value(kind, output_field=CharField()),
            )
        )
    )


@register_upcoming("permits.ending")
def upcoming_permits_ending(*, jurisdiction_ids, start: date, end: date) -> Iterable[Deadline]:
    """Temporary permits' last days (Subd. 32(A)) and horse permits' April 15 (702), read
    with one query: the staff home page asks every app."""
    temporary = _upcoming_rows(
        TemporaryPermit,
        status=TemporaryStatus.ISSUED,
        due="ends_on",
        citation="max_days_citation",
        kind="temporary",
        ids=jurisdiction_ids,
        start=start,
        end=end,
    )
    horse = _upcoming_rows(
        HorsePermit,
        status=HorseStatus.ISSUED,
        due="expires_on",
        citation="expiry_citation",
        kind="horse",
        ids=jurisdiction_ids,
        start=start,
        end=end,
    )
    yield UpcomingQuery(
        {"temporary": Part(temporary, rows=True), "horse": Part(horse, rows=True)},
        _permit_deadlines,
    )


def _permit_deadlines(found) -> Iterable[Deadline]:
    for row in [*found["temporary"], *found["horse"]]:
        if row["kind"] == "temporary":
            what, consequence = _("Temporary wild-animal permit ends"), _("expires the next day")
            url = reverse("permits:temporary_detail", args=[row["pk"]])
        else:
            what, consequence = _("Horse permit expires"), _("a new permit is needed")
            url = reverse("permits:horse_detail", args=[row["pk"]])
        yield Deadline(
            due=date.fromisoformat(row["due"][:10]),
            what=what,
            subject=row["number"],
            consequence=consequence,
            citation=row["citation"],
            url=url,
            jurisdiction=row["city"],
        )
