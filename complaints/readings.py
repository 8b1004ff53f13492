"""The system's reading of the facts: a proposal with its sections; the officer decides.

Pure functions: each takes the recorded facts and a ``book`` of the city's rules in
force (``rulebook``: key -> ``ordinance.rules.Rule``, only the keys the city's ordinance
has) and returns a ``Reading``. Nothing here reads the database or the clock, so the
edges are tested directly for both cities. Which tests apply is data: a city whose
profile has no such rule gets a finding that says so, never a guess (rules.md Section 0).

Rules: RES-01, RES-02 (North Branch Sec. 6-28, 6-66; Glencoe Subd. 1(O)(4)), RES-03
(Glencoe Subd. 1(O)(1)-(5) beside Subd. 3), RES-05 (North Branch Sec. 6-67; Glencoe
Subd. 5), RES-09 (North Branch Sec. 6-76; Glencoe Subd. 2(B)).
"""

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .models import BarkingPattern, LitterPlace, Location, Restraint

# Verdicts of one finding, and the proposal of a reading.
VIOLATION = "violation"
NO_VIOLATION = "no_violation"
OFFICER = "officer"  # the facts or the ordinance leave it to the officer
NO_RULE = "no_rule"  # the city's ordinance has no such rule

PROPOSALS = {
    VIOLATION: gettext_lazy("The facts meet the ordinance's test"),
    NO_VIOLATION: gettext_lazy("The facts do not meet the ordinance's test"),
    OFFICER: gettext_lazy("The officer decides"),
    NO_RULE: gettext_lazy("The city's ordinance has no such rule"),
}

RULE_KEYS = (
    "leash_max_ft",
    "leash_proximity_ft",
    "restraint_public_places",
    "restraint_electronic_device",
    "under_restraint_tests",
    "at_large_deemed_unless",
    "barking_continuous_min",
    "barking_continuous_comparison",
    "barking_intermittent_min",
    "barking_audible_distance_ft",
    "barking_exceptions",
    "feces_cleanup_own_property",
    "feces_carry_materials",
    "care_shelter_bedding",
    "care_enclosure_sanitation",
    "care_owner_obligations",
    "gl_statute_cruelty",
    "gl_statute_motor_vehicles",
)
# Statute numbers the ordinance leaves blank: the book keeps them as ``RuleNotSet`` so a
# reading can say the city has not set them (RES-13), instead of leaving them out.
STATUTE_KEYS = frozenset({"gl_statute_cruelty", "gl_statute_motor_vehicles"})


@dataclass(frozen=True)
class Finding:
    label: str
    verdict: str
    message: str
    citation: str = ""


@dataclass(frozen=True)
class Reading:
    topic: str
    proposal: str
    findings: tuple[Finding, ...]
    conflict: bool = False

    @property
    def proposal_label(self) -> str:
        return str(PROPOSALS[self.proposal])


def rulebook(jurisdiction, *, on) -> dict:
    """The city's rules the readings use, in force on ``on`` (one query; a blank the city
    has not filled is left out, so its reading says the rule is not available)."""
    from ordinance.rules import Rule, rules_in_force

    found = rules_in_force(jurisdiction, RULE_KEYS, on=on, blanks=True)
    return {
        key: rule for key, rule in found.items() if isinstance(rule, Rule) or key in STATUTE_KEYS
    }


def _proposal(findings, topic) -> Reading:
    verdicts = {f.verdict for f in findings}
    if VIOLATION in verdicts:
        proposal = VIOLATION
    elif OFFICER in verdicts:
        proposal = OFFICER
    elif NO_VIOLATION in verdicts:
        proposal = NO_VIOLATION
    else:
        proposal = NO_RULE
    return Reading(topic, proposal, tuple(findings))


# --- Restraint (RES-01..03) -------------------------------------------------------------

LEASHED = (Restraint.LEASH_HELD, Restraint.LEASH_TIED)
OWN_LAND = (Location.OWN_PREMISES, Location.FENCED)


def read_restraint(facts, book: Mapping) -> Reading:
    """North Branch's Sec. 6-28 leash rule, or Glencoe's two tests side by side."""
    if "under_restraint_tests" in book or "at_large_deemed_unless" in book:
        return _glencoe_tests(facts, book)
    if "restraint_public_places" in book and "leash_max_ft" in book:
        return _public_leash_rule(facts, book)
    return Reading(
        "restraint",
        NO_RULE,
        (Finding(_("Restraint"), NO_RULE, _("The city's ordinance sets no restraint test.")),),
    )


