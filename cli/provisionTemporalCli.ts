/**
 * `npm install`'s postinstall: provisions the Temporal CLI ahead of time. Best effort: a project
 * pointed at an external cluster needs no CLI, so a failure here warns and leaves the install
 * successful; `npm start` and `npm test` provision again and fail there with the full message.
 */
import { resolveTemporalCli } from './temporalCli';

async function main(): Promise<void> {
  if (process.env.TEMPORAL_SKIP_PROVISION === '1') return;
  try {
    const cli = await resolveTemporalCli({ log: (line) => console.log(line) });
    if (!process.argv.includes('--quiet')) console.log(`Temporal CLI: ${cli}`);
  } catch (error) {
    console.warn(`warning: ${(error as Error).message}`);
  }
}

void main();
