/**
 * A command line that cannot be run as given (a missing API key, an
 * unreadable config file, a bad option value): exit code 2 and the message.
 */
export class CliUsageError extends Error {
  override name = 'CliUsageError';
}
