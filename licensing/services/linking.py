"""Linking a resident's online account to the owner record the clerk keeps.

A resident proves they are the owner with what is printed on their license or metal tag
and what the clerk has on file: the license number or the tag number, their last name
and their ZIP code. An exact match sets ``Owner.user``, so the portal shows them their
animals; nothing else about the owner changes.

Every try is a ``LinkAttempt`` row (the address it came from, what was typed, the
outcome), so the tries are rate-limited per account (``settings.LINK_ATTEMPTS_PER_HOUR``:
a security setting, not an ordinance value) and a clerk can read them. An owner already
linked to another account is never taken over online: the attempt waits on the owner
page for a clerk of that city, who links that account or unlinks the current one.
"""

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from kernel.checks import refuse_unless_serves
from licensing.models import License, LinkAttempt, Owner, Tag
from licensing.models.licenses import TagStatus
from ordinance.models import Event
from ordinance.refusals import Refused

Outcome = LinkAttempt.Outcome
RATE_WINDOW = timedelta(hours=1)  # the setting counts attempts per hour


@dataclass
class LinkEntry:
    """What the resident typed, as typed (kept on the attempt row) and normalized."""

    number: str
    last_name: str
    postal_code: str

    @property
    def zip5(self) -> str:
        return re.sub(r"\D", "", self.postal_code)[:5]

    @property
    def clean_number(self) -> str:
        return self.number.strip().upper()


def _owner_filter(entry: LinkEntry, prefix: str) -> Q:
    return Q(
        **{
            f"{prefix}last_name__iexact": entry.last_name.strip(),
            f"{prefix}postal_code__startswith": entry.zip5,
        }
    )


def owners_matching(entry: LinkEntry) -> list[Owner]:
    """Owners whose license number, or currently issued tag, is the number entered, and
    whose last name (any case) and ZIP code (first five digits) are the ones entered."""
    if len(entry.zip5) != 5 or not entry.clean_number or not entry.last_name.strip():
        return []
    by_license = License.objects.filter(
        _owner_filter(entry, "owner__"), number__iexact=entry.clean_number
    )
    owner_ids = set(by_license.values_list("owner_id", flat=True))
    if entry.clean_number.isdigit():
        tags = Tag.objects.filter(
            _owner_filter(entry, "license__owner__"),
            number=int(entry.clean_number),
            status=TagStatus.ISSUED,
        )
        owner_ids |= set(tags.values_list("license__owner_id", flat=True))
    return list(Owner.objects.filter(pk__in=owner_ids).order_by("pk"))


def attempts_in_window(user, *, now: datetime) -> int:
    """The guesses that count against the limit: tries that linked nothing. A refused
    (LIMITED) try does not count, so the limit lifts an hour after the last guess."""
    return LinkAttempt.objects.filter(
        user=user, at__gt=now - RATE_WINDOW, outcome__in=(Outcome.NO_MATCH, Outcome.TAKEN)
    ).count()


@transaction.atomic
def link_attempt(
    *, user, entry: LinkEntry, ip_address: str | None = None, now: datetime | None = None
) -> LinkAttempt:
    """One try at linking ``user`` to an owner record; returns the recorded attempt.

    LINKED: the owner is now (or already was) this account's. TAKEN: the owner is
    another account's; the clerk reviews. NO_MATCH: nothing matched all three.
    LIMITED: too many tries this hour; nothing was looked up.
    """
    now = now or timezone.now()
    # One account's tries queue here, so two at once cannot both pass the limit.
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    attempt = LinkAttempt(
        user=user,
        at=now,
        ip_address=ip_address,
        number_entered=entry.number.strip()[:40],
        last_name_entered=entry.last_name.strip()[:80],
        postal_code_entered=entry.postal_code.strip()[:10],
    )
    if attempts_in_window(user, now=now) >= settings.LINK_ATTEMPTS_PER_HOUR:
        attempt.outcome = Outcome.LIMITED
    else:
        attempt.outcome, attempt.owner = _decide(user, owners_matching(entry), now=now)
    attempt.save()
    return attempt


