"""The register of what each Glencoe premises may keep (rules.md REC-17): horse permits
(§702), temporary wild-animal permits (Subd. 32(A)), exemptions from the wild-animal
prohibition (Subd. 32(B), (C); WLD-05, WLD-06) and kennel licenses (Subd. 4).

An exemption is a person's finding, recorded with who, when, the section and what was
confirmed (protective devices for a veterinary hospital, zoning for a rehabilitation
program); it is ended with a reason, never deleted. The registration check below
licensing asks ``exemption_for`` through ``licensing.services.species``'s lookup hook.
"""

from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from datetime import date

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from base.together import Part, read_together
from kernel.checks import refuse_unless_serves
from licensing.models import KennelLicense, Owner, Premises
from ordinance.models import Event, Jurisdiction
from ordinance.refusals import Check, Refused
from ordinance.rules import profile_for, rule_citation
from ordinance.species import has_species_table
from permits.models import (
    BASIS_RULES,
    ExemptionBasis,
    HorsePermit,
    TemporaryPermit,
    WildExemption,
)


def has_register(jurisdiction: Jurisdiction) -> bool:
    """Whether the city's ordinance has the wild-animal rules the register serves
    (North Branch has none: rules.md section 7)."""
    return has_species_table(jurisdiction)


def _register_or_refuse(jurisdiction: Jurisdiction) -> None:
    if not has_register(jurisdiction):
        raise Refused.because(
            _("City"),
            _("%(city)s's ordinance has no wild-animal rules to record an exemption from.")
            % {"city": jurisdiction.name},
        )


def exemption_section(jurisdiction: Jurisdiction, basis: str) -> tuple[str, str]:
    """The section an exemption applies and how the profile reads its cross-reference
    error ("Subdivision 33" read as Subd. 31: Appendix D G8)."""
    rule_id = BASIS_RULES[basis]
    note = ""
    spec = profile_for(jurisdiction).sections.get(rule_id)
    if spec is not None:
        note = spec.note
    return rule_citation(jurisdiction, rule_id), note


def _exemption_checks(basis, *, protective_devices_confirmed, zoning_confirmed, section):
    checks = []
    if basis == ExemptionBasis.VETERINARY and not protective_devices_confirmed:
        checks.append(
            Check(
                _("Protective devices"),
                "fail",
                _(
                    "A veterinary hospital or clinic is exempt only with protective devices "
                    "adequate to prevent escape or injury: confirm them."
                ),
                section,
                "protective_devices_confirmed",
            )
        )
    if basis == ExemptionBasis.REHABILITATION and not zoning_confirmed:
        checks.append(
            Check(
                _("Zoning"),
                "fail",
                _(
                    "A rehabilitation program is exempt only where the premises comply with "
                    "the zoning requirements: confirm it."
                ),
                section,
                "zoning_confirmed",
            )
        )
    return checks


@dataclass(frozen=True)
class ExemptionFinding:
    """A person's finding that a premises is exempt: the basis, the holder, who confirmed
    what (protective devices, zoning), on what evidence, from when."""

    basis: str
    holder_name: str
    confirmed_by_name: str
    evidence: str
    starts_on: date
    protective_devices_confirmed: bool = False
    zoning_confirmed: bool = False
    owner: Owner | None = None


@transaction.atomic
def exemption_record(*, premises: Premises, actor, now=None, **finding) -> WildExemption:
    """Record an exemption from Subd. 31 for a premises (WLD-05, WLD-06); ``finding``:
    the fields of ``ExemptionFinding``."""
    finding = ExemptionFinding(**finding)
    jurisdiction = premises.jurisdiction
    refuse_unless_serves(actor, jurisdiction)
    _register_or_refuse(jurisdiction)
    section, note = exemption_section(jurisdiction, finding.basis)
    failed = _exemption_checks(
        finding.basis,
        protective_devices_confirmed=finding.protective_devices_confirmed,
        zoning_confirmed=finding.zoning_confirmed,
        section=section,
    )
    if finding.owner is not None and finding.owner.jurisdiction_id != jurisdiction.pk:
        failed.append(Check(_("Holder"), "fail", _("The owner is of another city."), "", "owner"))
    if failed:
        raise Refused(failed)
    now = now or timezone.now()
    exemption = WildExemption.objects.create(
        jurisdiction=jurisdiction,
        premises=premises,
        section=section,
        section_note=note,
        recorded_by=actor,
        recorded_at=now,
        **{f.name: getattr(finding, f.name) for f in dataclass_fields(finding)},
    )
    Event.record(
        "permits.exemption.recorded",
        exemption,
        actor=actor,
        at=now,
        summary=_("Exemption recorded for %(p)s: %(e)s") % {"p": premises, "e": exemption},
        data={"basis": finding.basis, "section": section, "premises": premises.pk},
    )
    return exemption


@transaction.atomic
def exemption_end(*, exemption: WildExemption, ended_on: date, reason: str, actor, now=None):
    """In force -> ended on ``ended_on``, with the reason (never deleted)."""
    refuse_unless_serves(actor, exemption.jurisdiction)
    exemption = WildExemption.objects.select_for_update().get(pk=exemption.pk)
    if exemption.ended_on is not None:
        raise Refused.because(_("Status"), _("This exemption has already ended."))
    if ended_on < exemption.starts_on or not reason.strip():
        raise Refused.because(
            _("End"),
            _("Give a reason and a date on or after the day it came into force."),
            field="end_reason",
        )
    exemption.ended_on, exemption.end_reason = ended_on, reason
    exemption.save(update_fields=["ended_on", "end_reason"])
    Event.record(
        "permits.exemption.ended",
        exemption,
        actor=actor,
        at=now,
        summary=_("Exemption ended: %(e)s") % {"e": exemption},
        data={"ended_on": ended_on.isoformat(), "reason": reason},
    )
    return exemption


