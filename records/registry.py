"""Every table that holds a city's data, and how to pick one city's rows from it.

One entry per concrete model of our apps (many-to-many link tables included): the lookup
from the table to the jurisdiction, or a function giving the filter. The audit history
tables of django-simple-history are not listed: each follows its model (``tables()``),
so a model's history is exported whenever the model is. A model that holds no city data
is listed in ``EXCLUDED`` with the reason; ``tests/records/test_registry.py`` fails when a
new model is in neither, so a new table is never silently left out of an export.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from django.apps import apps
from django.core.exceptions import FieldError
from django.db import models
from django.db.models import Q

# The apps whose tables hold the cities' records (architecture.md "Layout").
OUR_APPS = (
    "ordinance",
    "kernel",
    "accounts",
    "notices",
    "licensing",
    "impound",
    "citations",
    "permits",
    "clinics",
    "rabies",
    "dangerous_dogs",
    "complaints",
    "records",
    "api",
)

Scope = Callable[[list[int], list[str]], Q]  # (jurisdiction ids, their states) -> filter


def via(path: str) -> Scope:
    """Rows whose ``path`` leads to one of the cities."""
    return lambda ids, _states: Q(**{f"{path}__in": ids})


def _rule_values(ids, states):
    # The city's own values, and the state law layer beneath them (rules.md Appendix H).
    return Q(jurisdiction__in=ids) | Q(jurisdiction__isnull=True, state__in=states)


def _users(ids, _states):
    # Staff serving the cities, residents with an owner record there, clinics' people.
    return (
        Q(jurisdictions__in=ids)
        | Q(owner_records__jurisdiction__in=ids)
        | Q(clinic_membership__clinic__jurisdictions__in=ids)
        | Q(lost_reports__jurisdiction__in=ids)  # residents who reported a lost pet there
    )


def _user_links(ids, states):
    return Q(user__in=apps.get_model("accounts.User").objects.filter(_users(ids, states)))


CITY = via("jurisdiction")

SCOPES: dict[str, Scope] = {
    # The rulebook: the cities, their rule values and fee schedule (with history), the
    # days they closed, and the event log.
    "ordinance.jurisdiction": via("id"),
    "ordinance.event": CITY,
    "ordinance.rulevalue": _rule_values,
    "ordinance.feescheduleentry": CITY,
    "ordinance.closedday": CITY,
    # The number series of every kind of record (receipts, licenses, cases, citations).
    "kernel.numberseries": CITY,
    # People. Password hashes and second factors are never exported (COLUMNS_LEFT_OUT).
    "accounts.user": _users,
    "accounts.user_jurisdictions": CITY,
    "accounts.user_groups": _user_links,
    # Documents as issued, how they were served, decisions.
    "notices.issueddocument": CITY,
    "notices.servicerecord": CITY,
    "notices.decision": CITY,
    # The registry and licensing.
    "licensing.owner": CITY,
    "licensing.premises": CITY,
    "licensing.animal": CITY,
    "licensing.ownership": via("animal__jurisdiction"),
    "licensing.rabiesvaccination": via("animal__jurisdiction"),
    "licensing.receipt": CITY,
    "licensing.receipt_regarding": via("receipt__jurisdiction"),
    "licensing.receiptline": via("receipt__jurisdiction"),
    "licensing.license": CITY,
    "licensing.licenseexemption": CITY,
    "licensing.tagstock": CITY,
    "licensing.tag": CITY,
    "licensing.closeout": CITY,
    "licensing.closeoutreceipt": via("closeout__jurisdiction"),
    "licensing.kennellicense": CITY,
    "licensing.kenneldecision": via("kennel_license__jurisdiction"),
    "licensing.kennelanimal": via("kennel_license__jurisdiction"),
    "licensing.linkattempt": via("owner__jurisdiction"),
    "licensing.onlineapplication": CITY,
    "licensing.payment": via("application__jurisdiction"),
    "licensing.reportedchange": CITY,
    "licensing.renewalreminder": via("license__jurisdiction"),
    "licensing.renewalnotice": via("owner__jurisdiction"),
    # Impound. A pound may serve several cities: it is in each one's export, with only
    # the exporting cities' links.
    "impound.pound": via("jurisdictions"),
    "impound.pound_jurisdictions": CITY,
    "impound.poundhours": via("pound__jurisdictions"),
    "impound.poundclosure": via("pound__jurisdictions"),
    "impound.impoundcase": CITY,
    "impound.casegate": via("case__jurisdiction"),
    "impound.redemption": via("case__jurisdiction"),
    "impound.sterilizationagreement": CITY,
    # Lost-pet reports: the city where lost; a match through its report.
    "impound.lostreport": CITY,
    "impound.lostmatch": via("report__jurisdiction"),
    "citations.citation": CITY,
    "permits.temporarypermit": CITY,
    "permits.horsepermit": CITY,
    "permits.wildexemption": CITY,
    # Clinics serve several cities, as pounds do.
    "clinics.clinic": via("jurisdictions"),
    "clinics.clinic_jurisdictions": CITY,
    "clinics.clinicveterinarian": via("clinic__jurisdictions"),
    "clinics.clinicmember": via("clinic__jurisdictions"),
    "clinics.certificatebatch": CITY,
    "clinics.certificatesubmission": CITY,
    "clinics.followupbatch": CITY,
    "clinics.followupletter": CITY,
    # Licenses sold at the clinic: the city's tags at a clinic, their
    # returns and losses, the sales.
    "clinics.consignmentblock": CITY,
    "clinics.consignedtag": via("block__jurisdiction"),
    "clinics.tagreconciliation": via("block__jurisdiction"),
    "clinics.clinicsale": CITY,
    # The read API's integrations of the cities and their call log.
    "api.integration": via("cities"),
    "api.integration_cities": CITY,
    "api.apicall": via("integration__cities"),
    "rabies.bitereport": CITY,
    "rabies.documentrequest": CITY,
    "rabies.labsubmission": CITY,
    "rabies.quarantine": CITY,
    "rabies.inspection": CITY,
    "rabies.exposure": CITY,
    "rabies.examinerhearing": CITY,
    "rabies.vaccinationreminder": CITY,
    "dangerous_dogs.designationcase": CITY,
    "dangerous_dogs.panelhearing": via("case__jurisdiction"),
    "dangerous_dogs.panelseat": via("hearing__case__jurisdiction"),
    "dangerous_dogs.complianceproof": via("case__jurisdiction"),
    "dangerous_dogs.registration": CITY,
    "dangerous_dogs.ownerreport": via("case__jurisdiction"),
    "dangerous_dogs.sterilizationorder": via("case__jurisdiction"),
    "dangerous_dogs.appeal": via("case__jurisdiction"),
    "dangerous_dogs.reviewrequest": via("case__jurisdiction"),
    "dangerous_dogs.charge": via("case__jurisdiction"),
    "dangerous_dogs.summarydestruction": CITY,
    "dangerous_dogs.classification": CITY,
    "complaints.complaint": CITY,
    "complaints.restraintfacts": via("complaint__jurisdiction"),
    "complaints.barkingfacts": via("complaint__jurisdiction"),
    "complaints.litterfacts": via("complaint__jurisdiction"),
    "complaints.carefacts": via("complaint__jurisdiction"),
    "complaints.entry": via("complaint__jurisdiction"),
    "complaints.contactattempt": via("complaint__jurisdiction"),
    "complaints.barkingseizure": CITY,
    # The import: its batches, what they wrote, their issues, mappings.
    "records.importbatch": CITY,
    "records.importrecord": CITY,
    "records.importissue": via("batch__jurisdiction"),
    "records.mappingtemplate": CITY,
}

EXCLUDED: dict[str, str] = {
    "accounts.user_user_permissions": (
        "Not used: a person's permissions come from their role (a group, base.roles), "
        "exported in accounts.user_groups."
    ),
    "records.dataexport": (
        "The exports themselves: their requests and downloads are in the event log."
    ),
    "records.dataexport_jurisdictions": "The cities of each export (see records.dataexport).",
    "licensing.ownersearch": (
        "The search box's copy of each owner's names and address, derived from "
        "licensing.owner (exported) and rebuilt from it by OwnerSearch.objects.refresh."
    ),
}

# Columns never written: secrets, not data (a password hash, a second factor's state).
COLUMNS_LEFT_OUT: dict[str, set[str]] = {
    "accounts.user": {"password", "is_superuser", "is_staff", "second_factor_since"},
    "api.integration": {"token_hash"},  # a credential, not data: the city makes a new token
}


@dataclass(frozen=True)
class Table:
    """One table of an export: its model, its name in the archive and its filter."""

    model: type[models.Model]
    scope: Scope
    history_of: type[models.Model] | None = None
    columns: list[models.Field] = field(default_factory=list, compare=False)

    @property
    def name(self) -> str:
        return self.model._meta.label_lower

    def queryset(self, ids: list[int], states: list[str]) -> models.QuerySet:
        """The cities' rows, each once, in primary-key order (a stable file for a diff)."""
        model = self.model
        if self.history_of is None:
            chosen = model._base_manager.filter(self.scope(ids, states))
        else:
            chosen = _history_rows(model, self.history_of, self.scope(ids, states))
        # Through a subquery, not DISTINCT: a join to a many-to-many path repeats rows, and
        # some columns (json) cannot be compared for DISTINCT.
        return model._base_manager.filter(pk__in=chosen.values("pk")).order_by("pk")


