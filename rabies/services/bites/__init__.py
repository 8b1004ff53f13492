"""Bite reports (C39, C40), the requests for proof of vaccination and insurance (RAB-09),
and the officer's decision other than confinement (NB Sec. 6-96(6); GL 701 Subd. 21).

``reports`` records a bite as reported, ``documents`` the police's requests for written
proof, ``decisions`` the officer's and the Hearing Examiner's decisions.
"""

from .decisions import (
    DECIDED_HERE,
    DESTROY_KIND,
    HEARING_OUTCOMES,
    DecisionDetails,
    Offer,
    bite_decide,
    bite_hearing_decide,
    decisions_offered,
    hearing_awaits_submission,
)
from .documents import document_request_log, document_request_received
from .reports import (
    TEXT_FIELDS,
    BiteFacts,
    bite_report_record,
    biter_species,
    meets_suspect_definition,
)

__all__ = [
    "DECIDED_HERE",
    "DESTROY_KIND",
    "HEARING_OUTCOMES",
    "TEXT_FIELDS",
    "BiteFacts",
    "DecisionDetails",
    "Offer",
    "bite_decide",
    "bite_hearing_decide",
    "bite_report_record",
    "biter_species",
    "decisions_offered",
    "document_request_log",
    "document_request_received",
    "hearing_awaits_submission",
    "meets_suspect_definition",
]
