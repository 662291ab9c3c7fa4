/**
 * The load generator's HTTP client: `node:http` over one keep-alive agent, so every HTTP variant
 * of a benchmark is driven by the same client, with the same connections reused.
 */
import http from 'node:http';

export interface PostClient {
  /** POSTs the body; resolves with the status once the whole answer was read. */
  post(url: string, body: string | Buffer, headers: Record<string, string>): Promise<number>;
  close(): void;
}

export function keepAlivePostClient(maxSockets: number): PostClient {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const post = (url: string, body: string | Buffer, headers: Record<string, string>): Promise<number> =>
    new Promise((resolve, reject) => {
      const request = http.request(
        url,
        { method: 'POST', agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
        (response) => {
          response.on('data', () => {});
          response.once('end', () => resolve(response.statusCode ?? 0));
          response.once('error', reject);
        },
      );
      request.once('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive socket the server closed as this request went out (its idle timeout between
        // rounds): the request goes again on a new socket, as Node's documentation advises for an
        // idempotent request (the bridge dedupes a delivery it took twice).
        if (request.reusedSocket && error.code === 'ECONNRESET') return post(url, body, headers).then(resolve, reject);
        reject(error);
      });
      request.end(body);
    });
  return {
    post,
    close() {
      agent.destroy();
    },
  };
}
