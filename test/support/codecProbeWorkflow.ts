/**
 * A small workflow for driving the real Temporal CLI through the codec server: it takes an input,
 * answers a query without arguments and one with, takes a signal and an update, and waits to be
 * told to finish. Nothing in it is about journeys; it exercises every payload path the CLI encodes
 * or decodes (test/e2e/temporalCliThroughCodec.test.ts).
 */
import { condition, defineQuery, defineSignal, defineUpdate, setHandler } from '@temporalio/workflow';

export interface ProbeInput {
  applicant: string;
}

export const applicantQuery = defineQuery<string>('applicant');
export const notesQuery = defineQuery<string[]>('notes');
export const greetingQuery = defineQuery<string, [string]>('greeting');
export const noteSignal = defineSignal<[string]>('note');
export const labelUpdate = defineUpdate<string, [string]>('label');
export const finishSignal = defineSignal('finish');

export async function codecProbe(input: ProbeInput): Promise<string> {
  const notes: string[] = [];
  let finished = false;
  setHandler(applicantQuery, () => input.applicant);
  setHandler(notesQuery, () => notes);
  setHandler(greetingQuery, (salutation) => `${salutation}, ${input.applicant}`);
  setHandler(noteSignal, (note) => void notes.push(note));
  setHandler(labelUpdate, (label) => {
    notes.push(`label:${label}`);
    return `labelled ${label}`;
  });
  setHandler(finishSignal, () => void (finished = true));
  await condition(() => finished);
  return `done for ${input.applicant}`;
}
