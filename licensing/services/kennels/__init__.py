"""Kennel licenses: application, review steps, fee, issue, denial, appeal, revocation.

People decide; the software records (architecture.md). Each review step of the city's
profile (``kennel_review_steps``) is a KennelDecision: who decided, in what capacity,
when, the outcome, the reasons and the rule applied. The service gates issuance on every
step being satisfied (KEN-04) and computes fee, expiry and appeal deadline from the
profile (FEE-02, LIC-13, KEN-05, KEN-07). Non-commercial or cat-only applicants are
flagged for a person, never denied by the software (KEN-03).

One module per part of the use case; import each name from the module that defines it:
``applications`` (application, screening, review steps), ``terms`` (term, expiry,
lateness), ``payments`` (fee, receipts, a voided fee receipt), ``issuance``,
``denials`` (denial, appeal, final denial), ``revocations``, ``animals`` (kept under the
license), ``transfers``, ``documents`` (the license PDF); ``common`` holds what they share.
"""
