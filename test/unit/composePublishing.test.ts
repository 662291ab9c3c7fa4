/**
 * What compose.yaml publishes on the host: by default only the bridge and the case API, on the
 * interface the lender chooses (BIND_ADDRESS, loopback unless set); the Web UI and the codec
 * server only in their profile and only on loopback; Temporal never. No credential in the codec
 * endpoint the Web UI serves to browsers. (.ci/compose-config checks the file with Compose itself.)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../config/projectRoot';

interface Service {
  ports: string[];
  profiles: string;
  environment: string[];
}

/** The services' published ports, profiles and environment lines, read from the file's layout. */
function services(): Map<string, Service> {
  const found = new Map<string, Service>();
  let current: Service | undefined;
  let list: 'ports' | 'environment' | undefined;
  let inServices = false;
  for (const line of readFileSync(path.join(projectRoot, 'compose.yaml'), 'utf8').split('\n')) {
    if (/^\S/.test(line)) inServices = line.startsWith('services:');
    if (!inServices || /^\s*#/.test(line) || !line.trim()) continue;
    const service = /^ {2}([a-z][\w-]*):\s*$/.exec(line);
    if (service) {
      current = { ports: [], profiles: '', environment: [] };
      found.set(service[1]!, current);
      list = undefined;
      continue;
    }
    const key = /^ {4}(\w+):\s*(.*)$/.exec(line);
    if (key && current) {
      list = key[1] === 'ports' ? 'ports' : key[1] === 'environment' ? 'environment' : undefined;
      if (key[1] === 'profiles') current.profiles = key[2]!;
      continue;
    }
    if (current && list === 'ports') current.ports.push(line.trim().replace(/^- /, '').replace(/"/g, ''));
    if (current && list === 'environment') current.environment.push(line.trim());
  }
  return found;
}

test('by default only the bridge and the case API are published, on BIND_ADDRESS (loopback unless set)', () => {
  const all = services();
  const published = [...all].filter(([, s]) => s.ports.length && !s.profiles).map(([name, s]) => [name, s.ports]);
  expect(Object.fromEntries(published)).toEqual({
    bridge: ['${BIND_ADDRESS:-127.0.0.1}:8470:8470'],
    'case-api': ['${BIND_ADDRESS:-127.0.0.1}:8490:8490'],
  });
});

test('the Web UI and the codec server are published only in their profile, on loopback; Temporal never', () => {
  const all = services();
  expect(all.get('temporal')?.ports).toEqual([]);
  for (const name of ['temporal-ui', 'codec-server']) {
    expect(all.get(name)?.profiles).toContain('operator-ui');
    for (const port of all.get(name)!.ports) expect(port).toMatch(/^127\.0\.0\.1:/);
  }
});

test('the codec endpoint the Web UI serves to browsers carries no token', () => {
  const endpoint = services()
    .get('temporal-ui')!
    .environment.find((line) => line.startsWith('TEMPORAL_CODEC_ENDPOINT:'));
  expect(endpoint).toBe('TEMPORAL_CODEC_ENDPOINT: http://localhost:8888');
});
