import type { ResultLenient, RunLenient, Runs } from '@webdata/core';

/** A run as the client reads it from any server (unknown fields kept, unknown statuses in flight). */
export type Run = RunLenient;
/** One result of a run, as the client reads it. */
export type Result = ResultLenient;

/** The Runs view's filter: the server's own `status` and `type` filters of `GET /runs`. */
export type RunFilter = Pick<NonNullable<Parameters<Runs['list']>[0]>, 'status' | 'type'>;

/** A page of a cursor-paginated list. */
export interface Page<T> {
  data: T[];
  next_cursor?: string | null | undefined;
}
