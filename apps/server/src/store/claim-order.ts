/** An active run with work queued, as a claim sees it. */
export interface ClaimableRun {
  id: string;
  owner: string;
}

/** A run in the order a claim visits them, with the items it may take in the claim's first pass. */
export interface ClaimTurn {
  id: string;
  share: number;
}

/**
 * The order in which one claim of `count` items visits the active runs, and each run's share of
 * the first pass: owners take turns (the `rotation`-th owner first, owners ordered by their
 * oldest run), and each owner's runs take turns among that owner's (its `rotation`-th run first).
 * The order is by rank: every owner's first run, then every owner's second, and so on. An owner's
 * share of the first pass is `count / owners`, split between its runs (at least one item each).
 *
 * Slots used to be shared between runs: a key with 20 runs then took 20 of every 21 freed slots
 * from a key with one. Both stores claim in this order (the PostgreSQL store in SQL).
 *
 * @param runs The active runs oldest first (by creation).
 * @param rotation A number that grows by one with each claim.
 */
export function claimOrder(runs: readonly ClaimableRun[], count: number, rotation: number): ClaimTurn[] {
  const byOwner = new Map<string, string[]>();
  for (const run of runs) {
    const owned = byOwner.get(run.owner);
    if (owned) owned.push(run.id);
    else byOwner.set(run.owner, [run.id]);
  }
  const owners = [...byOwner.values()];
  if (owners.length === 0) return [];
  const ownerQuota = Math.ceil(count / owners.length);
  const first = rotation % owners.length;
  const rotated = [...owners.slice(first), ...owners.slice(0, first)].map((ids) => {
    const start = rotation % ids.length;
    return {
      ids: [...ids.slice(start), ...ids.slice(0, start)],
      share: Math.max(1, Math.ceil(ownerQuota / ids.length)),
    };
  });
  const order: ClaimTurn[] = [];
  const deepest = Math.max(...rotated.map((owner) => owner.ids.length));
  for (let rank = 0; rank < deepest; rank += 1) {
    for (const owner of rotated) {
      const id = owner.ids[rank];
      if (id !== undefined) order.push({ id, share: owner.share });
    }
  }
  return order;
}
