/**
 * Every Temporal client a process builds carries the project's data converter (a
 * client built without it, by the dead-letter replay say, would signal plaintext). The factory's clients
 * encrypt; and no process code builds a client any other way, so a new process cannot forget.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { temporalClientOn } from '../../client/temporalClient';
import { EncryptionCodec } from '../../codec/encryptionCodec';
import { generatePayloadKey } from '../../codec/payloadKeys';

const root = path.join(__dirname, '..', '..');
/** Where the processes' code lives (tests and benchmarks build plain clients on purpose). */
const processDirectories = [
  'activities',
  'case-api',
  'case-events',
  'case-file',
  'cli',
  'client',
  'codec',
  'config',
  'provider',
  'simulator',
  'webhook-bridge',
  'worker',
];
const FACTORY = 'client/temporalClient.ts';
const CLIENT_CONSTRUCTION = /new\s+(?:Workflow|Schedule|AsyncCompletion|TaskQueue)?Client\s*\(\s*\{[^)]*\}?/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const relative = path.posix.join(dir, name);
    if (statSync(path.join(root, relative)).isDirectory()) return sourceFiles(relative);
    return /\.(ts|cjs|js)$/.test(name) ? [relative] : [];
  });
}

function clientConstructions(): { file: string; call: string }[] {
  return processDirectories
    .flatMap(sourceFiles)
    .flatMap((file) =>
      [...readFileSync(path.join(root, file), 'utf8').matchAll(CLIENT_CONSTRUCTION)].map((m) => ({ file, call: m[0] })),
    );
}

test('a client from the factory encrypts with the project codec', () => {
  const client = temporalClientOn(Connection.lazy({ address: '127.0.0.1:1' }), 'default', [
    generatePayloadKey('factory-test'),
  ]);
  const codecs = client.options.loadedDataConverter.payloadCodecs;
  expect(codecs.map((codec) => codec.constructor.name)).toEqual([EncryptionCodec.name]);
});

test('no process builds a Temporal client except through client/temporalClient.ts', () => {
  const elsewhere = clientConstructions().filter(({ file }) => file !== FACTORY);
  expect(elsewhere).toEqual([]);
});
