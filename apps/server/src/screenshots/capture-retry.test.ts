import { describe, expect, it } from 'vitest';
import { captureRetryingNoFrame } from './capture-retry.js';

const noFrame = () =>
  new Error('cdpSession.send: Protocol error (Page.captureScreenshot): Unable to capture screenshot');

describe('captureRetryingNoFrame', () => {
  it('captures again once when Chromium had no frame to copy', async () => {
    let calls = 0;
    const png = await captureRetryingNoFrame(async () => {
      calls += 1;
      if (calls === 1) throw noFrame();
      return 'png';
    }, 1);
    expect(png).toBe('png');
    expect(calls).toBe(2);
  });

  it('gives up on the second such answer, and never retries another error', async () => {
    let calls = 0;
    await expect(
      captureRetryingNoFrame(async () => {
        calls += 1;
        throw noFrame();
      }, 1),
    ).rejects.toThrow(/Unable to capture screenshot/);
    expect(calls).toBe(2);
    calls = 0;
    await expect(
      captureRetryingNoFrame(async () => {
        calls += 1;
        throw new Error('Target closed');
      }, 1),
    ).rejects.toThrow('Target closed');
    expect(calls).toBe(1);
  });
});