def _public_leash_rule(facts, book) -> Reading:
    """North Branch Sec. 6-28 ("Running at large") and Sec. 6-66 (RES-01, RES-02)."""
    places, leash = book["restraint_public_places"], book["leash_max_ft"]
    device = book.get("restraint_electronic_device")
    label = _("Running at large")
    if facts.restraint == Restraint.ELECTRONIC and device is not None and device.value:
        # rules.md RES-02: Sec. 6-66 allows the device, Sec. 6-28 does not: never classified.
        message = _(
            "%(device)s allows an electronic device, but %(leash)s deems a dog in a public "
            "place not on a chain or leash of %(max)s or less running at large. The software "
            "does not classify a dog on an electronic collar."
        ) % {"device": device.citation, "leash": leash.citation, "max": leash.display()}
        return _proposal([Finding(label, OFFICER, message, device.citation)], "restraint")
    public = facts.location in places.value
    if facts.location == Location.FENCED or facts.restraint == Restraint.ENCLOSED:
        msg = _("The dog was effectively restrained within a fenced area or enclosure.")
        return _proposal([Finding(label, NO_VIOLATION, msg, leash.citation)], "restraint")
    if facts.restraint in LEASHED:
        return _proposal([_leash_length(facts, leash, label, public)], "restraint")
    if facts.restraint == Restraint.NONE or (public and facts.restraint == Restraint.VOICE):
        msg = _("The dog was not restrained by a chain or leash of %(max)s or less.") % {
            "max": leash.display()
        }
        return _proposal([Finding(label, VIOLATION, msg, leash.citation)], "restraint")
    msg = _(
        "Whether the dog was effectively restrained from moving beyond the lot or vehicle "
        "is for the officer to decide."
    )
    return _proposal([Finding(label, OFFICER, msg, leash.citation)], "restraint")


def _leash_length(facts, leash, label, public) -> Finding:
    if not public:
        return Finding(label, NO_VIOLATION, _("The dog was on a chain or leash."), leash.citation)
    if facts.leash_length_ft is None:
        return Finding(label, OFFICER, _("Record the leash length."), leash.citation)
    words = {"length": facts.leash_length_ft, "max": leash.display()}
    if facts.leash_length_ft > leash.value:
        message = _("A leash of %(length)s feet is longer than %(max)s.") % words
        return Finding(label, VIOLATION, message, leash.citation)
    message = _("A leash of %(length)s feet is within %(max)s.") % words
    return Finding(label, NO_VIOLATION, message, leash.citation)


def _glencoe_tests(facts, book) -> Reading:
    """Subd. 1(O)(1)-(5) and Subd. 3 side by side; a disagreement goes to the officer."""
    findings = []
    under = book.get("under_restraint_tests")
    deemed = book.get("at_large_deemed_unless")
    restrained = at_large = None
    if under is not None:
        restrained = _any_of([UNDER_RESTRAINT[c](facts, book) for c in under.value])
        findings.append(_test_finding(_("Under restraint"), restrained, under.citation))
    if deemed is not None:
        excused = _any_of([AT_LARGE_UNLESS[c](facts, book) for c in deemed.value])
        at_large = None if excused is None else not excused
        findings.append(_test_finding(_("Not deemed running at large"), excused, deemed.citation))
    verdicts = set()
    if restrained is not None:
        verdicts.add(NO_VIOLATION if restrained else VIOLATION)
    if at_large is not None:
        verdicts.add(VIOLATION if at_large else NO_VIOLATION)
    if len(verdicts) == 2:
        message = _("The two tests disagree (%(a)s and %(b)s): the officer decides.") % {
            "a": under.citation,
            "b": deemed.citation,
        }
        findings.append(Finding(_("Conflict"), OFFICER, message))
        return Reading("restraint", OFFICER, tuple(findings), conflict=True)
    if None in (restrained, at_large) and (under is not None and deemed is not None):
        return Reading("restraint", OFFICER, tuple(findings))
    return _proposal(findings, "restraint")


def _any_of(results):
    if any(r is True for r in results):
        return True
    if all(r is False for r in results):
        return False
    return None


def _test_finding(label, passed, citation) -> Finding:
    if passed is None:
        return Finding(label, OFFICER, _("The facts recorded do not settle this test."), citation)
    if passed:
        return Finding(label, NO_VIOLATION, _("Met by the facts recorded."), citation)
    return Finding(label, VIOLATION, _("Not met by the facts recorded."), citation)


