"""The Animal Control Review Panel: who may sit (DD-06, MN-08) and how its finding is tallied
from the members' votes (DD-07).

A finding needs a majority of the **members** of the panel (the seats that sat), not of
those present or voting (Subd. 15(D) "A simple majority of the members of the panel"); an
absent member's vote counts for no finding.
"""

from dataclasses import dataclass
from datetime import date

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from dangerous_dogs.models import Designation, HearingFinding, PanelHearing, Seat, Vote
from notices.models import ServiceMethod
from ordinance.refusals import Check
from ordinance.rules import rule_in_force, rules_in_force

COUNCIL_SEATS = (Seat.COUNCIL, Seat.STAFF)  # a council member, or city staff in their place
ELECTOR_SEATS = (Seat.ELECTOR, Seat.VETERINARIAN)  # the elector, or a veterinarian in lieu

# The three copies of the panel's findings (Subd. 15(D)): who, and the label the page shows.
RECIPIENTS = {
    "officer": _lazy("Animal control officer"),
    "police": _lazy("Police Department"),
    "owner": _lazy("Dog owner"),
}
DISTRIBUTION_METHODS = (
    ServiceMethod.PERSONAL,
    ServiceMethod.MAIL,
    ServiceMethod.CERTIFIED,
    ServiceMethod.EMAIL,
    ServiceMethod.LEFT,
)


@dataclass(frozen=True)
class PanelRules:
    council: object  # Rule: council members on the panel
    electors: object  # Rule: electors (or a veterinarian in lieu)
    majority: object  # Rule (text): votes needed for a finding
    impartial: object | None  # Rule: Minn. Stat. 347.541 impartial hearing officer

    @property
    def members(self) -> int:
        return self.council.value + self.electors.value


def panel_rules(jurisdiction, *, on: date) -> PanelRules:
    """The panel's composition and majority, read with one query."""
    keys = ["dd_panel_council_members", "dd_panel_electors", "dd_panel_majority"]
    rules = rules_in_force(jurisdiction, keys, on=on)
    impartial = rule_in_force(jurisdiction, "dd_hearing_impartial_officer", on=on, optional=True)
    return PanelRules(*rules.values(), impartial)


# --- Who sits (DD-06, MN-08) -------------------------------------------------------------


def seat_errors(seats: list[dict], rules: PanelRules, case) -> list[Check]:
    """Each wrong seat next to its row, then the composition as a whole (DD-06)."""
    errors, names = [], set()
    for i, seat in enumerate(seats):
        errors += _one_seat(i, seat, names, rules.electors.citation)
    errors += _composition(seats, rules)
    # Minn. Stat. 347.541: a dangerous designation is heard by an impartial hearing officer;
    # the panel hears it, so each member declares no personal interest (MN-08).
    impartial = rules.impartial
    if case.designation == Designation.DANGEROUS and impartial is not None and impartial.value:
        errors += _not_impartial(seats, impartial.citation)
    return errors


def _one_seat(i: int, seat: dict, names: set, citation: str) -> list[Check]:
    where = _("Seat %(n)s") % {"n": i + 1}

    def wrong(message, field, section=citation):
        return Check(where, "fail", message, section, f"seats-{i}-{field}")

    if seat.get("seat") not in Seat.values:
        return [wrong(_("Choose the seat."), "seat", "")]
    kind = seat["seat"]
    name = (seat.get("name") or "").strip()
    replaced = (seat.get("substitute_for") or "").strip()
    errors = []
    if not name:
        errors.append(wrong(_("Name the member."), "name", ""))
    elif name.casefold() in names:
        errors.append(wrong(_("%(name)s sits twice.") % {"name": name}, "name", ""))
    names.add(name.casefold())
    if kind == Seat.STAFF and not replaced:
        message = _("City staff sit only in place of a council member: name whom they replace.")
        errors.append(wrong(message, "substitute_for"))
    if kind == Seat.ELECTOR and replaced:
        message = _(
            "The ordinance provides no substitute for the elector; the Mayor may appoint a "
            "veterinarian in lieu of the elector."
        )
        errors.append(wrong(message, "substitute_for"))
    if replaced and not (seat.get("substitution_reason") or "").strip():
        message = _(
            "Say why %(name)s is replaced: temporarily unavailable, or a personal interest in "
            "the outcome."
        ) % {"name": replaced}
        errors.append(wrong(message, "substitution_reason"))
    return errors


