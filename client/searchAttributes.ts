/**
 * The custom search attributes: `CaseId` on every workflow of a case (the journey, each step
 * attempt, each resource a step subscribed to), set when the workflow starts, so the Web UI and
 * `journey replay` find a case's workflows together; `JourneyState` on the journey.
 */
import { defineSearchAttributeKey, TypedSearchAttributes } from '@temporalio/common';

export const caseIdSearchAttribute = defineSearchAttributeKey('CaseId', 'KEYWORD');
export const journeyStateSearchAttribute = defineSearchAttributeKey('JourneyState', 'KEYWORD');

/** Registered on the embedded dev server at start (`--search-attribute NAME=TYPE`). */
export const searchAttributeRegistrations: Record<string, 'Keyword'> = {
  [caseIdSearchAttribute.name]: 'Keyword',
  [journeyStateSearchAttribute.name]: 'Keyword',
};

/** The attributes a workflow of the case starts with; the journey's state too when given. */
export function caseSearchAttributes(caseId: string, journeyState?: string): TypedSearchAttributes {
  return new TypedSearchAttributes([
    { key: caseIdSearchAttribute, value: caseId },
    ...(journeyState ? [{ key: journeyStateSearchAttribute, value: journeyState }] : []),
  ]);
}