def _history_rows(historical, model, q: Q) -> models.QuerySet:
    """The history rows of the chosen records: by the same lookups where the history
    table has them (a deleted record's history too), else by the record's id."""
    try:
        rows = historical._base_manager.filter(q)
        str(rows.query)  # resolves the lookups now
        return rows
    except FieldError:
        return historical._base_manager.filter(id__in=model._base_manager.filter(q).values("pk"))


def model_label(model) -> str:
    return model._meta.label_lower


def city_models() -> Iterable[type[models.Model]]:
    """Every concrete model of our apps, link tables included, history tables not (nor a
    throwaway table a test declares under one of our apps' labels)."""
    for model in apps.get_models(include_auto_created=True):
        if model._meta.app_label not in OUR_APPS or _history_base(model) is not None:
            continue
        if model.__module__.startswith("tests."):
            continue
        yield model


def _history_base(model):
    # django-simple-history's models carry ``instance_type``, the model they record.
    return getattr(model, "instance_type", None) if hasattr(model, "history_id") else None


def _columns(model) -> list[models.Field]:
    left_out = COLUMNS_LEFT_OUT.get(model_label(model), set())
    return [f for f in model._meta.concrete_fields if f.name not in left_out]


def tables() -> list[Table]:
    """Every table of an export, each model followed by its history, in ``SCOPES`` order."""
    history = {}
    for model in apps.get_models():
        base = _history_base(model)
        if base is not None:
            history[base] = model
    found = []
    for label, scope in SCOPES.items():
        model = apps.get_model(label)
        found.append(Table(model, scope, columns=_columns(model)))
        if model in history:
            hist = history[model]
            found.append(Table(hist, scope, history_of=model, columns=_columns(hist)))
    return found
