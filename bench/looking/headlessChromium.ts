/**
 * The headless Chromium the console's tests and `npm run bench:looking` drive (Debian's
 * `chromium`, through playwright-core, which downloads no browser), and signing in to the console
 * with an operator key in a browser context of its own (its own cookies), so that no test depends
 * on another having signed in first.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** CHROMIUM_PATH, or Debian's and Ubuntu's binary; undefined when none is installed. */
export const chromiumPath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p): p is string => Boolean(p && existsSync(p)),
);

export function launchChromium(): Promise<Browser> {
  if (!chromiumPath) throw new Error('no chromium binary: apt-get install -y chromium, or set CHROMIUM_PATH');
  return chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
}

/**
 * A new browser context signed in to the console at `consoleUrl` with `operatorKey`; closing the
 * page's context is the caller's.
 */
export async function signInWithKey(
  browser: Browser,
  consoleUrl: string,
  operatorKey: string,
  viewport = { width: 1280, height: 900 },
): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(`${consoleUrl}/console`);
  await page.fill('input[name=key]', operatorKey);
  await page.click('button');
  await page.waitForURL(/\/console$/);
  return page;
}
