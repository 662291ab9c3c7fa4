/**
 * CPU per delivery of server processes under the same open-loop load, each process metered on its
 * own from /proc (cpuMeter.ts): the bridge process against the minimal baseline process. In each
 * round every side takes its own load at the same time, over the same window: load from
 * elsewhere on the shared machine changes a process's CPU per delivery by half within seconds,
 * and sides measured one after the other (alternating) caught it on one side of a round only
 * (3.0 against 4.65 ms, one round's pair apart, where the rounds before and after measured 1.02
 * and 1.05 between the sides).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { percentile } from '../closedLoop';
import { processCpuMs } from '../cpuMeter';
import { monotonicUs } from '../journeyThroughput/cpuByPart';
import { pacedLoad } from '../pacedLoad';

export interface CpuSide<Item> {
  name: string;
  pid: number;
  /** Sends one item; rejects when the process did not accept it. */
  send: (item: Item) => Promise<void>;
}

export interface CpuRound {
  accepted: number;
  refused: number;
  /** The process's CPU over the round (user + system). */
  cpuMs: number;
  /** cpuMs / accepted. */
  msPerDelivery: number;
  /** POST → answer, at the load generator. */
  p99: number;
  /** The round's span in the clock of V8's CPU profiles, to read a profiled process's samples within it. */
  fromUs: number;
  toUs: number;
}

export interface CpuRoundsOptions<Item> {
  rounds: number;
  perRound: number;
  perSecond: number;
  /** A pause before each round, so that the previous round's tail does not land on this one. */
  settleMs: number;
  items: (count: number) => Item[];
  /** Called with each round as it ends, for the benchmark's output. */
  onRound?: (round: number, side: string, figures: CpuRound) => void;
}

/** Every side's rounds, by side name. */
export async function cpuRounds<Item>(
  sides: readonly CpuSide<Item>[],
  options: CpuRoundsOptions<Item>,
): Promise<Map<string, CpuRound[]>> {
  const measured = new Map<string, CpuRound[]>(sides.map((s) => [s.name, []]));
  for (let round = 0; round < options.rounds; round++) {
    await sleep(options.settleMs);
    const figures = await Promise.all(sides.map((side) => oneSide(side, options)));
    sides.forEach((side, i) => {
      measured.get(side.name)!.push(figures[i]!);
      options.onRound?.(round + 1, side.name, figures[i]!);
    });
  }
  return measured;
}

async function oneSide<Item>(side: CpuSide<Item>, options: CpuRoundsOptions<Item>): Promise<CpuRound> {
  let accepted = 0;
  let refused = 0;
  const before = processCpuMs(side.pid);
  const fromUs = monotonicUs();
  const load = await pacedLoad(options.items(options.perRound), options.perSecond, async (item) => {
    try {
      await side.send(item);
      accepted++;
    } catch {
      refused++;
    }
  });
  const cpuMs = processCpuMs(side.pid) - before;
  const toUs = monotonicUs();
  return { accepted, refused, cpuMs, msPerDelivery: cpuMs / accepted, p99: load.p99, fromUs, toUs };
}

/** The median of a side's rounds' CPU per delivery. */
export function medianMsPerDelivery(rounds: readonly CpuRound[]): number {
  return percentile(
    rounds.map((r) => r.msPerDelivery),
    50,
  );
}
