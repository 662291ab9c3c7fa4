import { rmSync } from 'node:fs';
import type { DevServer } from '../../cli/devServer';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __devServer?: DevServer }).__devServer?.stop();
  if (process.env.TEST_TEMP_DIR) rmSync(process.env.TEST_TEMP_DIR, { recursive: true, force: true });
}
