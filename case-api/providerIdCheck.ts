/**
 * Before a case starts, and so before anything is bought, the provider is asked whether it knows
 * the ids the start names, wherever it offers a way to tell without buying
 * (docs/provider-assumptions.md, "Ids a start names"): a person, by the list of their identity
 * verifications, which the provider answers 404 for a person it does not know. The case and the
 * company have no such read: those ids are found out by the first step that uses them.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { ProviderClient } from '../activities/providerClient';
import { routes } from '../activities/routes';
import { identityVerificationListSchema } from '../provider';
import { HttpError } from './httpError';

/** Refuses with 422 `unknown_provider_id` naming each id the provider does not know. */
export async function refuseUnknownProviderIds(
  provider: ProviderClient,
  people: readonly { personId: string }[],
): Promise<void> {
  const personIds = [...new Set(people.map((p) => p.personId))];
  const known = await Promise.all(personIds.map((personId) => personKnown(provider, personId)));
  const unknown = personIds.filter((_, i) => !known[i]);
  if (unknown.length === 0) return;
  throw new HttpError(
    422,
    'unknown_provider_id',
    `The provider has no person ${unknown.map((id) => JSON.stringify(id)).join(', ')} (people.personId): ` +
      'create the person at the provider first, then start the case with the id it answered',
  );
}

async function personKnown(provider: ProviderClient, personId: string): Promise<boolean> {
  try {
    await provider.call({
      route: routes.listIdentityVerifications,
      params: { personId },
      schema: identityVerificationListSchema,
    });
    return true;
  } catch (error) {
    if (error instanceof ApplicationFailure && error.type === 'HTTP_404') return false;
    // Not known either way (the provider down, slow, refusing us): nothing starts on a guess.
    throw new HttpError(
      503,
      'provider_unavailable',
      'The provider could not be asked whether it knows the ids of this case; nothing was started, try again',
      error instanceof ApplicationFailure ? (error.type ?? 'ApplicationFailure') : 'provider call failed',
    );
  }
}
