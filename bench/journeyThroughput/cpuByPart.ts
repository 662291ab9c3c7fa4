/**
 * Where a throughput round's time goes, part by part, read from V8 CPU profiles: where
 * the time beyond the baseline's goes. With BENCH_THROUGHPUT_PROFILE_DIR set, the benchmark runs
 * the project's processes and the baseline's under `node --cpu-prof` and prints each round's
 * window; this reads every thread's profile (each process's main thread, the worker's workflow
 * threads) within those windows:
 *
 *   BENCH_THROUGHPUT_PROFILE_DIR=/tmp/prof npx tsx bench/journeyThroughput.ts | tee /tmp/tp.log
 *   npx tsx bench/throughputCpuByPart.ts /tmp/prof /tmp/tp.log
 *
 * A sample is charged to the part of the innermost frame that names one (a PGlite call made by the
 * case file is PGlite's; a zod parse in an activity is zod's). The figures are sampled time, not
 * CPU time: on saturated cores a thread waiting for a core still shows busy. The benchmark's own
 * CPU meter gives the totals; this gives the shares.
 */
/** A round's span in the clock of V8's profiles (monotonic, microseconds). */
export interface ProfileWindow {
  name: string;
  journeys: number;
  fromUs: number;
  toUs: number;
}

const WINDOW_PREFIX = 'CPU_PROFILE_WINDOW ';

/** Now in the clock V8 stamps its profiles with: the monotonic clock, in microseconds. */
export const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

export const windowLine = (window: ProfileWindow): string => `${WINDOW_PREFIX}${JSON.stringify(window)}`;

export function windowsIn(log: string): ProfileWindow[] {
  return log
    .split('\n')
    .filter((line) => line.startsWith(WINDOW_PREFIX))
    .map((line) => JSON.parse(line.slice(WINDOW_PREFIX.length)) as ProfileWindow);
}

/** The parts of a `.cpuprofile` this reads. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

type Frame = CpuProfile['nodes'][number]['callFrame'];

/** Parts by where their code lives; the first that matches a frame names it. */
const PARTS: [string, (frame: Frame) => boolean][] = [
  // WASM frames name no part: a PGlite call's belong to PGlite's caller, an HTTP parse (undici) to fetch's.
  ['case file: PGlite (PostgreSQL in WASM)', (f) => f.url.includes('@electric-sql/pglite')],
  [
    'case file: pg driver and SQL',
    (f) => /node_modules\/(pg|pg-protocol|pg-pool|pg-types)\/|\/case-file\//.test(f.url),
  ],
  ['provider simulator', (f) => f.url.includes('/simulator/')],
  ['webhook bridge', (f) => f.url.includes('/webhook-bridge/')],
  ['payload codec', (f) => f.url.includes('/codec/')],
  ['activities and provider client', (f) => /\/activities\/|\/provider\/|\/case-events\//.test(f.url)],
  ['workflow code and the SDK in the sandbox (named frames)', (f) => /workflow-bundle[-.]/.test(f.url)],
  // V8 charges much of the sandboxed code's time to the call that enters the context.
  [
    'workflow sandbox: running in the V8 context (vm runInContext)',
    (f) => f.functionName === 'runInContext' && f.url === '',
  ],
  [
    "workflow sandbox: the SDK's promise hooks and stack traces",
    (f) => /@temporalio\/worker\/lib\/workflow\/vm-shared/.test(f.url),
  ],
  [
    'Temporal SDK outside the sandbox (worker, core bridge, common, proto, client)',
    (f) => f.url.includes('@temporalio/'),
  ],
  ['gRPC', (f) => f.url.includes('@grpc/')],
  ['zod', (f) => f.url.includes('node_modules/zod/')],
  ['express', (f) => /node_modules\/(express|router|body-parser|raw-body|etag|send)\//.test(f.url)],
  ['benchmark harness', (f) => f.url.includes('/bench/')],
];
const UNNAMED = 'Node.js internals and native calls (crypto, sockets, timers)';

/** The part a sample's stack belongs to, from its innermost frame that names one. */
function partOf(nodeId: number, nodes: Map<number, CpuProfile['nodes'][number]>, parent: Map<number, number>): string {
  for (let id: number | undefined = nodeId; id !== undefined; id = parent.get(id)) {
    const frame = nodes.get(id)?.callFrame;
    if (!frame) break;
    if (frame.functionName === '(garbage collector)') return 'garbage collection';
    if (frame.functionName === '(program)') return UNNAMED;
    const part = PARTS.find(([, matches]) => matches(frame));
    if (part) return part[0];
  }
  return UNNAMED;
}

/** Sampled busy microseconds by part within [fromUs, toUs] (idle samples left out). */
export function busyByPart(
  profile: CpuProfile,
  fromUs: number,
  toUs: number,
  into = new Map<string, number>(),
): Map<string, number> {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at < fromUs || at > toUs || nodes.get(id)?.callFrame.functionName === '(idle)') return;
    const part = partOf(id, nodes, parent);
    into.set(part, (into.get(part) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return into;
}

/** Per journey (ms), each part's sampled time over all windows of a kind, all threads together. */
export function perJourneyByPart(
  profiles: readonly CpuProfile[],
  windows: readonly ProfileWindow[],
): Map<string, Map<string, number>> {
  const byKind = new Map<string, Map<string, number>>();
  for (const name of new Set(windows.map((w) => w.name))) {
    const ofKind = windows.filter((w) => w.name === name);
    const journeys = ofKind.reduce((sum, w) => sum + w.journeys, 0);
    const busy = new Map<string, number>();
    for (const w of ofKind) for (const profile of profiles) busyByPart(profile, w.fromUs, w.toUs, busy);
    byKind.set(name, new Map([...busy].map(([part, us]) => [part, us / 1000 / Math.max(1, journeys)])));
  }
  return byKind;
}

/** A row per part, a column per kind of round (system, baseline), largest first in the first column. */
export function cpuTable(byKind: Map<string, Map<string, number>>): string[] {
  const kinds = [...byKind.keys()];
  const parts = [...new Set(kinds.flatMap((k) => [...(byKind.get(k) ?? new Map<string, number>()).keys()]))];
  const ms = (kind: string, part: string) => byKind.get(kind)?.get(part) ?? 0;
  parts.sort((a, b) => ms(kinds[0] ?? '', b) - ms(kinds[0] ?? '', a));
  const total = (kind: string) => [...(byKind.get(kind)?.values() ?? [])].reduce((a, b) => a + b, 0);
  const row = (label: string, cells: string[]) => `${label.padEnd(80)} ${cells.map((c) => c.padStart(10)).join(' ')}`;
  return [
    row('sampled busy time per journey, ms (all threads)', kinds),
    ...parts.map((part) =>
      row(
        part,
        kinds.map((k) => ms(k, part).toFixed(1)),
      ),
    ),
    row(
      'total',
      kinds.map((k) => total(k).toFixed(1)),
    ),
  ];
}
