import { CONFIDENCE_FLOOR, EVIDENCE_STRENGTH, type EvidenceKind } from './evidence.js';
import { MATCH_THRESHOLD, matchScore, type NameTarget, namesInOwnWords } from './names.js';
import { type FactNode, type FactScalar, isNode } from './page-facts.js';

/** A node to look for values in, and how much its place on the page adds to or takes from its evidence. */
export interface Context {
  node: FactNode;
  /** 1 for the main item and the page-wide sources; less for other structured items (a sidebar's product). */
  weight: number;
}

/** One value on the page that may answer a property. */
export interface Candidate {
  value: FactScalar | FactNode;
  /** How well the key names the property (`names.ts`), less a cost per level of nesting. */
  match: number;
  /** The kind of evidence the value is. */
  evidence: EvidenceKind;
  /** match × strength of the evidence × the context's weight: how far the value is trusted on its own. */
  confidence: number;
  /**
   * What independent finding this is: findings with the same label are one
   * source (the same JSON-LD item, the meta tags of one kind), different
   * labels agree independently.
   */
  source: string;
  /** The node holding the entry, and the entry's key: the same key there gives the array's other items. */
  parent: FactNode;
  key: string;
  depth: number;
}

/** Cost of each nesting level on top of the name matcher's own: a node's own keys beat its children's. */
const DEPTH_COST = 0.05;

/**
 * Every entry of the contexts (and their children, `maxDepth` levels down)
 * whose key names the target, most trusted first. Where a node states the
 * target in its own words with confidence enough to answer, that node's
 * keys that only stand for those words are left out (see {@link setAsideStandIns}).
 */
export function findCandidates(contexts: Context[], target: NameTarget, maxDepth = 2): Candidate[] {
  const found: Candidate[] = [];
  const seen = new Set<FactNode>();
  const walk = (node: FactNode, prefix: string[], depth: number, context: Context, index: number) => {
    if (seen.has(node)) return;
    seen.add(node);
    for (const entry of node.entries) {
      const path = [...prefix, entry.key];
      const raw = matchScore(target, path);
      if (raw >= MATCH_THRESHOLD) {
        const evidence = entry.evidence ?? node.evidence;
        const match = raw - DEPTH_COST * depth;
        found.push({
          value: entry.value,
          match,
          evidence,
          confidence: match * EVIDENCE_STRENGTH[evidence] * context.weight,
          source: sourceLabel(node, evidence, index),
          parent: node,
          key: entry.key,
          depth,
        });
      }
      // A documented item's keys are its own: the page's description is not its 40th function's.
      if (isNode(entry.value) && depth < maxDepth && entry.evidence !== 'signature')
        walk(entry.value, path, depth + 1, context, index);
    }
  };
  contexts.forEach((context, index) => {
    walk(context.node, [], 0, context, index);
  });
  return setAsideStandIns(found, target).sort((a, b) => b.confidence - a.confidence);
}

/**
 * A synonym or a partial name stands in for a property's own words where a
 * page does not use them. One node (an item, the meta tags, the page's
 * visible structure) that holds both the own words and a stand-in keeps them
 * apart: a manual page's `SYNOPSIS` section is its usage, and its `summary`
 * (the NAME line) is something else, though "summary" is a synonym of
 * "synopsis" elsewhere. So in a node where a key in the target's own words
 * answers (its confidence reaches the floor), the node's other keys do not
 * answer the target. Other nodes are left as they are: a different source
 * that says it differently is still a witness.
 */
function setAsideStandIns(found: Candidate[], target: NameTarget): Candidate[] {
  const answered = new Set<FactNode>();
  const own = found.map((c) => namesInOwnWords(target, c.key));
  found.forEach((c, i) => {
    if (own[i] && c.confidence >= CONFIDENCE_FLOOR) answered.add(c.parent);
  });
  return answered.size === 0 ? found : found.filter((c, i) => own[i] || !answered.has(c.parent));
}

/**
 * Findings that are not independent share a label: each structured item is
 * one source; all meta tags are one (one template writes OpenGraph, Twitter
 * and the plain tags alike); the parts of the `<title>` are one; patterns
 * found in the text are one; the visible structure's other kinds (the
 * heading, a byline, a time) are each their own.
 */
function sourceLabel(node: FactNode, evidence: EvidenceKind, index: number): string {
  if (node.source === 'jsonld' || node.source === 'microdata' || node.source === 'rdfa')
    return `${node.source}#${index}`;
  if (node.source === 'meta') return 'meta';
  if (evidence.startsWith('title-')) return 'title';
  // Patterns all read the same page text (Readability's first paragraph is the structure's too).
  if (evidence === 'pattern') return 'pattern';
  return `${node.source}:${evidence}`;
}

/** All values the candidate's parent holds under the candidate's key: the items of a repeated property. */
export function siblingsOf(candidate: Candidate): (FactScalar | FactNode)[] {
  return candidate.parent.entries.filter((e) => e.key === candidate.key).map((e) => e.value);
}
