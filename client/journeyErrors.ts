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
    super(`case/${caseId} is ${runStatus.toLowerCase()}; operator actions need a running journey (journey retry starts a new run)`);
  }
}

/** `journey retry` of a journey that still runs, or one with nothing to retry from. */
export class JourneyRetryError extends Error {
  override name = 'JourneyRetryError';
}
