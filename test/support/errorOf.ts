/** The error `read` throws; fails the test when it throws none (configuration checks expect one). */
export function errorOf(read: () => unknown): Error {
  try {
    read();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a configuration error');
}