def exemption_for(premises: Premises | None, owner: Owner, on: date) -> str | None:
    """The exemption in force on ``on`` for the premises (or held by the owner), as a
    sentence with its section: the lookup licensing's registration check calls."""
    rows = WildExemption.objects.filter(jurisdiction_id=owner.jurisdiction_id, starts_on__lte=on)
    rows = rows.exclude(ended_on__lt=on)
    if premises is not None:
        rows = rows.filter(premises=premises) | rows.filter(owner=owner)
    else:
        rows = rows.filter(owner=owner)
    found = rows.order_by("pk").first()
    return str(found) if found else None


def permit_link_premises(*, permit, premises: Premises, actor) -> None:
    """Record the premises a horse or temporary permit covers (the register, REC-17)."""
    refuse_unless_serves(actor, permit.jurisdiction)
    if premises.jurisdiction_id != permit.jurisdiction_id:
        raise Refused.because(_("Premises"), _("The premises are in another city."))
    if permit.premises_id is not None:
        raise Refused.because(_("Premises"), _("This permit already names its premises."))
    permit.premises = premises
    permit.save(update_fields=["premises"])
    Event.record(
        f"permits.{'horse' if isinstance(permit, HorsePermit) else 'temporary'}.premises",
        permit,
        actor=actor,
        summary=_("Permit %(n)s covers %(p)s") % {"n": permit.number or permit.pk, "p": premises},
        data={"premises": premises.pk},
    )


@dataclass
class PremisesRegister:
    """What one premises may keep: each kind's rows, current first."""

    premises: Premises
    horse_permits: list = field(default_factory=list)
    temporary_permits: list = field(default_factory=list)
    exemptions: list = field(default_factory=list)
    kennel_licenses: list = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (
            self.horse_permits or self.temporary_permits or self.exemptions or self.kennel_licenses
        )


def register_for(premises_list: list[Premises]) -> dict[int, PremisesRegister]:
    """The register of each premises, in one query whatever their number (four tables
    read together, base.together)."""
    found = {p.pk: PremisesRegister(p) for p in premises_list}
    ids = list(found)
    tables = read_together(
        {
            "horse_permits": Part(HorsePermit.objects.filter(premises_id__in=ids)),
            "temporary_permits": Part(TemporaryPermit.objects.filter(premises_id__in=ids)),
            "exemptions": Part(WildExemption.objects.filter(premises_id__in=ids)),
            "kennel_licenses": Part(KennelLicense.objects.filter(premises_id__in=ids)),
        }
    )
    for name, rows in tables.items():
        for row in rows:
            getattr(found[row.premises_id], name).append(row)
    return found


def _row(premises, what, number, holder, status, section, starts, ends) -> dict:
    return {
        "premises": premises.address,
        "premises_pk": premises.pk,
        "what": str(what),
        "number": number,
        "holder": holder,
        "status": str(status),
        "section": section,
        "starts": starts,
        "ends": ends,
    }


def register_rows(jurisdiction_ids: list[int], *, limit: int | None = None) -> list[dict]:
    """Every register entry of the cities, by premises address: four queries."""
    rows = [
        *_horse_rows(jurisdiction_ids, limit),
        *_temporary_rows(jurisdiction_ids, limit),
        *_exemption_rows(jurisdiction_ids, limit),
        *_kennel_rows(jurisdiction_ids, limit),
    ]
    rows.sort(key=lambda r: (r["premises"].lower(), r["what"], str(r["number"])))
    return rows if limit is None else rows[:limit]


def _horse_rows(ids, limit):
    found = HorsePermit.objects.filter(jurisdiction_id__in=ids, premises__isnull=False)
    for p in found.select_related("premises")[:limit]:
        status = p.get_status_display()
        yield _row(
            p.premises,
            p.kind_label(),
            p.number,
            p.applicant_name,
            status,
            p.expiry_citation,
            p.issued_on,
            p.expires_on,
        )


def _temporary_rows(ids, limit):
    found = TemporaryPermit.objects.filter(jurisdiction_id__in=ids, premises__isnull=False)
    for p in found.select_related("premises")[:limit]:
        status = p.get_status_display()
        yield _row(
            p.premises,
            p.kind_label(),
            p.number,
            p.applicant_name,
            status,
            p.max_days_citation,
            p.starts_on,
            p.ends_on,
        )


def _exemption_rows(ids, limit):
    found = WildExemption.objects.filter(jurisdiction_id__in=ids)
    for e in found.select_related("premises")[:limit]:
        status = _("Ended") if e.ended_on else _("In force")
        yield _row(
            e.premises,
            e.get_basis_display(),
            "",
            e.holder_name,
            status,
            e.section,
            e.starts_on,
            e.ended_on,
        )


def _kennel_rows(ids, limit):
    found = KennelLicense.objects.filter(jurisdiction_id__in=ids)
    for k in found.select_related("premises", "owner")[:limit]:
        yield _row(
            k.premises,
            _("Kennel license"),
            k.number,
            k.owner.name,
            k.get_status_display(),
            "",
            k.issued_on,
            k.expires_on,
        )
