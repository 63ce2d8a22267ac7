import { describe, expect, it } from 'vitest';
import { type Context, findCandidates } from './candidates.js';
import type { EvidenceKind } from './evidence.js';
import { nameTarget } from './names.js';
import { type FactNode, newNode } from './page-facts.js';

/** A node of the given source holding `[key, value, evidence]` entries. */
function nodeOf(source: FactNode['source'], entries: [string, string, EvidenceKind][]): FactNode {
  const node = newNode(source, 'label');
  for (const [key, value, evidence] of entries) node.entries.push({ key, value, evidence });
  return node;
}

const contexts = (...nodes: FactNode[]): Context[] => nodes.map((node) => ({ node, weight: 1 }));
const valuesFor = (name: string, ...nodes: FactNode[]) =>
  findCandidates(contexts(...nodes), nameTarget(name)).map((c) => c.value);

describe('findCandidates', () => {
  // A manual page: its NAME line read as `summary` (a synonym of synopsis), its SYNOPSIS section as itself.
  const manual = () =>
    nodeOf('structure', [
      ['summary', 'Add file contents to the index', 'manual'],
      ['SYNOPSIS', 'git add [--verbose | -v] [--] [<pathspec>…]', 'section'],
    ]);

  it("leaves out a node's synonym where the same node states the property in its own words", () => {
    expect(valuesFor('synopsis', manual())).toEqual(['git add [--verbose | -v] [--] [<pathspec>…]']);
    // The other way round too: asked for the summary, the SYNOPSIS is the stand-in.
    expect(valuesFor('summary', manual())).toEqual(['Add file contents to the index']);
  });

  it('keeps the synonym where the node does not use the own words, or they are too weak to answer', () => {
    const alone = nodeOf('structure', [['summary', 'Add file contents to the index', 'manual']]);
    expect(valuesFor('synopsis', alone)).toEqual(['Add file contents to the index']);
    const weak = nodeOf('structure', [
      ['summary', 'Add file contents to the index', 'manual'],
      ['synopsis', 'a guess from the text', 'pattern'],
    ]);
    expect(valuesFor('synopsis', weak)).toEqual(['Add file contents to the index', 'a guess from the text']);
  });

  it("keeps another node's synonym: a different source that says it differently is still a witness", () => {
    const meta = nodeOf('meta', [['description', 'Adds files to the index', 'meta-name']]);
    const section = nodeOf('structure', [['Synopsis', 'git add <pathspec>', 'section']]);
    expect(valuesFor('synopsis', meta, section)).toEqual(['Adds files to the index', 'git add <pathspec>']);
  });
});
