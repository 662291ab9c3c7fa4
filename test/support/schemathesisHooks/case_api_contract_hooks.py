"""Schemathesis hooks of the case API's contract test (test/api/caseApiContract.test.ts).

Two values of the document are opaque to any generator: a page token (only one the API answered is
valid) and a Temporal visibility query (only Temporal can tell one it can run). A schema-valid
request carrying one the generator made up is refused with the 400 and the code the document names
for exactly that, which is the contract kept, not broken. Only those refusals are dropped; every
other failure stands.
"""

import json

import schemathesis

# (operation, the `error` code of the documented 400 for an opaque value)
OPAQUE_VALUE_REFUSALS = {
    ("GET /v1/cases", "invalid_page_token"),
    ("POST /v1/cases/retry-step", "invalid_query"),
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
    if getattr(failure, "code", None) != REJECTED_POSITIVE_DATA or response.status_code != 400:
        return True
    return (case.operation.label, _error_code(response)) not in OPAQUE_VALUE_REFUSALS
