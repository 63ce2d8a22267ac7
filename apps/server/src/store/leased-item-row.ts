/** A leased item as both stores select it (`items` columns): a claim's rows, a lease that ran out. */
export interface LeasedItemRow {
  id: string;
  run_id: string;
  url: string;
  depth: number;
  parent_url: string | null;
  lease_token: string;
}
