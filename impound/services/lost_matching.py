"""Is this impounded animal likely the one a resident reported lost? One answer,
``match_score``, for filing a report and for each intake (IMP-05).

Species must agree and the animal must be in the report's city; a tag number or microchip
that agrees is decisive, one that differs rules the animal out; otherwise sex, color,
breed, place and date add up to a score out of 100 (a matching measure of this software,
not an ordinance value). Descriptions are compared word by word, each spelled one way.
"""

import re
from dataclasses import dataclass, field

from django.utils import timezone
from django.utils.translation import gettext as _

from impound.models import ImpoundCase, LostReport
from licensing.models.registry import Sex

# How the score adds up, out of 100 (a matching measure of this software, not an
# ordinance value): species is required; a tag or microchip that agrees is decisive.
SPECIES_POINTS = 20
SEX_POINTS = 15
COLOR_POINTS = 25
BREED_POINTS = 20
BREED_UNKNOWN_POINTS = 5
PLACE_POINTS = 10
DATE_POINTS = 10
DECISIVE_SCORE = 100
LIKELY_SCORE = 60

# Words that say nothing about which animal it is.
_FILLER = frozenset(
    {"a", "an", "and", "the", "of", "with", "mix", "mixed", "cross", "x", "breed", "dog", "cat"}
)
_STREET_FILLER = frozenset(
    {
        "st",
        "street",
        "ave",
        "avenue",
        "rd",
        "road",
        "dr",
        "drive",
        "ln",
        "lane",
        "blvd",
        "ct",
        "court",
        "n",
        "s",
        "e",
        "w",
        "north",
        "south",
        "east",
        "west",
        "and",
        "near",
        "at",
        "by",
        "the",
        "of",
        "park",
    }
)
# Spellings that mean the same.
_SYNONYMS = {
    "grey": "gray",
    "lab": "labrador",
    "labs": "labrador",
    "golden": "golden",
    "gsd": "shepherd",
    "alsatian": "shepherd",
    "pitbull": "pit",
    "pittie": "pit",
    "blk": "black",
    "wht": "white",
    "brn": "brown",
    "tan": "tan",
    "tri": "tricolor",
    "tricolour": "tricolor",
    "colour": "color",
    "calico": "calico",
    "tabby": "tabby",
}
_WORD = re.compile(r"[a-z0-9]+")
_HOUSE_NUMBER = re.compile(r"^\s*\d+[a-z]?\s+(?=\D)", re.IGNORECASE)


def words(text: str, *, filler=_FILLER) -> frozenset[str]:
    """Lower-case words of ``text``, spelled one way, without filler words."""
    found = set()
    for word in _WORD.findall((text or "").lower()):
        if word.endswith("s") and len(word) > 3 and word[:-1] in _SYNONYMS:
            word = word[:-1]
        word = _SYNONYMS.get(word, word)
        if word not in filler:
            found.add(word)
    return frozenset(found)


def street_level(text: str) -> str:
    """A place without its house number ("12 Elm St" -> "Elm St"): what a page or an
    e-mail may show of where an animal was found or lost."""
    return _HOUSE_NUMBER.sub("", text or "").strip()


def _identifier(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", (text or "").lower())


@dataclass(frozen=True)
class MatchScore:
    score: int
    reasons: tuple[str, ...] = ()
    decisive: bool = False
    ruled_out: str = ""

    @property
    def likely(self) -> bool:
        return not self.ruled_out and (self.decisive or self.score >= LIKELY_SCORE)


@dataclass
class _Tally:
    score: int = 0
    reasons: list[str] = field(default_factory=list)

    def add(self, points: int, reason: str) -> None:
        self.score += points
        self.reasons.append(reason)


def _overlap(a: frozenset[str], b: frozenset[str]) -> float:
    """Share of the shorter description's words the other has too (0..1)."""
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))


def match_score(report: LostReport, case: ImpoundCase, *, window_days: int) -> MatchScore:
    """Is ``case`` likely the animal of ``report``? Species must agree and the case must be
    in the report's city; a tag number or microchip that agrees is decisive, one that
    differs rules the animal out; otherwise sex, color, breed, place and date add up."""
    if report.species != case.species:
        return MatchScore(0, ruled_out=_("Another species"))
    if report.jurisdiction_id != case.jurisdiction_id:
        return MatchScore(0, ruled_out=_("Another city"))
    chip, case_chip = _identifier(report.microchip), _identifier(case.microchip)
    if chip and case_chip:
        if chip == case_chip:
            return MatchScore(DECISIVE_SCORE, (_("The microchip number matches"),), True)
        return MatchScore(0, ruled_out=_("Another microchip number"))
    tag = _identifier(report.tag_number)
    if tag and case.tag_text:
        case_tags = {_identifier(w) for w in re.split(r"[\s,;:/#]+", case.tag_text)}
        if tag in case_tags or tag == _identifier(case.tag_text):
            return MatchScore(DECISIVE_SCORE, (_("The tag number matches"),), True)
    placed_on = timezone.localtime(case.placed_at).date()
    if placed_on < report.lost_on or (placed_on - report.lost_on).days > window_days:
        return MatchScore(0, ruled_out=_("Taken in outside the days after the loss"))
    known = {Sex.MALE, Sex.FEMALE}
    if report.sex in known and case.sex in known and report.sex != case.sex:
        return MatchScore(0, ruled_out=_("Another sex"))

    tally = _Tally()
    tally.add(SPECIES_POINTS, _("Same species"))
    if report.sex in known and report.sex == case.sex:
        tally.add(SEX_POINTS, _("Same sex"))
    color = _overlap(words(report.color), words(case.color))
    if color:
        tally.add(round(COLOR_POINTS * color), _("Color alike"))
    report_breed, case_breed = words(report.breed), words(case.breed)
    if report_breed and case_breed:
        breed = _overlap(report_breed, case_breed)
        if breed:
            tally.add(round(BREED_POINTS * breed), _("Breed alike"))
    else:
        tally.score += BREED_UNKNOWN_POINTS
    streets = _overlap(
        words(report.lost_where, filler=_STREET_FILLER),
        words(f"{case.found_area} {case.seized_where}", filler=_STREET_FILLER),
    )
    if streets:
        tally.add(PLACE_POINTS, _("Found near where it was lost"))
    tally.add(DATE_POINTS, _("Taken in after it was lost"))
    return MatchScore(min(tally.score, DECISIVE_SCORE - 1), tuple(tally.reasons))