def _composition(seats: list[dict], rules: PanelRules) -> list[Check]:
    council = sum(1 for s in seats if s.get("seat") in COUNCIL_SEATS)
    electors = sum(1 for s in seats if s.get("seat") in ELECTOR_SEATS)
    if council == rules.council.value and electors == rules.electors.value:
        return []
    message = _(
        "The Review Panel is %(council)s council members (or their substitutes: other council "
        "members or city staff) and %(electors)s elector (or a veterinarian in lieu of the "
        "elector); these seats are %(c)s and %(e)s."
    ) % {
        "council": rules.council.value,
        "electors": rules.electors.value,
        "c": council,
        "e": electors,
    }
    return [Check(str(_("Panel")), "fail", message, rules.council.citation, "seats")]


def _not_impartial(seats: list[dict], citation: str) -> list[Check]:
    return [
        Check(
            _("Seat %(n)s") % {"n": i + 1},
            "fail",
            _(
                "%(name)s has not declared no personal interest in the outcome: a dangerous "
                "designation is heard by an impartial hearing officer."
            )
            % {"name": (seat.get("name") or "").strip() or _("This member")},
            citation,
            f"seats-{i}-impartial",
        )
        for i, seat in enumerate(seats)
        if seat.get("seat") in Seat.values and not seat.get("impartial")
    ]


# --- The finding (DD-07) -----------------------------------------------------------------


@dataclass(frozen=True)
class Tally:
    members: int
    majority: int
    dangerous: int
    potentially: int
    not_upheld: int
    absent: int
    finding: str

    @property
    def upheld(self) -> bool:
        return self.finding != HearingFinding.NOT_UPHELD

    @property
    def for_finding(self) -> int:
        """The votes behind the finding (for a finding not upheld, the votes against)."""
        return self.dangerous + self.potentially if self.upheld else self.not_upheld


def tally(votes: list[str], *, noticed: str = Designation.DANGEROUS) -> Tally:
    """The panel's finding from each member's vote (Subd. 15(D)).

    The majority is of the **members** of the panel (every seat that sat), not of those
    present: ``members // 2 + 1``; an absent member counts for no finding.

    Our reading, stated on the case page too: a member who votes "dangerous" finds the
    facts for the lesser designation as well, so the dangerous votes count toward a
    "potentially dangerous" finding when they alone are not a majority.

    The finding never exceeds the designation in the notice of intent (``noticed``): the
    owner was told what the city sought (Subd. 15(A)); a panel of a potentially dangerous
    notice finds at most a potentially dangerous dog.
    """
    members = len(votes)
    majority = members // 2 + 1
    dangerous = votes.count(Vote.DANGEROUS)
    potentially = votes.count(Vote.POTENTIALLY_DANGEROUS)
    if dangerous >= majority and noticed == Designation.DANGEROUS:
        finding = HearingFinding.DANGEROUS
    elif dangerous + potentially >= majority:
        finding = HearingFinding.POTENTIALLY_DANGEROUS
    else:
        finding = HearingFinding.NOT_UPHELD
    return Tally(
        members=members,
        majority=majority,
        dangerous=dangerous,
        potentially=potentially,
        not_upheld=votes.count(Vote.NOT_UPHELD),
        absent=votes.count(Vote.ABSENT),
        finding=finding,
    )


def hearing_tally(hearing: PanelHearing, seats=None) -> Tally | None:
    """The tally of a held hearing from its seats (pass them when already read)."""
    seats = list(hearing.seats.all()) if seats is None else seats
    if not seats or any(not s.vote for s in seats):
        return None
    return tally([s.vote for s in seats], noticed=hearing.case.designation)
