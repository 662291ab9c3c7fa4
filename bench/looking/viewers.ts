/**
 * The ways an operator looks at journeys, each counting its reads of the case file's read model:
 * a console page in a real (headless) Chromium, signed in with an operator key, and `journey
 * watch` run through the CLI's own code. Used by `npm run bench:looking` and by the test that looks
 * cost no Temporal calls (test/api/lookingCostsNothing.test.ts).
 */
import type { Browser, Page } from 'playwright-core';
import type { Client } from '@temporalio/client';
import { journeyProgram, type Outcome, type Run } from '../../cli/journeyProgram';
import type { CaseFileStore } from '../../case-file/store';
import { signInWithKey } from './headlessChromium';

export interface ConsoleViewer {
  page: Page;
  /** Fetches of the page itself (its first load and every refresh): each one read of the read model. */
  reads: () => number;
  /** Requests of the page's long poll, /console/changes. */
  polls: () => number;
  close: () => Promise<void>;
}

/**
 * Opens `pagePath` (`/console`, `/console/cases/<id>`) in a browser context of its own, signed in;
 * resolves once its script waits on its long poll.
 */
export async function openConsoleViewer(
  browser: Browser,
  consoleUrl: string,
  operatorKey: string,
  pagePath: string,
  timeoutMs = 20_000,
): Promise<ConsoleViewer> {
  const page = await signInWithKey(browser, consoleUrl, operatorKey);
  let reads = 0;
  let polls = 0;
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === pagePath) reads += 1;
    if (url.pathname === '/console/changes') polls += 1;
  });
  await page.goto(`${consoleUrl}${pagePath}`);
  await untilTrue(() => polls > 0, `${pagePath} waits for changes`, timeoutMs);
  return { page, reads: () => reads, polls: () => polls, close: () => page.context().close() };
}

export interface WatchViewer {
  /** What the watch printed (--json): each status, then `{ caseId, ended }`. */
  seen: { state?: string; assignee?: string | null; caseId?: string; ended?: string }[];
  /** Reads of the case's status in the read model. */
  reads: () => number;
  done: Promise<Outcome>;
}

/**
 * `journey watch <caseId> --json` through the CLI's own code, on a case file that counts the
 * watch's reads of a case.
 */
export function watchJourney(client: Client, taskQueue: string, caseFile: CaseFileStore, caseId: string): WatchViewer {
  let reads = 0;
  const counting = new Proxy(caseFile, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (name === 'caseRecord') return (...args: [string]) => ((reads += 1), target.caseRecord(...args));
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as CaseFileStore;
  const seen: WatchViewer['seen'] = [];
  let run: Run | undefined;
  journeyProgram((chosen) => (run = chosen)).parse(['--json', 'watch', caseId], { from: 'user' });
  const out = {
    json: true,
    print: (_text: string, json: unknown) => void seen.push(json as WatchViewer['seen'][number]),
    progress: () => undefined,
  };
  const done = (run as Run)({ client, taskQueue, caseFile: async () => counting }, out);
  return { seen, reads: () => reads, done };
}

export async function untilTrue(probe: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`${what}: did not happen within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
