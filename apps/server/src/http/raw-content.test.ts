import { describe, expect, it } from 'vitest';
import { acceptedAnswers, preferredRawType } from './raw-content.js';

const TYPES = ['text/markdown', 'text/html', 'text/plain'];

describe('acceptedAnswers', () => {
  it('orders by q-value, then by place in the header, JSON for application/json, application/* and */*', () => {
    expect(acceptedAnswers(undefined, TYPES)).toEqual(['json']);
    expect(acceptedAnswers('text/markdown', TYPES)).toEqual(['text/markdown']);
    expect(acceptedAnswers('text/markdown;q=0.2, application/json', TYPES)).toEqual([
      'json',
      'text/markdown',
    ]);
    expect(acceptedAnswers('application/json;q=0.5, text/markdown', TYPES)).toEqual([
      'text/markdown',
      'json',
    ]);
    expect(acceptedAnswers('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', TYPES)).toEqual(
      ['text/html', 'json'],
    );
    expect(acceptedAnswers('TEXT/Plain ; Q=0.9, text/markdown', TYPES)).toEqual([
      'text/markdown',
      'text/plain',
    ]);
  });

  it('leaves out what q=0 refuses, and falls back to JSON when nothing it names is on offer', () => {
    expect(acceptedAnswers('application/json;q=0, text/plain', TYPES)).toEqual(['text/plain']);
    expect(acceptedAnswers('image/png', TYPES)).toEqual(['json']);
    expect(acceptedAnswers('text/*', TYPES)).toEqual(['json']);
    expect(acceptedAnswers('*/*;q=0', TYPES)).toEqual(['json']);
    expect(acceptedAnswers('text/html;q=abc', TYPES)).toEqual(['text/html']);
    expect(acceptedAnswers(';;,,', TYPES)).toEqual(['json']);
  });

  it('gives the raw type to answer a given format with, or null for JSON', () => {
    expect(preferredRawType('text/markdown;q=0.9, application/json', TYPES)).toBeNull();
    expect(preferredRawType('application/json;q=0.9, text/html', TYPES)).toBe('text/html');
    expect(preferredRawType(undefined, TYPES)).toBeNull();
  });
});
