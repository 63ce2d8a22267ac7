/**
 * Builds a function that replaces every occurrence of the given secrets with
 * `[redacted]`. Error bodies and messages from a (foreign) server are passed
 * through it, since a server may echo the API key it was sent.
 */
export function secretRedactor(secrets: readonly string[]): (text: string) => string {
  const present = secrets.filter((secret) => secret.length >= 4);
  return (text) => {
    let out = text;
    for (const secret of present) out = out.split(secret).join('[redacted]');
    return out;
  };
}

/** Applies a string redactor to every string inside a JSON-like value. */
export function redactDeep(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redact));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [redact(key), redactDeep(item, redact)]),
    );
  }
  return value;
}
