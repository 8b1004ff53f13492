"""The proceeding's states and the table of its steps (Appendix B3): where each step
may start, where it leads, the Event it records and the rule a refusal cites."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from kernel.models import Transition


class CaseStatus(models.TextChoices):
    """Appendix B3, one value per state a case rests in."""

    DETERMINED = "determined", _("Investigated: notice of intent to be served")
    EXEMPT = "exempt", _("Closed: an exemption applies (Subd. 15(L))")
    NOTICE_ISSUED = "notice_issued", _("Notice of intent issued, receipt not recorded")
    NOTICE_SERVED = "notice_served", _("Notice received: contest period running")
    CONTESTED = "contested", _("Hearing requested: City Attorney review")
    DEFAULTED = "defaulted", _("Not contested: declaration due")
    WITHDRAWN = "withdrawn", _("Withdrawn by the City Attorney")
    HEARING = "hearing", _("Referred to the Review Panel")
    DISMISSED = "dismissed", _("Not upheld")
    DECLARED = "declared", _("Declared")
    REGISTERED = "registered", _("Registered")
    SEIZED = "seized", _("Seized")
    RESCINDED = "rescinded", _("Designation rescinded")
    DESTROYED = "destroyed", _("Closed: dog destroyed")
    DECEASED = "deceased", _("Closed: dog died")
    TRANSFERRED = "transferred", _("Closed: moved out of the city")


OPEN_STATUSES = (
    CaseStatus.DETERMINED,
    CaseStatus.NOTICE_ISSUED,
    CaseStatus.NOTICE_SERVED,
    CaseStatus.CONTESTED,
    CaseStatus.DEFAULTED,
    CaseStatus.HEARING,
    CaseStatus.DECLARED,
    CaseStatus.REGISTERED,
    CaseStatus.SEIZED,
)
# The designation is in force (a declaration was made and stands).
IN_FORCE_STATUSES = (CaseStatus.DECLARED, CaseStatus.REGISTERED, CaseStatus.SEIZED)
CLOSED_STATUSES = tuple(s for s in CaseStatus if s not in OPEN_STATUSES)


_S = CaseStatus
# Appendix B3 as a table: each step of the proceeding, the states it may follow, where it
# leads, the Event it records and the rule a refusal cites.
CASE_STEPS = (
    Transition(
        "find_exempt",
        _S.DETERMINED,
        _S.EXEMPT,
        event="dangerous_dogs.case.exempt",
        rule="DD-26",
        what=_("closing the case on an exemption"),
    ),
    Transition(
        "issue_notice",
        _S.DETERMINED,
        _S.NOTICE_ISSUED,
        event="dangerous_dogs.case.notice_issued",
        rule="DD-03",
        what=_("issuing the notice of intent"),
    ),
    Transition(
        "serve_notice",
        _S.NOTICE_ISSUED,
        _S.NOTICE_SERVED,
        event="dangerous_dogs.case.notice_received",
        rule="DD-04",
        what=_("recording the owner's receipt of the notice of intent"),
    ),
    Transition(
        "contest",
        (_S.NOTICE_SERVED, _S.DEFAULTED),
        _S.CONTESTED,
        event="dangerous_dogs.case.contested",
        rule="DD-04",
        what=_("recording a request for a hearing"),
    ),
    Transition(
        "default",
        _S.NOTICE_SERVED,
        _S.DEFAULTED,
        event="dangerous_dogs.case.defaulted",
        rule="DD-09",
        what=_("a default"),
    ),
    Transition(
        "declare",
        _S.DEFAULTED,
        _S.DECLARED,
        event="dangerous_dogs.case.declared",
        rule="DD-09",
        what=_("issuing the declaration"),
    ),
    Transition(
        "withdraw",
        _S.CONTESTED,
        _S.WITHDRAWN,
        event="dangerous_dogs.case.withdrawn",
        rule="DD-05",
        what=_("the City Attorney's review"),
    ),
    Transition(
        "refer",
        _S.CONTESTED,
        _S.HEARING,
        event="dangerous_dogs.case.referred",
        rule="DD-05",
        what=_("the City Attorney's review"),
    ),
    # The panel's finding: upheld, the designation comes into force; not upheld, dismissed.
    Transition(
        "hold_hearing",
        _S.HEARING,
        (_S.DECLARED, _S.DISMISSED),
        event="dangerous_dogs.case.{to}",
        rule="DD-07",
        what=_("recording the hearing"),
    ),
    Transition(
        "reverse",
        IN_FORCE_STATUSES,
        _S.DISMISSED,
        event="dangerous_dogs.appeal.reversed",
        rule="DD-20",
        what=_("the City Council's reversal"),
    ),
    Transition(
        "register",
        _S.DECLARED,
        _S.REGISTERED,
        event="dangerous_dogs.case.registered",
        rule="DD-15",
        what=_("issuing a certificate of registration"),
    ),
    Transition(
        "seize",
        _S.DECLARED,
        _S.SEIZED,
        event="dangerous_dogs.case.seized",
        rule="DD-21",
        what=_("seizure"),
    ),
    Transition(
        "reclaim",
        _S.SEIZED,
        (_S.DECLARED, _S.REGISTERED),
        event="dangerous_dogs.case.reclaimed",
        rule="DD-23",
        what=_("a reclaim"),
    ),
    # The pound disposed of a seized dog not reclaimed: the case closes the same way.
    Transition(
        "dispose",
        _S.SEIZED,
        (_S.DESTROYED, _S.DECEASED, _S.TRANSFERRED),
        event="dangerous_dogs.case.seizure_disposed",
        rule="DD-23",
        what=_("closing the case on the pound's disposition"),
    ),
    # The owner had the dog destroyed instead of complying.
    Transition(
        "destroy",
        _S.DECLARED,
        _S.DESTROYED,
        event="dangerous_dogs.case.destroyed",
        rule="DD-10",
        what=_("recording the dog destroyed"),
    ),
    Transition(
        "destroy_summarily",
        OPEN_STATUSES,
        _S.DESTROYED,
        event="dangerous_dogs.case.destroyed",
        rule="DD-28",
        what=_("summary destruction"),
    ),
    Transition(
        "rescind",
        IN_FORCE_STATUSES,
        _S.RESCINDED,
        event="dangerous_dogs.case.rescinded",
        rule="DD-25",
        what=_("rescinding the designation"),
    ),
    Transition(
        "close_by_report",
        IN_FORCE_STATUSES,
        (_S.DECEASED, _S.TRANSFERRED),
        event="dangerous_dogs.case.closed_by_report",
        rule="DD-16",
        what=_("closing the case on the owner's report"),
    ),
)
