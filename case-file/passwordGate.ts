/**
 * The embedded case file's door on 127.0.0.1: pglite-socket has no authentication, so it listens on
 * a Unix socket in a private folder, and this gate on TCP asks every connection for the password
 * (PostgreSQL's MD5 challenge: a fresh salt each time, the password never on the wire), compares in
 * constant time, and only then hands the connection's startup message to PGlite and pipes the rest.
 * PGlite answers the startup with AuthenticationOk, which is what the client awaits after its
 * password. A wrong or missing password gets PostgreSQL's error 28P01 and the connection is closed.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import net from 'node:net';

const SSL_REQUEST = 80_877_103;
const GSS_REQUEST = 80_877_104;
const PROTOCOL_3 = 196_608;
/** A client that has not authenticated within this is dropped. */
const AUTH_TIMEOUT_MS = 10_000;
/** Larger startup or password messages are not PostgreSQL clients. */
const MAX_MESSAGE_BYTES = 10_000;

export interface PasswordGate {
  port: number;
  stop(): Promise<void>;
}

export async function startPasswordGate(options: {
  host: string;
  port: number;
  password: string;
  socketPath: string;
}): Promise<PasswordGate> {
  const clients = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    clients.add(socket);
    socket.once('close', () => clients.delete(socket));
    // A client that resets its connection is dropped; unheard, its error would end the process.
    socket.on('error', () => socket.destroy());
    void admit(socket, options).catch(() => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    async stop() {
      for (const socket of clients) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Reads whole messages off a socket before it is piped (`typed`: a type byte precedes the length). */
class MessageReader {
  private buffered = Buffer.alloc(0);
  private closed = false;
  private waiting?: () => void;

  constructor(private readonly socket: net.Socket) {
    socket.on('data', this.onData);
    socket.once('close', () => {
      this.closed = true;
      this.waiting?.();
    });
  }

  private readonly onData = (chunk: Buffer) => {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    this.waiting?.();
  };

  async next(typed: boolean): Promise<Buffer> {
    const header = typed ? 5 : 4;
    for (;;) {
      if (this.buffered.length >= header) {
        const length = this.buffered.readInt32BE(header - 4) + header - 4;
        if (length < header || length > MAX_MESSAGE_BYTES) throw new Error('not a PostgreSQL message');
        if (this.buffered.length >= length) {
          const message = this.buffered.subarray(0, length);
          this.buffered = this.buffered.subarray(length);
          return message;
        }
      }
      if (this.closed) throw new Error('the client closed the connection');
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  /** Stops reading; answers what was received beyond the messages read. */
  release(): Buffer {
    this.socket.off('data', this.onData);
    this.socket.pause();
    return this.buffered;
  }
}

async function admit(socket: net.Socket, options: { password: string; socketPath: string }): Promise<void> {
  socket.setTimeout(AUTH_TIMEOUT_MS, () => socket.destroy());
  const reader = new MessageReader(socket);
  let startup = await reader.next(false);
  while ([SSL_REQUEST, GSS_REQUEST].includes(startup.readInt32BE(4))) {
    socket.write('N'); // no TLS, no GSSAPI: the client goes on in plain text (loopback only)
    startup = await reader.next(false);
  }
  if (startup.readInt32BE(4) !== PROTOCOL_3) throw new Error('not a protocol 3.0 startup');
  const user = startupParameter(startup, 'user') ?? '';
  const salt = randomBytes(4);
  socket.write(authenticationMd5(salt));
  const answer = await reader.next(true);
  if (answer[0] !== 'p'.charCodeAt(0) || !md5Matches(answer.subarray(5), user, options.password, salt)) {
    socket.end(passwordFailed(user));
    return;
  }
  socket.setTimeout(0);
  const upstream = net.connect(options.socketPath);
  upstream.on('error', () => socket.destroy());
  socket.on('error', () => upstream.destroy());
  socket.once('close', () => upstream.destroy());
  upstream.once('close', () => socket.destroy());
  upstream.write(startup);
  const rest = reader.release();
  if (rest.length > 0) upstream.write(rest);
  socket.pipe(upstream);
  upstream.pipe(socket);
}

function startupParameter(startup: Buffer, name: string): string | undefined {
  const fields = startup.subarray(8).toString('utf8').split('\0');
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
  return undefined;
}

const md5 = (text: string | Buffer) => createHash('md5').update(text).digest('hex');

/** `md5` + md5(md5(password + user) + salt), as libpq and pg send it; compared in constant time. */
function md5Matches(message: Buffer, user: string, password: string, salt: Buffer): boolean {
  const end = message.indexOf(0);
  const given = message.subarray(0, end < 0 ? message.length : end);
  const expected = Buffer.from(`md5${md5(Buffer.concat([Buffer.from(md5(password + user)), salt]))}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function authenticationMd5(salt: Buffer): Buffer {
  const message = Buffer.alloc(13);
  message.write('R', 0);
  message.writeInt32BE(12, 1);
  message.writeInt32BE(5, 5);
  salt.copy(message, 9);
  return message;
}

function passwordFailed(user: string): Buffer {
  const fields = ['SFATAL', 'VFATAL', 'C28P01', `Mpassword authentication failed for user "${user}"`];
  const body = Buffer.from(`${fields.join('\0')}\0\0`, 'utf8');
  const message = Buffer.alloc(5 + body.length);
  message.write('E', 0);
  message.writeInt32BE(4 + body.length, 1);
  body.copy(message, 5);
  return message;
}
