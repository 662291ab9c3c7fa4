/** Ends a process on a start-up error: configuration errors as their plain message, others with a stack. */
import { ConfigurationError } from './environment';

export function exitOnConfigurationError(error: unknown): never {
  if (error instanceof ConfigurationError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
}
