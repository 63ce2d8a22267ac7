import { MATCH_THRESHOLD, matchScore, type NameTarget, STRONG_MATCH } from './names.js';
import { type FactNode, type FactScalar, isNode } from './page-facts.js';

/** One value on the page that may answer a property. */
export interface Candidate {
  value: FactScalar | FactNode;
  /** Name match, less a cost per level of nesting. */
  score: number;
  /** Index of the context node it came from (lower = more trusted). */
  rank: number;
  depth: number;
  /** The node holding the entry, and the entry's key: the same key there gives the array's other items. */
  parent: FactNode;
  key: string;
}

/** Cost of each nesting level on top of the name matcher's own: a node's own keys beat its children's. */
const DEPTH_COST = 0.08;

/**
 * Every entry of the context nodes (and their children, `maxDepth` levels
 * down) whose key names the target, best first: strong matches in order of
 * trust (the context order), then weaker ones by score.
 */
export function findCandidates(contexts: FactNode[], target: NameTarget, maxDepth = 2): Candidate[] {
  const found: Candidate[] = [];
  const seen = new Set<FactNode>();
  const walk = (node: FactNode, prefix: string[], depth: number, rank: number) => {
    if (seen.has(node)) return;
    seen.add(node);
    for (const entry of node.entries) {
      const path = [...prefix, entry.key];
      const raw = matchScore(target, path);
      if (raw >= MATCH_THRESHOLD) {
        found.push({
          value: entry.value,
          score: raw - DEPTH_COST * depth,
          rank,
          depth,
          parent: node,
          key: entry.key,
        });
      }
      if (isNode(entry.value) && depth < maxDepth) walk(entry.value, path, depth + 1, rank);
    }
  };
  contexts.forEach((node, rank) => {
    walk(node, [], 0, rank);
  });
  const strong = found
    .filter((c) => c.score >= STRONG_MATCH)
    .sort((a, b) => a.rank - b.rank || b.score - a.score);
  const weak = found
    .filter((c) => c.score < STRONG_MATCH && c.score >= MATCH_THRESHOLD - 0.1)
    .sort((a, b) => b.score - a.score || a.rank - b.rank);
  return [...strong, ...weak];
}

/** All values the candidate's parent holds under the candidate's key: the items of a repeated property. */
export function siblingsOf(candidate: Candidate): (FactScalar | FactNode)[] {
  return candidate.parent.entries.filter((e) => e.key === candidate.key).map((e) => e.value);
}
