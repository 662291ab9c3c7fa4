/**
 * `npm install`'s postinstall, beside the Temporal CLI's: installs Schemathesis for the case API's
 * contract test ahead of time. Best effort, like the CLI's: a failure warns and leaves the install
 * successful; the test installs again when it runs and fails there with the whole message.
 */
import { resolveSchemathesis } from './schemathesis';

async function main(): Promise<void> {
  if (process.env.SCHEMATHESIS_SKIP_PROVISION === '1') return;
  try {
    await resolveSchemathesis({ log: (line) => console.log(line) });
  } catch (error) {
    console.warn(`warning: ${(error as Error).message}`);
  }
}

void main();
