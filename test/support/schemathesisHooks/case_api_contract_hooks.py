"""Schemathesis hooks of the case API's contract test (test/api/caseApiContract.test.ts).

Three values of the document are opaque to any generator: a page token (only one the API answered
is valid), a Temporal visibility query (only Temporal can tell one it can run) and a provider's id
of a person (only the provider knows which exist). A schema-valid request carrying one the
generator made up is refused with the status and the code the document names for exactly that,
which is the contract kept, not broken. Only those refusals are dropped; every other failure stands.
"""

import json

import schemathesis

# (operation, status, the `error` code of the documented refusal of an opaque value)
OPAQUE_VALUE_REFUSALS = {
    ("GET /v1/cases", 400, "invalid_page_token"),
    ("POST /v1/cases/retry-step", 400, "invalid_query"),
    ("POST /v1/cases", 422, "unknown_provider_id"),
    # Two dates each valid alone, which only as a pair can make no range (from after to, too long).
    ("GET /v1/analytics/funnel", 422, "invalid_range"),
}

REJECTED_POSITIVE_DATA = "ST202"


def _error_code(response):
    try:
        body = json.loads(response.content)
    except ValueError:
        return None
    return body.get("error") if isinstance(body, dict) else None


@schemathesis.hook
def filter_failure(context, failure, case, response):
    if getattr(failure, "code", None) != REJECTED_POSITIVE_DATA:
        return True
    refusal = (case.operation.label, response.status_code, _error_code(response))
    return refusal not in OPAQUE_VALUE_REFUSALS
