"""Animals exposed to a rabid animal (Glencoe 701 Subd. 1(L), 22; rules.md RAB-25..30,
RAB-33, Appendix B5, C46-C48).

North Branch has no rule for an animal exposed to rabies (RAB-33: state law governs, Sec.
6-96): ``exposure_open`` refuses there, saying so. In Glencoe an exposure case is opened
for an animal bitten or exposed by a rabid animal: a species the ordinance deems rabid when
it bites a dog or cat (1(L), RAB-25), or one a veterinarian or a laboratory found rabid.
The path follows licensing's one answer to "was it vaccinated on the day"
(``vaccination_status``) and the species:

- a vaccinated dog or cat (22(B)): revaccinated at once, observed by the owner for
  ``exposure_vaccinated_dogcat_observation_days``; closed by the veterinarian's release
  report when ``gl_release_report_for_observation``, else by the officer at the end;
- an unvaccinated dog or cat (22(A)): euthanized with the owner's consent (C48), or
  quarantined under a veterinarian for ``exposure_unvaccinated_quarantine_months``,
  released no earlier than the later of that end and
  ``exposure_prerelease_vaccination_months`` after the vaccination before release;
- another animal, currently vaccinated (22(C)(1)): revaccinated, kept in an animal-tight
  enclosure for ``exposure_vaccinated_other_enclosure_days`` (days, not months);
- another animal, unvaccinated (22(C)(2)): a veterinarian's determination of the
  exposure first, then euthanasia or the months' quarantine.

The Board report (RAB-30, C46) is issued as a PDF when the case opens; its sending is
recorded later. An owner who does not comply with a quarantine (22(A), 22(C)(2)) is
given notice and a Hearing Examiner's hearing, or waives it (``rabies.services.hearings``).
Every date is counted by ``ordinance.calendar`` from the city's profile and stored with
its section and how it was found.

The package: ``paths`` (the paths and their rules), ``opening`` (the case, the Board
report, the consent form), ``periods`` (the first step and its period), ``release`` (what
comes before the release, and the release), ``noncompliance`` (the Hearing Examiner).
"""

from .noncompliance import (
    exposure_hearing_decide,
    exposure_hearing_waived,
    exposure_noncompliance,
    open_hearing,
)
from .opening import (
    board_report_sent,
    consent_form_issue,
    exposure_open,
)
from .paths import (
    DOG_CAT,
    ENCLOSURE_DAYS,
    OBSERVATION_DAYS,
    PRERELEASE_MONTHS,
    QUARANTINE_MONTHS,
    REPORT_FOR_OBSERVATION,
    UNVACCINATED,
    VACCINATED,
    deemed_species,
    no_rule_sentence,
    path_for,
    path_rule,
    release_report_required,
    vaccinate_by,
)
from .periods import (
    exposure_consent,
    exposure_determine,
    exposure_dispose,
    exposure_revaccinate,
    mark_ended,
)
from .release import (
    exposure_prerelease_vaccination,
    exposure_release,
    exposure_release_report,
    release_blockers,
)

__all__ = [
    "DOG_CAT",
    "ENCLOSURE_DAYS",
    "OBSERVATION_DAYS",
    "PRERELEASE_MONTHS",
    "QUARANTINE_MONTHS",
    "REPORT_FOR_OBSERVATION",
    "UNVACCINATED",
    "VACCINATED",
    "board_report_sent",
    "consent_form_issue",
    "deemed_species",
    "exposure_consent",
    "exposure_determine",
    "exposure_dispose",
    "exposure_hearing_decide",
    "exposure_hearing_waived",
    "exposure_noncompliance",
    "exposure_open",
    "exposure_prerelease_vaccination",
    "exposure_release",
    "exposure_release_report",
    "exposure_revaccinate",
    "mark_ended",
    "no_rule_sentence",
    "open_hearing",
    "path_for",
    "path_rule",
    "release_blockers",
    "release_report_required",
    "vaccinate_by",
]
