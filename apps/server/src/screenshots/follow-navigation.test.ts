import { describe, expect, it } from 'vitest';
import { evaluateFollowingNavigations } from './follow-navigation.js';

const navigated = () =>
  new Error('page.evaluate: Execution context was destroyed, most likely because of a navigation');

describe('evaluateFollowingNavigations', () => {
  it('waits for the next load and evaluates again after each navigation, up to the bound', async () => {
    let calls = 0;
    let settles = 0;
    const answer = await evaluateFollowingNavigations(
      async () => {
        calls++;
        if (calls <= 2) throw navigated();
        return 42;
      },
      async () => {
        settles++;
      },
      5,
      0,
    );
    expect({ answer, calls, settles }).toEqual({ answer: 42, calls: 3, settles: 2 });
    await expect(
      evaluateFollowingNavigations(
        async () => {
          throw navigated();
        },
        async () => undefined,
        2,
        0,
      ),
    ).rejects.toThrow(/Execution context was destroyed/);
  });

  it('passes any other error on at once', async () => {
    let settles = 0;
    await expect(
      evaluateFollowingNavigations(
        async () => {
          throw new Error('Target page, context or browser has been closed');
        },
        async () => {
          settles++;
        },
      ),
    ).rejects.toThrow(/closed/);
    expect(settles).toBe(0);
  });
});
