/** Starts the codec server (on 127.0.0.1 unless configured); used by `npm run codec-server` and by the stack. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CodecServerConfig } from './codecServerConfig';
import { createCodecServerApp } from './codecServer';
import { EncryptionCodec } from './encryptionCodec';
import type { PayloadKeys } from './payloadKeySchema';

export interface RunningCodecServer {
  /** Base URL for the CLI (`--codec-endpoint`, with `--codec-auth "Bearer <token>"`). */
  url: string;
  /**
   * Base URL with the run's UI token as a path segment, for a Web UI that cannot send the header;
   * undefined without a UI token (the kept token never travels in a URL). Secret: never print it.
   */
  uiEndpoint: string | undefined;
  stop(): Promise<void>;
}

export async function startCodecServer(config: CodecServerConfig, keys: PayloadKeys): Promise<RunningCodecServer> {
  const app = createCodecServerApp(new EncryptionCodec(keys), config);
  const server: Server = await new Promise((resolve, reject) => {
    // Express calls the callback on a listen error too (a taken port), with the error.
    const s = app.listen(config.port, config.host ?? '127.0.0.1', (error) => (error ? reject(error) : resolve(s)));
    s.once('error', reject);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    uiEndpoint: config.uiToken ? `${url}/${config.uiToken}` : undefined,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
