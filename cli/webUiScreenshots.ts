/**
 * `npm run docs:web-ui -- <caseId>`: the Temporal Web UI screenshots in docs/, taken with Debian's
 * Chromium (playwright-core) from a running `npm start -- --keep`: the journeys list with the
 * CaseId and JourneyState columns, and a journey's summary and current details (decoded through
 * the codec server). `<caseId>` names the journey to show; `WEB_UI_URL` the UI (default
 * http://127.0.0.1:8233), `CHROMIUM` the browser (default /usr/bin/chromium).
 */
import path from 'node:path';
import { chromium } from 'playwright-core';
import { projectRoot } from '../config/projectRoot';

async function main(): Promise<void> {
  const caseId = process.argv[2];
  if (!caseId) {
    console.error('usage: npm run docs:web-ui -- <caseId>   (with npm start -- --keep running)');
    process.exit(2);
  }
  const ui = process.env.WEB_UI_URL ?? 'http://127.0.0.1:8233';
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 2100, height: 600 } });
    const list = `${ui}/namespaces/default/workflows?query=${encodeURIComponent('WorkflowType="onboardCase"')}`;
    await page.goto(list, { waitUntil: 'load' });
    // The list's columns are the browser's setting: make it read like a case list.
    await page.getByLabel('Configure Columns').click();
    for (const label of ['Remove Run ID column', 'Remove End column', 'Add CaseId column', 'Add JourneyState column'])
      await page.getByLabel(label).click();
    await page.goto(list, { waitUntil: 'load' });
    await page.getByText('onboardCase').first().waitFor();
    await page.screenshot({ path: path.join(projectRoot, 'docs', 'web-ui-journeys.png') });

    await page.setViewportSize({ width: 1600, height: 760 });
    await page.goto(`${ui}/namespaces/default/workflows/${encodeURIComponent(`case/${caseId}`)}`, {
      waitUntil: 'load',
    });
    await page.getByText('User Metadata').first().click();
    await page.getByText('Current Details').first().waitFor();
    await page.screenshot({ path: path.join(projectRoot, 'docs', 'web-ui-journey.png') });
    console.log('docs/web-ui-journeys.png, docs/web-ui-journey.png');
  } finally {
    await browser.close();
  }
}

main().catch((error: Error) => {
  console.error(`screenshots failed: ${error.message}`);
  process.exit(1);
});