def _leash_rule(facts, book):
    """Subd. 1(O)(4): on a leash, shortened to the set length when anyone is near."""
    if facts.restraint != Restraint.LEASH_HELD:
        return False
    longest, near = book.get("leash_max_ft"), book.get("leash_proximity_ft")
    if longest is None or near is None:
        return None
    if facts.leash_length_ft is not None and facts.leash_length_ft <= longest.value:
        return True
    if facts.nearest_ft is None or facts.leash_length_ft is None:
        return None
    return facts.nearest_ft > near.value


UNDER_RESTRAINT = {  # Glencoe 701 Subd. 1(O)(1)-(5)
    "secure_vehicle": lambda f, b: (
        f.location == Location.VEHICLE or f.restraint == Restraint.VEHICLE
    ),
    "fence_or_building_on_own_property": lambda f, b: (
        f.restraint == Restraint.ENCLOSED and f.location in OWN_LAND
    ),
    "chained_to_fixed_object": lambda f, b: f.restraint == Restraint.LEASH_TIED,
    "leash": _leash_rule,
    "competent_person_obedient": lambda f, b: (
        (f.location in OWN_LAND or f.show_or_hunting)
        and f.handler_present
        and f.handler_capable
        and f.obedient
    ),
}

AT_LARGE_UNLESS = {  # Glencoe 701 Subd. 3
    "leash_to_immovable_object_on_own_premises": lambda f, b: (
        f.restraint == Restraint.LEASH_TIED and f.location in OWN_LAND
    ),
    "leash_with_accompanying_person": lambda f, b: (
        f.restraint == Restraint.LEASH_HELD and f.handler_present and f.handler_capable
    ),
    "confined_vehicle_building_enclosure": lambda f, b: (
        f.restraint in (Restraint.VEHICLE, Restraint.ENCLOSED) or f.location == Location.VEHICLE
    ),
}


# --- Barking (RES-05) -------------------------------------------------------------------


def read_barking(facts, book: Mapping) -> Reading:
    """North Branch ``>= 10`` minutes continuous, audible off the premises (Sec. 6-67);
    Glencoe more than 7 minutes continuous, or intermittent for more than an hour audible
    at 100 feet (Subd. 5), with its exceptions. The values and comparisons are the
    profile's."""
    if "barking_continuous_min" not in book:
        msg = _("The city's ordinance sets no barking test.")
        return Reading("barking", NO_RULE, (Finding(_("Barking"), NO_RULE, msg),))
    duration = facts.ended_at - facts.started_at
    if facts.pattern == BarkingPattern.CONTINUOUS:
        findings = [_continuous(facts, duration, book)]
    else:
        findings = [_intermittent(facts, duration, book)]
    findings += _exceptions(facts, book, findings)
    return _proposal(findings, "barking")


def _longer(duration: timedelta, rule, comparison: str) -> bool:
    limit = timedelta(minutes=rule.value)
    return duration >= limit if comparison == "gte" else duration > limit


def _minutes(duration: timedelta) -> str:
    minutes, seconds = divmod(int(duration.total_seconds()), 60)
    if seconds:
        return _("%(m)s min %(s)s s") % {"m": minutes, "s": seconds}
    return _("%(m)s min") % {"m": minutes}


def _continuous(facts, duration, book) -> Finding:
    rule = book["barking_continuous_min"]
    comparison = book["barking_continuous_comparison"].value
    label = _("Continuous barking")
    words = {"took": _minutes(duration), "limit": rule.display()}
    if comparison == "gte":
        words["test"] = _("%(limit)s or longer") % words
    else:
        words["test"] = _("more than %(limit)s") % words
    if not _longer(duration, rule, comparison):
        msg = _("%(took)s recorded; the test is %(test)s.") % words
        return Finding(label, NO_VIOLATION, msg, rule.citation)
    where = book.get("barking_audible_distance_ft")
    if where is not None and where.kind == "text" and not facts.audible_off_premises:
        msg = _("%(took)s recorded, but it must also be heard %(where)s.") % {
            **words,
            "where": where.value,
        }
        return Finding(label, NO_VIOLATION, msg, where.citation)
    msg = _("%(took)s recorded; the test is %(test)s.") % words
    return Finding(label, VIOLATION, msg, rule.citation)


