/**
 * What this client has learnt about the server it talks to, so it does not
 * ask again: `undefined` until the first answer tells, then remembered for
 * the client's lifetime. Our server supports all three; a foreign one may not.
 */
export interface ServerCapabilities {
  /** `GET /runs/{id}?wait=N` is honoured (the answer carries `x-webdata-wait`). */
  longPoll: boolean | undefined;
  /** `GET /runs?ids=a,b` answers the named runs. */
  batch: boolean | undefined;
  /** `GET /runs?ids=…&wait=N` with the list's change ETag answers the runs that changed (batched long poll). */
  batchLongPoll: boolean | undefined;
}
