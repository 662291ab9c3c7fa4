/**
 * Reading bench:throughput's CPU profiles by part (bench/journeyThroughput/cpuByPart.ts): only the
 * samples inside a round's window count, idle ones never, a sample goes to the innermost frame
 * that names a part (the PGlite call under a case-file write is PGlite's; WASM code is its
 * caller's, PGlite's or an HTTP parse's), and the time is per journey over all rounds of a kind and
 * all threads.
 */
import {
  busyByPart,
  perJourneyByPart,
  windowLine,
  windowsIn,
  type CpuProfile,
} from '../../bench/journeyThroughput/cpuByPart';

const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({
  id,
  callFrame: { functionName, url },
  children,
});

/** root → case-file write → PGlite → its WASM; root → workflow bundle; root → idle. */
const profile: CpuProfile = {
  nodes: [
    frame(1, '(root)', '', [2, 4, 5, 6]),
    frame(2, 'writeJourneyState', 'file:///work/main/case-file/caseReadModel.ts', [7]),
    frame(7, 'invoke_vii', 'file:///work/main/node_modules/@electric-sql/pglite/dist/index.cjs', [3]),
    frame(3, 'wasm-function[12]', 'wasm://wasm/022aac12'),
    frame(4, 'loop', 'file:///tmp/workflow-bundle-5f6bd9a6.js'),
    frame(5, '(idle)', ''),
    frame(6, '(garbage collector)', ''),
  ],
  startTime: 1_000,
  // Samples at 1,100 / 1,200 / … µs.
  samples: [3, 2, 4, 5, 6, 3],
  timeDeltas: [100, 100, 100, 100, 100, 100],
};

test('samples inside the window, by the innermost part that names them, idle left out', () => {
  expect(Object.fromEntries(busyByPart(profile, 1_100, 1_500))).toEqual({
    'case file: PGlite (PostgreSQL in WASM)': 100,
    'case file: pg driver and SQL': 100,
    'workflow code and the SDK in the sandbox (named frames)': 100,
    'garbage collection': 100,
  });
  // The last sample (1,600 µs) is outside.
  expect(busyByPart(profile, 1_550, 2_000).size).toBe(1);
});

test('per journey over every round of a kind, every thread; windows read back from the output', () => {
  const output = [
    'system 2 journeys …',
    windowLine({ name: 'system', journeys: 2, fromUs: 1_000, toUs: 1_300 }),
    windowLine({ name: 'baseline', journeys: 1, fromUs: 1_350, toUs: 1_700 }),
  ].join('\n');
  const windows = windowsIn(output);
  expect(windows.map((w) => w.name)).toEqual(['system', 'baseline']);
  const byKind = perJourneyByPart([profile, profile], windows);
  // System: PGlite at 1,100 and pg at 1,200, the bundle at 1,300, twice (two threads), over 2 journeys.
  expect(byKind.get('system')?.get('case file: PGlite (PostgreSQL in WASM)')).toBeCloseTo(0.1);
  // Baseline: garbage collection at 1,500 and PGlite at 1,600, twice, over 1 journey.
  expect(byKind.get('baseline')?.get('case file: PGlite (PostgreSQL in WASM)')).toBeCloseTo(0.2);
  expect(byKind.get('baseline')?.get('garbage collection')).toBeCloseTo(0.2);
});

test("WASM under fetch is the HTTP parser's caller's, not PGlite's", () => {
  const http: CpuProfile = {
    nodes: [
      frame(1, '(root)', '', [2]),
      frame(2, 'createCreditReport', 'file:///work/main/activities/creditReportActivities.ts', [3]),
      frame(3, 'fetch', 'node:internal/deps/undici/undici', [4]),
      frame(4, 'wasm-function[7]', 'wasm://wasm/00a1b2c3'),
    ],
    startTime: 0,
    samples: [4],
    timeDeltas: [100],
  };
  expect(Object.fromEntries(busyByPart(http, 0, 1_000))).toEqual({ 'activities and provider client': 100 });
});