def _decide(user, owners: list[Owner], *, now) -> tuple[str, Owner | None]:
    if not owners:
        return Outcome.NO_MATCH, None
    mine = [o for o in owners if o.user_id == user.pk]
    if mine:
        return Outcome.LINKED, mine[0]
    free = [o for o in owners if o.user_id is None]
    if not free:
        return Outcome.TAKEN, owners[0]
    owner = Owner.objects.select_for_update().get(pk=free[0].pk)
    if owner.user_id is not None:  # linked by someone else a moment ago
        return Outcome.TAKEN, owner
    _set_user(owner, user, actor=user, now=now, reason="Linked online by the resident")
    return Outcome.LINKED, owner


def _set_user(owner: Owner, user, *, actor, now, reason: str) -> None:
    before = owner.user
    owner.user = user
    owner._history_user = actor  # simple-history: who changed the row, and why
    owner._change_reason = reason
    owner.save(update_fields=["user"])
    linked = user is not None
    Event.record(
        "licensing.owner.account_linked" if linked else "licensing.owner.account_unlinked",
        owner,
        actor=actor,
        at=now,
        summary=(
            f"Online account {user.username} linked to {owner.name}"
            if linked
            else f"Online account {before.username} unlinked from {owner.name}"
        ),
        data={"user": user.pk if linked else None, "previous_user": before.pk if before else None},
    )


# --- The clerk's side (owner page) ---------------------------------------------------


def pending_attempts(owner: Owner):
    """TAKEN attempts on this owner that no clerk has resolved, oldest first."""
    return (
        LinkAttempt.objects.filter(owner=owner, outcome=Outcome.TAKEN, resolved_at__isnull=True)
        .select_related("user")
        .order_by("at", "pk")
    )


def _check_clerk(actor, owner: Owner) -> None:
    refuse_unless_serves(actor, owner.jurisdiction)


@transaction.atomic
def owner_account_link(*, owner: Owner, attempt: LinkAttempt, actor, now=None) -> Owner:
    """The clerk gives the owner record to the account of a pending attempt (the one
    linked before, if any, loses it). Resolves that account's pending attempts."""
    _check_clerk(actor, owner)
    now = now or timezone.now()
    owner = Owner.objects.select_for_update().get(pk=owner.pk)
    attempt = LinkAttempt.objects.select_for_update().get(pk=attempt.pk)
    if attempt.owner_id != owner.pk or attempt.outcome != Outcome.TAKEN or attempt.resolved_at:
        raise Refused.because(
            _("Online account"), _("This request was already dealt with or is not this owner's.")
        )
    if owner.user_id != attempt.user_id:
        _set_user(owner, attempt.user, actor=actor, now=now, reason="Linked by the clerk")
    pending_attempts(owner).filter(user_id=attempt.user_id).update(
        resolved_at=now, resolved_by=actor
    )
    return owner


@transaction.atomic
def owner_account_unlink(*, owner: Owner, actor, now=None) -> Owner:
    """The clerk takes the owner record away from the account linked to it."""
    _check_clerk(actor, owner)
    owner = Owner.objects.select_for_update().get(pk=owner.pk)
    if owner.user_id is None:
        raise Refused.because(_("Online account"), _("No online account is linked."))
    _set_user(owner, None, actor=actor, now=now or timezone.now(), reason="Unlinked by the clerk")
    return owner


@transaction.atomic
def owner_account_dismiss(*, owner: Owner, attempt: LinkAttempt, actor, now=None) -> None:
    """The clerk decides a pending request is not the owner's: it is closed, unlinked."""
    _check_clerk(actor, owner)
    now = now or timezone.now()
    closed = (
        pending_attempts(owner).filter(pk=attempt.pk).update(resolved_at=now, resolved_by=actor)
    )
    if not closed:
        raise Refused.because(
            _("Online account"), _("This request was already dealt with or is not this owner's.")
        )
    Event.record(
        "licensing.owner.account_request_dismissed",
        owner,
        actor=actor,
        at=now,
        summary=f"Request of online account {attempt.user.username} to link {owner.name} dismissed",
        data={"user": attempt.user_id, "attempt": attempt.pk},
    )
