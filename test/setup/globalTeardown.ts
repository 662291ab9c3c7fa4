import { rmSync } from 'node:fs';
import type { EmbeddedCaseFile } from '../../case-file/embeddedServer';
import type { DevServer } from '../../cli/devServer';

export default async function globalTeardown(): Promise<void> {
  const started = globalThis as { __devServer?: DevServer; __caseFile?: EmbeddedCaseFile };
  await started.__devServer?.stop();
  await started.__caseFile?.stop();
  if (process.env.TEST_TEMP_DIR) rmSync(process.env.TEST_TEMP_DIR, { recursive: true, force: true });
}
