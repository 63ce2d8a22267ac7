import { describe, expect, it } from 'vitest';
import { renderContent } from './render-content.js';

describe('renderContent', () => {
  it('shows text as it is, links one per line and data as indented JSON', () => {
    expect(renderContent('# Title\n')).toBe('# Title\n');
    expect(renderContent(['https://a.example/', 'https://b.example/'])).toBe(
      'https://a.example/\nhttps://b.example/\n',
    );
    expect(renderContent({ name: 'Lamp', price: 49.9 })).toBe('{\n  "name": "Lamp",\n  "price": 49.9\n}\n');
    expect(renderContent(null)).toBe('null\n');
    expect(renderContent([1, 2])).toBe('[\n  1,\n  2\n]\n');
  });
});
