/**
 * node:fs for the bridge's durable writes (webhook-bridge/durableFile.ts), with one call made to
 * fail on demand: a full disk on write, an I/O error on a file's fsync, or bytes that read back
 * differently. What SIGKILL cannot show (its writes survive in the page cache), this does.
 */
import * as fs from 'node:fs';
import type { DurableFileSystem } from '../../webhook-bridge/durableFile';

export type FileFailure = 'write' | 'fsync' | 'read-back';

export interface FailingFileSystem extends DurableFileSystem {
  fail(failure: FileFailure): void;
  heal(): void;
}

const ioError = (code: string, call: string) =>
  Object.assign(new Error(`${code}: injected by the test, ${call}`), { code });

export function failingFileSystem(): FailingFileSystem {
  let failure: FileFailure | undefined;
  /** Descriptors opened for writing: a directory's fsync is not the file's. */
  const writing = new Set<number>();
  return {
    fail: (next) => void (failure = next),
    heal: () => void (failure = undefined),
    openSync: (file, flags, mode) => {
      const fd = fs.openSync(file, flags, mode);
      if (flags === 'w') writing.add(fd);
      return fd;
    },
    closeSync: (fd) => {
      writing.delete(fd);
      fs.closeSync(fd);
    },
    writeSync: ((fd: number, buffer: Buffer, offset?: number, length?: number) => {
      if (failure === 'write') throw ioError('ENOSPC', 'write');
      return fs.writeSync(fd, buffer, offset, length);
    }) as typeof fs.writeSync,
    fsyncSync: (fd) => {
      if (failure === 'fsync' && writing.has(fd)) throw ioError('EIO', 'fsync');
      fs.fsyncSync(fd);
    },
    readFileSync: ((file: fs.PathOrFileDescriptor, options?: unknown) => {
      const bytes = fs.readFileSync(file, options as undefined);
      return failure === 'read-back' ? Buffer.concat([bytes.subarray(0, bytes.length - 1), Buffer.from('!')]) : bytes;
    }) as typeof fs.readFileSync,
    renameSync: fs.renameSync,
    rmSync: fs.rmSync,
  };
}
