"""Sections rabies fills on pages of the apps below it (base.sections; see apps.py).

The animal page shows staff the animal's bite reports (as the biting animal), quarantines
and exposure cases, each linked, in one query (a UNION of the three tables). Its rabies
vaccination status is licensing's own block on that page (``vaccination_status``), not
repeated here. Officers and administrators get "Report a bite". Residents and anonymous
visitors see nothing of it.
"""

from dataclasses import dataclass
from datetime import date

from django.db.models import CharField, DateField, F, Value
from django.db.models.functions import TruncDate
from django.urls import reverse

from base.compiled import CompiledOnce
from base.roles import ADMINISTRATOR, OFFICER
from rabies.models import BiteReport, Exposure, Quarantine

KINDS = {
    "bite": (BiteReport, "rabies:bite_detail"),
    "quarantine": (Quarantine, "rabies:quarantine_detail"),
    "exposure": (Exposure, "rabies:exposure_detail"),
}


@dataclass(frozen=True)
class Record:
    kind: str
    number: str
    url: str
    day: date
    until: date | None
    status: str

    @property
    def title(self) -> str:
        return f"{KINDS[self.kind][0].KIND} {self.number}"


def _records(animal):
    def rows(model, kind, day, until):
        return (
            # No ORDER BY inside a UNION's parts (SQLite refuses one; the models sort).
            model.objects.filter(animal=animal)
            .order_by()
            .annotate(
                kind=Value(kind, output_field=CharField()),
                day=day,
                until=until,
            )
            .values_list("kind", "pk", "number", "day", "until", "status")
        )

    no_end = Value(None, output_field=DateField())
    return rows(BiteReport, "bite", TruncDate("bitten_at", output_field=DateField()), no_end).union(
        rows(Quarantine, "quarantine", F("starts_on"), F("ends_on")),
        rows(Exposure, "exposure", F("exposed_on"), F("period_ends_on")),
        all=True,
    )


# The same SQL for every animal: built and compiled once per process (base.compiled).
_RECORDS = CompiledOnce(_records)


def animal_records(animal) -> list[Record]:
    """The animal's bite reports, quarantines and exposure cases, newest first (one query)."""
    union = _RECORDS.rows(animal=animal)
    found = []
    for kind, pk, number, day, until, status in union:
        model, url_name = KINDS[kind]
        found.append(
            Record(
                kind,
                number,
                reverse(url_name, args=[pk]),
                day,
                until,
                str(model.status_choices().get(status, status)),
            )
        )
    return sorted(found, key=lambda r: (r.day, r.number), reverse=True)


def animal_bites(request, *, animal):
    user = request.user
    if not user.is_authenticated or not user.is_staff_member:
        return None
    context = {"animal": animal, "records": animal_records(animal)}
    if user.has_role(OFFICER, ADMINISTRATOR):
        context["report_url"] = reverse("rabies:bite_report") + f"?animal={animal.pk}"
    return "rabies/_animal_bites.html", context
