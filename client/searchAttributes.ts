/** The custom search attributes journeys set, so operators can list journeys by case and state. */
import { defineSearchAttributeKey } from '@temporalio/common';

export const caseIdSearchAttribute = defineSearchAttributeKey('CaseId', 'KEYWORD');
export const journeyStateSearchAttribute = defineSearchAttributeKey('JourneyState', 'KEYWORD');

/** Registered on the embedded dev server at start (`--search-attribute NAME=TYPE`). */
export const searchAttributeRegistrations: Record<string, 'Keyword'> = {
  [caseIdSearchAttribute.name]: 'Keyword',
  [journeyStateSearchAttribute.name]: 'Keyword',
};
