/**
 * Ctrl-C ended the command (exit 130): the message says what became of the
 * run, cancelled when this command made it, left going when it only watched.
 */
export class CliInterrupted extends Error {
  override name = 'CliInterrupted';
}
