/**
 * What the journey operations refuse, by name, so that each caller answers in its own terms: the
 * case API with an HTTP status, the CLI with its message and exit code.
 */

/** The journey input is not valid: nothing was started. `problems` name the fields at fault. */
export class JourneyInputError extends Error {
  override name = 'JourneyInputError';

  constructor(readonly problems: string[]) {
    super(`not a valid journey input:\n  ${problems.join('\n  ')}`);
  }
}

/** An operator action on a journey that has closed: only `journey retry` starts a new run. */
export class JourneyClosedError extends Error {
  override name = 'JourneyClosedError';

  constructor(
    readonly caseId: string,
    readonly runStatus: string,
  ) {
    super(
      `case/${caseId} is ${runStatus.toLowerCase()}; operator actions need a ` +
        `running journey (journey retry starts a new run)`,
    );
  }
}

/** `journey retry` of a journey that still runs, or one with nothing to retry from. */
export class JourneyRetryError extends Error {
  override name = 'JourneyRetryError';
}

/** A request id (an Update id) already used on this journey for an action on another step. */
export class RequestIdReusedError extends Error {
  override name = 'RequestIdReusedError';

  constructor(
    readonly updateId: string,
    readonly firstStep: string,
    readonly step: string,
  ) {
    super(
      `request id ${JSON.stringify(updateId)} was already used on this journey for ` +
        `${firstStep}, not ${step}: send a new request id for a new request`,
    );
  }
}

/** A visibility query Temporal would not run (its own message says why). */
export class VisibilityQueryError extends Error {
  override name = 'VisibilityQueryError';
}

/** A bulk retry whose query matches more journeys than one invocation takes. */
export class BulkRetryTooManyError extends Error {
  override name = 'BulkRetryTooManyError';
}
