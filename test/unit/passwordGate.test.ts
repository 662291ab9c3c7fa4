/**
 * The embedded case file's password gate stays up whatever a client does on the wire: one that
 * resets its connection in the middle of the challenge is dropped, and the next is served.
 */
import net from 'node:net';
import { startPasswordGate, type PasswordGate } from '../../case-file/passwordGate';

let gate: PasswordGate;
beforeAll(async () => {
  gate = await startPasswordGate({ host: '127.0.0.1', port: 0, password: 'secret', socketPath: '/nonexistent' });
});
afterAll(async () => {
  await gate?.stop();
});

/** A protocol 3.0 startup message for `user`. */
function startup(user: string): Buffer {
  const body = Buffer.from(`user\0${user}\0\0`);
  const message = Buffer.alloc(8 + body.length);
  message.writeInt32BE(message.length, 0);
  message.writeInt32BE(196_608, 4);
  body.copy(message, 8);
  return message;
}

/** Connects, sends a startup, and answers the first byte the gate sends back (its challenge). */
function challenged(): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(gate.port, '127.0.0.1', () => socket.write(startup('postgres')));
    socket.once('data', () => resolve(socket));
    socket.once('error', reject);
  });
}

test('a client that resets its connection mid-challenge is dropped, and the gate serves the next', async () => {
  const first = await challenged();
  const gone = new Promise((resolve) => first.once('close', resolve));
  first.resetAndDestroy();
  await gone;
  const second = await challenged();
  second.destroy();
});