def _intermittent(facts, duration, book) -> Finding:
    label = _("Intermittent barking")
    rule = book.get("barking_intermittent_min")
    if rule is None:
        continuous = book["barking_continuous_min"]
        msg = _(
            "The city's ordinance sets no length for intermittent barking; whether the dog "
            "habitually barks (at night) is for the officer."
        )
        return Finding(label, OFFICER, msg, continuous.citation)
    words = {"took": _minutes(duration), "limit": rule.display()}
    if not _longer(duration, rule, "gt"):
        msg = _("%(took)s recorded; the test is more than %(limit)s.") % words
        return Finding(label, NO_VIOLATION, msg, rule.citation)
    distance = book.get("barking_audible_distance_ft")
    if distance is None or distance.kind != "int":
        return Finding(label, VIOLATION, _("%(took)s recorded.") % words, rule.citation)
    words["distance"] = distance.display()
    if facts.distance_ft is None:
        msg = _("%(took)s recorded; record the distance it was heard from.") % words
        return Finding(label, OFFICER, msg, distance.citation)
    words["feet"] = facts.distance_ft
    if facts.distance_ft < distance.value:
        msg = _("Heard from %(feet)s feet; the test is %(distance)s or more.") % words
        return Finding(label, NO_VIOLATION, msg, distance.citation)
    msg = _("%(took)s recorded, heard from %(feet)s feet (%(distance)s or more).") % words
    return Finding(label, VIOLATION, msg, rule.citation)


EXCEPTION_LABELS = {
    "harassment": gettext_lazy("The dog was harassed"),
    "injury": gettext_lazy("The dog was injured"),
    "trespass": gettext_lazy("A trespass on the premises"),
}


def _exceptions(facts, book, findings) -> list[Finding]:
    rule = book.get("barking_exceptions")
    recorded = [code for code in EXCEPTION_LABELS if getattr(facts, code)]
    if rule is None:
        if not recorded:
            return []
        msg = _("The city's ordinance has no harassment, injury or trespass exception.")
        return [Finding(_("Exceptions"), NO_RULE, msg)]
    applies = [code for code in recorded if code in rule.value]
    if not applies:
        return []
    # Subd. 5: "It shall not be a violation": a met test no longer proposes one.
    for i, finding in enumerate(findings):
        if finding.verdict == VIOLATION:
            findings[i] = Finding(finding.label, NO_VIOLATION, finding.message, finding.citation)
    names = ", ".join(str(EXCEPTION_LABELS[code]) for code in applies)
    msg = _("Not a violation: %(names)s.") % {"names": names}
    return [Finding(_("Exceptions"), NO_VIOLATION, msg, rule.citation)]


# --- Litter (RES-09) --------------------------------------------------------------------


def read_litter(facts, book: Mapping) -> Reading:
    """Cleanup (North Branch Sec. 6-76 everywhere; Glencoe Subd. 2(B) off the owner's
    own property) and, where the city has it, carrying removal materials."""
    cleanup = book.get("feces_cleanup_own_property")
    carry = book.get("feces_carry_materials")
    if cleanup is None and carry is None:
        msg = _("The city's ordinance sets no litter rule.")
        return Reading("litter", NO_RULE, (Finding(_("Litter"), NO_RULE, msg),))
    findings = []
    if cleanup is not None:
        findings.append(_cleanup(facts, cleanup))
    findings.append(_carry(facts, carry))
    return _proposal(findings, "litter")


def _cleanup(facts, rule) -> Finding:
    label = _("Cleanup")
    if facts.place == LitterPlace.OWN_PROPERTY and not rule.value:
        msg = _("The rule covers public places and others' property, not the owner's own.")
        return Finding(label, NO_VIOLATION, msg, rule.citation)
    if facts.cleaned_up:
        return Finding(label, NO_VIOLATION, _("The feces were cleaned up."), rule.citation)
    return Finding(label, VIOLATION, _("The feces were not cleaned up."), rule.citation)


def _carry(facts, rule) -> Finding:
    label = _("Removal materials")
    if rule is None or not rule.value:
        msg = _("The city's ordinance has no rule on carrying removal materials.")
        return Finding(label, NO_RULE, msg)
    if facts.carrying_materials is None:
        msg = _("Record whether the custodian carried removal materials.")
        return Finding(label, OFFICER, msg, rule.citation)
    if facts.carrying_materials:
        return Finding(label, NO_VIOLATION, _("Carried."), rule.citation)
    return Finding(label, VIOLATION, _("Not carried."), rule.citation)


# --- Cruelty and care (RES-13) ----------------------------------------------------------

CARE_KEYS = ("care_shelter_bedding", "care_enclosure_sanitation", "care_owner_obligations")


