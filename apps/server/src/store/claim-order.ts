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
 * the first pass. Owners come fewest held items first (`held`: the items each owner has leased
 * now, store-wide, in a slot or in a worker's reserve), then by turns (the `rotation`-th owner
 * first, owners ordered by their oldest run); each owner's runs take turns among that owner's
 * (its `rotation`-th run first). The order is by rank: every owner's first run, then every
 * owner's second, and so on.
 *
 * The first pass fills owners up toward an equal number held: each of the `count` items goes to
 * the owner holding the fewest counting what this claim gave it, so an owner at or above the
 * others' level gets none while one below it has work (its share is 0), and an owner alone gets
 * them all. An owner's share is split between its runs (at least one item each when it has a
 * share). A second pass (the stores') hands what owners with less work left open to any run, in
 * this order: the claim is work-conserving.
 *
 * Slots used to be shared between runs: a key with 20 runs then took 20 of every 21 freed slots
 * from a key with one. Then between owners claim by claim: a key whose slow pages held every slot
 * got one of every two slots that freed while another key waited with none. Both stores claim in
 * this order (the PostgreSQL store in SQL).
 *
 * @param runs The active runs oldest first (by creation).
 * @param rotation A number that grows by one with each claim.
 * @param held Items leased now by owner; an owner missing holds none.
 */
export function claimOrder(
  runs: readonly ClaimableRun[],
  count: number,
  rotation: number,
  held: ReadonlyMap<string, number> = new Map(),
): ClaimTurn[] {
  const byOwner = new Map<string, string[]>();
  for (const run of runs) {
    const owned = byOwner.get(run.owner);
    if (owned) owned.push(run.id);
    else byOwner.set(run.owner, [run.id]);
  }
  const owners = [...byOwner].map(([owner, ids]) => ({ ids, level: held.get(owner) ?? 0, share: 0 }));
  if (owners.length === 0) return [];
  const first = rotation % owners.length;
  // Fewest held first; among equals, the rotation's order (a stable sort keeps it).
  const rotated = [...owners.slice(first), ...owners.slice(0, first)].sort((a, b) => a.level - b.level);
  for (let given = 0; given < count; given += 1) {
    let lowest = rotated[0]!;
    for (const owner of rotated) if (owner.level + owner.share < lowest.level + lowest.share) lowest = owner;
    lowest.share += 1;
  }
  const turns = rotated.map((owner) => {
    const start = rotation % owner.ids.length;
    return {
      ids: [...owner.ids.slice(start), ...owner.ids.slice(0, start)],
      share: owner.share === 0 ? 0 : Math.max(1, Math.ceil(owner.share / owner.ids.length)),
    };
  });
  const order: ClaimTurn[] = [];
  const deepest = Math.max(...turns.map((owner) => owner.ids.length));
  for (let rank = 0; rank < deepest; rank += 1) {
    for (const owner of turns) {
      const id = owner.ids[rank];
      if (id !== undefined) order.push({ id, share: owner.share });
    }
  }
  return order;
}

/**
 * Origins whose pages wait for their host's turn, by run: a claim passes over those runs' queued
 * items at those origins (see {@link CLAIM_LOOKAHEAD}), as more of them would only wait too.
 */
export type WaitingOrigins = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * How many queued items of a run a claim looks at past those at its waiting origins. A batch of
 * URLs across hosts, one of them polite, has its other hosts' pages among the next few; a run of one
 * polite host has none, and its claim stops here instead of reading its whole queue.
 */
export const CLAIM_LOOKAHEAD = 64;

/** The origin of an item's URL (`https://a.example`), or the URL itself when it does not parse. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** The URL prefixes (`https://a.example/`) of `origins`: an item's normalised URL at one of them starts so. */
export function originPrefixes(origins: ReadonlySet<string>): string[] {
  return [...origins].map((origin) => `${origin}/`);
}
