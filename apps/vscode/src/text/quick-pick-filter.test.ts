import { describe, expect, it } from 'vitest';
import { quickPickMayMatch } from './quick-pick-filter.js';

describe('quickPickMayMatch', () => {
  it("may match what VS Code's quick pick shows: substrings, prefixes, word starts, wildcards, any case", () => {
    expect(quickPickMayMatch('chair', 'Oak Reading Chair')).toBe(true);
    expect(quickPickMayMatch('  READING ch ', 'Oak Reading Chair')).toBe(true);
    expect(quickPickMayMatch('hair', 'Oak Reading Chair')).toBe(true);
    expect(quickPickMayMatch('orc', 'Oak Reading Chair')).toBe(true);
    expect(quickPickMayMatch('oakrc', 'Oak Reading Chair')).toBe(true);
    expect(quickPickMayMatch('tutorial/classes', 'docs.python.org/3/tutorial/classes.html')).toBe(true);
    expect(quickPickMayMatch('tut*cla', 'docs.python.org/3/tutorial/classes.html')).toBe(true);
    expect(quickPickMayMatch('', 'anything')).toBe(true);
  });

  it('does not match what it surely hides: letters absent, or scattered inside words', () => {
    expect(quickPickMayMatch('sofa', 'Oak Reading Chair')).toBe(false);
    expect(quickPickMayMatch('chiar', 'Oak Reading Chair')).toBe(false);
    // Every letter is there, in order, but none at a word start after the first: the quick pick hides it.
    expect(quickPickMayMatch('oair', 'Oak Reading Chair')).toBe(false);
    // Quickly, even where many letters repeat.
    expect(quickPickMayMatch(`${'a'.repeat(30)}b`, 'a '.repeat(200))).toBe(false);
    expect(quickPickMayMatch('tut*zzz', 'docs.python.org/3/tutorial/classes.html')).toBe(false);
  });
});
