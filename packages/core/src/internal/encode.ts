/** One path segment (an id from the server or the caller), encoded so it cannot change the path. */
export function segment(value: string): string {
  return encodeURIComponent(value);
}
