"""A record whose status moves only through the transitions its model declares.

A model lists its transitions once, in ``TRANSITIONS``; each names the states it may
follow, the state (or states) it leads to, who may apply it, the event it records and
the rule whose section a refusal cites. ``apply`` is the only way a status changes: it
checks the table, saves and records the ``Event`` in one transaction. A sweep applies a
transition to many rows at once with ``apply_all`` (one UPDATE, one INSERT of events).

    class Quarantine(CaseRecord):
        TRANSITIONS = (
            Transition("release", HOME, RELEASED, event="rabies.quarantine.released",
                       rule="RAB-24"),
            Transition("close", OPEN, CLOSED, event="rabies.quarantine.{to}"),
        )

    quarantine.apply("release", actor=officer, at=now, summary=...)

A new kind of case is "subclass and declare"; each app's state machine reads in one place.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime

from django.contrib.contenttypes.models import ContentType
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext as __
from django.utils.translation import gettext_lazy as _

from ordinance.models import Event, Jurisdiction
from ordinance.refusals import Refused

from .kept import Kept


def _states(value) -> frozenset[str]:
    if isinstance(value, str):
        return frozenset({value})
    return frozenset(value)


@dataclass(frozen=True)
class Transition:
    """One named move of a record's status.

    ``sources``: the states it may follow; ``targets``: the state it leads to (several
    when the caller names one, as a case closes as redeemed, adopted or euthanized);
    ``event``: the ``Event`` action recorded (``{to}`` is replaced by the new state);
    ``roles``: who may apply it (empty: whoever the page let in; a sweep passes no
    actor); ``rule``: the rule ID whose section a refusal cites; ``what``: the step as a
    person names it, for a refusal ("issuing the notice of intent is not possible now").
    """

    name: str
    sources: frozenset
    targets: frozenset
    event: str
    roles: tuple[str, ...] = ()
    rule: str = ""
    what: str = ""

    def __init__(self, name, sources, targets, *, event, roles=(), rule="", what=""):
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "sources", _states(sources))
        object.__setattr__(self, "targets", _states(targets))
        object.__setattr__(self, "event", event)
        object.__setattr__(self, "roles", tuple(roles))
        object.__setattr__(self, "rule", rule)
        object.__setattr__(self, "what", what)

    def target(self, to: str | None) -> str:
        if to is None:
            if len(self.targets) != 1:
                raise ValueError(f"{self.name}: name the state it leads to ({self.targets})")
            return next(iter(self.targets))
        if to not in self.targets:
            raise ValueError(f"{self.name} does not lead to {to!r}")
        return to


class StatefulRecord(models.Model):
    """A record with a ``status`` (declared by the subclass, with its choices) that
    changes only through ``apply``."""

    TRANSITIONS: tuple[Transition, ...] = ()
    KIND = ""  # what the record is called in a refusal (default: its verbose name)

    status_changed_at = models.DateTimeField(_("status changed at"), null=True, blank=True)

    class Meta:
        abstract = True

    # --- The table ----------------------------------------------------------------

    @classmethod
    def transition(cls, name: str) -> Transition:
        for t in cls.TRANSITIONS:
            if t.name == name:
                return t
        raise LookupError(f"{cls.__name__} declares no transition {name!r}")

    def may(self, name: str, to: str | None = None) -> bool:
        """Whether the record's status allows ``name`` now (for a page's buttons)."""
        t = self.transition(name)
        return self.status in t.sources and (to is None or to in t.targets)

    def transition_to(self, status: str) -> str:
        """The name of the transition that leads from the present state to ``status``
        (a state chosen in a form); "" when none does."""
        for t in self.TRANSITIONS:
            if self.status in t.sources and status in t.targets:
                return t.name
        return ""

    def next_statuses(self) -> tuple[str, ...]:
        """Every state some transition leads to from the present one, in choice order."""
        reachable = set()
        for t in self.TRANSITIONS:
            if self.status in t.sources:
                reachable |= t.targets
        return tuple(v for v in self.status_choices() if v in reachable)

    @classmethod
    def status_choices(cls) -> dict[str, str]:
        return dict(cls._meta.get_field("status").flatchoices)

    @classmethod
    def kind_label(cls) -> str:
        return str(cls.KIND or cls._meta.verbose_name).capitalize()

    def status_label(self, status: str) -> str:
        return str(self.status_choices().get(status, status))

    def refusal_citation(self, t: Transition) -> str:
        if not t.rule or not getattr(self, "jurisdiction_id", None):
            return ""
        from ordinance.rules import rule_citation

        return rule_citation(self.jurisdiction, t.rule)

    def refuse(self, t: Transition, to: str | None, citation: str | None = None, field: str = ""):
        """The refusal of ``t`` from the record's present state: the step by its name where
        the table gives one, else the state it would lead to."""
        if t.what or to is None:
            message = __("%(record)s is %(status)s: %(what)s is not possible now.")
        else:
            message = __("%(record)s is %(status)s: it cannot become %(new)s.")
        return Refused.because(
            self.kind_label(),
            message
            % {
                "record": str(self),
                "status": self.status_label(self.status).lower(),
                "what": t.what or t.name.replace("_", " "),
                "new": self.status_label(to).lower() if to else "",
            },
            self.refusal_citation(t) if citation is None else citation,
            field=field,
        )

    # --- Applying -------------------------------------------------------------------

    def ensure(
        self, name: str, *, to: str | None = None, actor=None, citation=None, field: str = ""
    ) -> str | None:
        """The state ``name`` would lead to; ``Refused`` (with the rule's section) when
        the record's status or the actor's role does not allow it. For a transition with
        several ends and ``to`` not yet known (a hearing's finding), only the status is
        checked and None returned."""
        t = self.transition(name)
        target = None if to is None and len(t.targets) > 1 else t.target(to)
        if self.status not in t.sources:
            raise self.refuse(t, target, citation, field)
        if t.roles and actor is not None and not actor.has_role(*t.roles):
            raise Refused.because(
                self.kind_label(),
                __("Your role may not do this to %(record)s.") % {"record": str(self)},
                self.refusal_citation(t) if citation is None else citation,
            )
        return target

    def require(self, name: str, what, *, citation: str | None = None) -> None:
        """Refuse a step that does not move the record (an inspection, a report) when the
        record's state does not allow the transition ``name`` the step belongs to; ``what``
        names the step in the refusal."""
        t = self.transition(name)
        if self.status not in t.sources:
            named = Transition(t.name, t.sources, t.targets, event=t.event, rule=t.rule, what=what)
            raise self.refuse(named, None, citation)

    def apply(
        self,
        name: str,
        *,
        actor=None,
        at: datetime | None = None,
        to: str | None = None,
        summary="",
        data: dict | None = None,
        fields: Iterable[str] = (),
        citation: str | None = None,
        field: str = "",
    ) -> Event:
        """Move the record by the transition ``name``: checked, saved (with ``fields``,
        what the caller set on the row beside the status) and recorded, in one
        transaction. Returns the event. A transition with several ends needs ``to``."""
        self.transition(name).target(to)  # ValueError: a caller that names no end
        target = self.ensure(name, to=to, actor=actor, citation=citation, field=field)
        at = at or timezone.now()
        with transaction.atomic():
            self.status, self.status_changed_at = target, at
            self.save(update_fields=["status", "status_changed_at", *fields])
            return Event.record(
                self.transition(name).event.format(to=target),
                self,
                actor=actor,
                at=at,
                summary=str(summary),
                data=data,
            )

    @classmethod
    def _has_city(cls) -> bool:
        return any(f.name == "jurisdiction" for f in cls._meta.concrete_fields)

    @classmethod
    def apply_all(
        cls,
        queryset,
        name: str,
        *,
        at: datetime,
        actor=None,
        summary="",
        reason: str = "",
        to=None,
        **values,
    ) -> int:
        """Apply ``name`` to every row of ``queryset`` still in one of its source states,
        set-based (a sweep, a block of tags, an undone import): one UPDATE, one INSERT of
        events and, for a model with history, one INSERT of history rows with ``reason``
        as their change reason (``summary`` by default). ``values``: other columns the
        update sets. Call under the caller's lock."""
        t = cls.transition(name)
        target = t.target(to)
        with transaction.atomic():
            city = "jurisdiction_id" if cls._has_city() else "pk"
            rows = list(queryset.filter(status__in=t.sources).values_list("pk", city))
            if not rows:
                return 0
            pks = [pk for pk, _city in rows]
            cls._base_manager.filter(pk__in=pks).update(
                status=target, status_changed_at=at, **values
            )
            Event.objects.bulk_create(
                cls._events(rows, t.event.format(to=target), at, actor, summary)
            )
            cls._history_rows(pks, at=at, actor=actor, reason=reason or str(summary))
        return len(rows)

    @classmethod
    def _events(cls, rows, action: str, at, actor, summary):
        subject_type = ContentType.objects.get_for_model(cls, for_concrete_model=False)
        has_city = cls._has_city()
        for pk, city in rows:
            yield Event(
                action=action,
                actor=actor,
                jurisdiction_id=city if has_city else None,
                subject_type=subject_type,
                subject_id=str(pk),
                summary=str(summary)[:300],
                at=at,
            )

    @classmethod
    def _history_rows(cls, pks, *, at, actor, reason: str) -> None:
        history = getattr(cls, "history", None)
        if history is None:
            return
        history.bulk_history_create(
            list(cls._base_manager.filter(pk__in=pks)),
            update=True,
            default_user=actor,
            default_date=at,
            default_change_reason=reason[:100],
        )


class CaseRecord(StatefulRecord, Kept):
    """A city's case: a stateful record with a question for a person (the attention
    flag, shown on the dashboard until resolved) and a closing."""

    EVENT_PREFIX = ""  # the events' action prefix (default "<app>.<model>")

    attention = models.CharField(_("needs a person"), max_length=300, blank=True)
    attention_citation = models.CharField(_("section"), max_length=200, blank=True)
    attention_since = models.DateField(null=True, blank=True)
    closed_on = models.DateField(_("closed on"), null=True, blank=True)
    closing_note = models.CharField(_("closing note"), max_length=300, blank=True)

    class Meta:
        abstract = True

    @classmethod
    def event_prefix(cls) -> str:
        return cls.EVENT_PREFIX or f"{cls._meta.app_label}.{cls._meta.model_name}"

    def flag(self, reason: str, citation: str, *, on: date, actor=None, at=None) -> None:
        """Put a question before a person (a second flag replaces the first)."""
        self.attention, self.attention_citation, self.attention_since = reason[:300], citation, on
        self.save(update_fields=["attention", "attention_citation", "attention_since"])
        Event.record(
            f"{self.event_prefix()}.flagged",
            self,
            actor=actor,
            at=at,
            summary=reason,
            data={"citation": citation},
        )

    def resolve_flag(self, *, note: str, actor, at) -> None:
        reason = self.attention
        self.attention, self.attention_citation, self.attention_since = "", "", None
        self.save(update_fields=["attention", "attention_citation", "attention_since"])
        Event.record(
            f"{self.event_prefix()}.resolved",
            self,
            actor=actor,
            at=at,
            summary=note,
            data={"flag": reason},
        )


class NumberSeries(models.Model):
    """The next number of one official series of a city: receipts (no year), licenses
    of a kind and year, impound cases, bite reports ... One row per city, series and
    year, allocated under a row lock by ``kernel.numbers.allocate``."""

    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT, related_name="+")
    series = models.CharField(max_length=40)
    year = models.PositiveSmallIntegerField(default=0, help_text="0: one series for all years")
    next_number = models.PositiveIntegerField(default=1)

    class Meta:
        verbose_name_plural = _("number series")
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "series", "year"], name="number_series_unique"
            )
        ]

    def __str__(self):
        year = f" {self.year}" if self.year else ""
        return f"{self.jurisdiction} {self.series}{year}: next {self.next_number}"
