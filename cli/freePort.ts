import { readFileSync } from 'node:fs';
import net from 'node:net';

/** How far below the kernel's ephemeral range ports are picked. */
const SPAN = 12_000;
const ATTEMPTS = 50;

/**
 * A TCP port on 127.0.0.1 that was free a moment ago, picked *below* the kernel's ephemeral range.
 *
 * Why not `listen(0)`: that hands out a port from the ephemeral range, the same range the kernel
 * draws the local ports of outgoing connections from. A test that stops a server and starts it
 * again on the same port leaves clients reconnecting to that port meanwhile; any outgoing
 * connection of the machine may then take the port as its local end, and a client reconnecting
 * to it can even connect to itself (TCP simultaneous open). Either way the restart finds its port
 * taken. Outside the ephemeral range only an explicit bind can take the port.
 */
export async function freePort(): Promise<number> {
  const below = ephemeralRangeStart();
  const low = Math.max(1_024, below - SPAN);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const candidate = low + Math.floor(Math.random() * (below - low));
    if (await canListen(candidate)) return candidate;
  }
  return anyPort();
}

/** The first port of the kernel's ephemeral range (Linux's default when it cannot be read). */
export function ephemeralRangeStart(): number {
  try {
    const first = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(first) && first > 1_024 + 1_000 ? first : 32_768;
  } catch {
    return 32_768;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Last resort when every pick was taken: whatever the OS hands out. */
function anyPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
