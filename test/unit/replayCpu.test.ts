/**
 * The throughput benchmark's measure of the workflows' own CPU (bench/journeyThroughput/replayCpu.ts):
 * a set of recorded histories replayed on its bundle gives the CPU per journey, and a history its
 * bundle does not replay fails the measure, naming the workflow, rather than giving a figure.
 */
import { readFileSync } from 'node:fs';
import { temporal } from '@temporalio/proto';
import { dataConverterFor } from '../../codec/dataConverter';
import { readPayloadKeys } from '../../codec/payloadKeys';
import { replayCpuPerJourney, type ReplaySet } from '../../bench/journeyThroughput/replayCpu';
import { testWorkflowBundle } from '../setup/testEnvironment';
import { readHistories } from '../replay/historyFiles';

const journey = readHistories().filter((h) => h.scenario === 'journey-completed');
const code = () => readFileSync((testWorkflowBundle() as { codePath: string }).codePath, 'utf8');
const set = (histories: ReplaySet['histories'], bundle: string): ReplaySet => ({
  name: 'recorded journey',
  code: bundle,
  dataConverter: dataConverterFor(readPayloadKeys()),
  histories,
  journeys: 1,
});

test("a recorded journey's histories replayed on the workflow bundle: CPU per journey", async () => {
  expect(journey.length).toBeGreaterThan(5);
  const cpuMs = await replayCpuPerJourney(set(journey, code()));
  expect(cpuMs).toBeGreaterThan(0);
});

test('a history the bundle does not replay fails the measure, naming its workflow', async () => {
  const recorded = journey.find((h) => h.history.events?.some((e) => e.activityTaskScheduledEventAttributes))!;
  const history = temporal.api.history.v1.History.decode(
    temporal.api.history.v1.History.encode(recorded.history).finish(),
  );
  const scheduled = history.events.find((e) => e.activityTaskScheduledEventAttributes)!;
  scheduled.activityTaskScheduledEventAttributes!.activityType!.name = 'notWhatTheCodeSchedules';
  await expect(replayCpuPerJourney(set([{ workflowId: recorded.workflowId, history }], code()))).rejects.toThrow(
    recorded.workflowId,
  );
});