def read_care(facts, book: Mapping) -> Reading:
    """Glencoe's care rules (Subds. 10(A), 10(B), 11) and the incorporated state statutes
    (Subd. 9, numbers blank until the city sets them); a city without care rules says so
    (North Branch: an agent's inspection power only, Sec. 6-96(5), recorded as an entry)."""
    if not any(key in book for key in CARE_KEYS):
        msg = _(
            "The city's ordinance sets no care standards; record an inspection under the "
            "entry powers. State law on cruelty applies as it stands."
        )
        return Reading("care", NO_RULE, (Finding(_("Care"), NO_RULE, msg),))
    findings = []
    shelter = book.get("care_shelter_bedding")
    if shelter is not None:
        findings.append(_shelter(facts, shelter))
    sanitation = book.get("care_enclosure_sanitation")
    if sanitation is not None:
        findings.append(
            _observed(
                _("Enclosure"),
                facts.enclosure_soiled,
                sanitation,
                bad=True,
                yes=_("Feces, urine or food scraps were left in the enclosure too long."),
                no=_("The enclosure was kept clean."),
            )
        )
    care = book.get("care_owner_obligations")
    if care is not None:
        findings.extend(_owner_obligations(facts, care))
    findings.extend(_statutes(facts, book))
    return _proposal(findings, "care")


def _observed(label, value, rule, *, bad: bool, yes: str, no: str) -> Finding:
    """One observation against one rule: ``bad`` says which answer breaks it."""
    if value is None:
        return Finding(label, OFFICER, _("Not recorded."), rule.citation)
    if value is bad:
        return Finding(label, VIOLATION, yes if value else no, rule.citation)
    return Finding(label, NO_VIOLATION, yes if value else no, rule.citation)


def _shelter(facts, rule) -> Finding:
    label = _("Shelter and bedding")
    if facts.kept_outdoors is False:
        msg = _("Kept indoors or in a heated enclosure: the rule does not apply.")
        return Finding(label, NO_VIOLATION, msg, rule.citation)
    if facts.kept_outdoors is None:
        return Finding(label, OFFICER, _("Record whether the dog is kept outdoors."), rule.citation)
    return _observed(
        label,
        facts.shelter_and_bedding,
        rule,
        bad=False,
        yes=_("Kept outdoors with shelter and bedding."),
        no=_("Kept outdoors without shelter and bedding."),
    )


def _owner_obligations(facts, rule) -> list[Finding]:
    return [
        _observed(
            _("Food and water"),
            facts.food_and_water,
            rule,
            bad=False,
            yes=_("Sufficient food and water."),
            no=_("Not enough good and wholesome food and water."),
        ),
        _observed(
            _("Protection from the weather"),
            facts.weather_protection,
            rule,
            bad=False,
            yes=_("Proper shelter and protection from the weather."),
            no=_("No proper shelter or protection from the weather."),
        ),
        _observed(
            _("Veterinary care"),
            facts.veterinary_care,
            rule,
            bad=True,
            yes=_("Needs veterinary care to prevent suffering and is not getting it."),
            no=_("No unmet need for veterinary care."),
        ),
        _observed(
            _("Abuse"),
            facts.abused,
            rule,
            bad=True,
            yes=_("Beaten, treated cruelly, tormented or otherwise abused."),
            no=_("No abuse seen."),
        ),
        _observed(
            _("Animal fights"),
            facts.fight,
            rule,
            bad=True,
            yes=_("A dog or cat fight was caused or permitted."),
            no=_("No fight."),
        ),
    ]


def _statutes(facts, book) -> list[Finding]:
    """The state statutes Subd. 9 incorporates: cited by number only once the city sets
    it; until then the officer decides with the city attorney (RES-13)."""
    wanted = [("gl_statute_cruelty", _("State cruelty statute"))]
    if facts.in_vehicle:
        wanted.append(("gl_statute_motor_vehicles", _("State statute on dogs in vehicles")))
    findings = []
    for key, label in wanted:
        rule = book.get(key)
        if rule is None:
            continue
        if isinstance(rule, Exception):  # blank in the ordinance, not set by the city
            msg = _(
                "Incorporated by the ordinance, but its number is blank and the city has "
                "not set it: the officer decides with the city attorney."
            )
            findings.append(Finding(label, OFFICER, msg, rule.citation))
        else:
            msg = _("Minnesota Statutes section %(n)s applies as incorporated.") % {"n": rule.value}
            findings.append(Finding(label, OFFICER, msg, rule.citation))
    return findings


READERS = {
    "restraint_facts": read_restraint,
    "barking_facts": read_barking,
    "litter_facts": read_litter,
    "care_facts": read_care,
}
