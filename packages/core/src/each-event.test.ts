import { Observable, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { eachEvent } from './each-event.js';
import { AbortError } from './errors.js';

describe('eachEvent', () => {
  it('yields every event in order, also those sent before the loop asked, then ends with the stream', async () => {
    const events$ = new Observable<number>((subscriber) => {
      subscriber.next(1);
      subscriber.next(2);
      setTimeout(() => {
        subscriber.next(3);
        subscriber.complete();
      }, 5);
    });
    const seen: number[] = [];
    for await (const n of eachEvent(events$)) seen.push(n);
    expect(seen).toEqual([1, 2, 3]);
  });

  it("throws the stream's error after the events before it", async () => {
    const subject = new Subject<string>();
    const seen: string[] = [];
    const loop = (async () => {
      for await (const s of eachEvent(subject)) seen.push(s);
    })();
    subject.next('a');
    subject.error(new Error('run failed'));
    await expect(loop).rejects.toThrow('run failed');
    expect(seen).toEqual(['a']);
  });

  it('subscribes when the loop starts, and a break unsubscribes', async () => {
    let subscribed = 0;
    let unsubscribed = 0;
    const events$ = new Observable<number>((subscriber) => {
      subscribed += 1;
      let n = 0;
      const timer = setInterval(() => subscriber.next(n++), 1);
      return () => {
        unsubscribed += 1;
        clearInterval(timer);
      };
    });
    const iterable = eachEvent(events$);
    expect(subscribed).toBe(0);
    for await (const n of iterable) if (n === 2) break;
    expect([subscribed, unsubscribed]).toEqual([1, 1]);
  });

  it("ends with AbortError when the caller's signal aborts, and unsubscribes", async () => {
    let unsubscribed = false;
    const events$ = new Observable<number>(() => () => {
      unsubscribed = true;
    });
    const controller = new AbortController();
    const loop = (async () => {
      for await (const _ of eachEvent(events$, { signal: controller.signal })) {
        // nothing comes
      }
    })();
    setTimeout(() => controller.abort(), 5);
    await expect(loop).rejects.toBeInstanceOf(AbortError);
    expect(unsubscribed).toBe(true);
  });
});
