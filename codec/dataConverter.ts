/**
 * The data converter of every Temporal client and worker in the project: the encryption codec and
 * the failure converter that encodes messages and stack traces. A prebuilt workflow bundle must
 * be built with the same `failureConverterPath` (see test/setup/globalSetup.ts).
 */
import type { DataConverter } from '@temporalio/common';
import { EncryptionCodec } from './encryptionCodec';
import type { PayloadKeys } from './payloadKeySchema';

export const failureConverterPath = require.resolve('./failureConverter');

export function dataConverterFor(keys: PayloadKeys): DataConverter {
  return { payloadCodecs: [new EncryptionCodec(keys)], failureConverterPath };
}
