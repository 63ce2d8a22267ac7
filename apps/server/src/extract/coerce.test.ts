import { describe, expect, it } from 'vitest';
import { allowsNull, coerceScalar, declaredTypes, matchEnum } from './coerce.js';
import { nameTarget } from './names.js';
import { newNode } from './page-facts.js';

const ctx = (name: string, description?: string) => ({
  pageUrl: 'https://shop.example/items/1',
  target: nameTarget(name, description),
});

describe('coerceScalar', () => {
  it('coerces to string, resolving relative links for link-like properties', () => {
    expect(coerceScalar(' Blue ', { type: 'string' }, ctx('color'))).toBe('Blue');
    expect(coerceScalar(42, { type: 'string' }, ctx('sku'))).toBe('42');
    expect(coerceScalar('/img/a.jpg', { type: 'string', format: 'uri' }, ctx('image'))).toBe(
      'https://shop.example/img/a.jpg',
    );
    expect(coerceScalar('https://schema.org/InStock', { type: 'string' }, ctx('availability'))).toBe(
      'InStock',
    );
  });

  it('coerces to number and integer', () => {
    expect(coerceScalar('$1,299.00', { type: 'number' }, ctx('price'))).toBe(1299);
    expect(coerceScalar('1.299,00 €', { type: 'number' }, ctx('price'))).toBe(1299);
    // Never bent to fit: a fraction is no integer, a range is no one number.
    expect(coerceScalar('4.6', { type: 'integer' }, ctx('stars'))).toBeUndefined();
    expect(coerceScalar('$19.99', { type: 'integer' }, ctx('price'))).toBeUndefined();
    expect(coerceScalar('Serves 4–6', { type: 'integer' }, ctx('servings'))).toBeUndefined();
    expect(coerceScalar('12 servings', { type: 'integer' }, ctx('servings'))).toBe(12);
    expect(coerceScalar('PT1H5M', { type: 'integer' }, ctx('cookTime'))).toBe(65);
    expect(coerceScalar('Call us', { type: 'number' }, ctx('price'))).toBeUndefined();
  });

  it('reads numbers out of structured nodes', () => {
    const amount = newNode('jsonld', 'jsonld', ['QuantitativeValue']);
    amount.entries.push({ key: 'value', value: 230 });
    expect(coerceScalar(amount, { type: 'integer' }, ctx('employees'))).toBe(230);
  });

  it('coerces to boolean from words and schema.org values', () => {
    const b = (v: string) => coerceScalar(v, { type: 'boolean' }, ctx('inStock'));
    expect(b('Yes')).toBe(true);
    expect(b('In stock')).toBe(true);
    expect(b('https://schema.org/InStock')).toBe(true);
    expect(b('true')).toBe(true);
    expect(b('Sold out')).toBe(false);
    expect(b('https://schema.org/OutOfStock')).toBe(false);
    expect(b('no')).toBe(false);
    expect(b('maybe')).toBeUndefined();
  });

  it('coerces dates to ISO 8601 for date and date-time formats', () => {
    expect(coerceScalar('March 3, 2024', { type: 'string', format: 'date' }, ctx('date'))).toBe('2024-03-03');
    expect(coerceScalar('2024-05-14T09:12:00+01:00', { type: 'string', format: 'date' }, ctx('date'))).toBe(
      '2024-05-14',
    );
    expect(
      coerceScalar('14 Nov 2024 18:30 +01:00', { type: 'string', format: 'date-time' }, ctx('start')),
    ).toBe('2024-11-14T18:30:00+01:00');
    // A date-time needs a time and a zone: the page gave neither, or no zone, so there is none (not midnight UTC).
    expect(
      coerceScalar('14 Nov 2024', { type: 'string', format: 'date-time' }, ctx('start')),
    ).toBeUndefined();
    expect(
      coerceScalar('14 Nov 2024 18:30', { type: 'string', format: 'date-time' }, ctx('start')),
    ).toBeUndefined();
    expect(coerceScalar('next week', { type: 'string', format: 'date' }, ctx('date'))).toBeUndefined();
  });

  it('reads an e-mail address and a currency code', () => {
    expect(coerceScalar('mailto:a@b.example', { type: 'string', format: 'email' }, ctx('email'))).toBe(
      'a@b.example',
    );
    expect(coerceScalar('no address', { type: 'string', format: 'email' }, ctx('email'))).toBeUndefined();
    expect(coerceScalar('£68.00', { type: 'string' }, ctx('currency'))).toBe('GBP');
    expect(coerceScalar('EUR', { type: 'string' }, ctx('currency'))).toBe('EUR');
  });

  it('turns addresses and named items into text', () => {
    const address = newNode('jsonld', 'jsonld', ['PostalAddress']);
    address.entries.push(
      { key: 'streetAddress', value: '1 Main St' },
      { key: 'addressLocality', value: 'Springfield' },
      { key: 'addressCountry', value: 'US' },
    );
    expect(coerceScalar(address, { type: 'string' }, ctx('address'))).toBe('1 Main St, Springfield, US');
    const person = newNode('jsonld', 'jsonld', ['Person']);
    person.entries.push({ key: 'name', value: 'Ada' });
    expect(coerceScalar(person, { type: 'string' }, ctx('author'))).toBe('Ada');
  });
});

describe('matchEnum', () => {
  it('matches case-insensitively, by normalised form and by containment', () => {
    expect(matchEnum('FULL_TIME', ['full-time', 'part-time'])).toBe('full-time');
    expect(matchEnum('In Stock', ['in stock', 'out of stock'])).toBe('in stock');
    expect(matchEnum('https://schema.org/PreOrder', ['in_stock', 'preorder'])).toBe('preorder');
    expect(matchEnum('https://schema.org/OnlineEventAttendanceMode', ['online', 'offline'])).toBe('online');
    expect(matchEnum('3', [1, 2, 3])).toBe(3);
  });
  it('omits a value no allowed value is close to', () => {
    expect(matchEnum('Freelance', ['full-time', 'part-time'])).toBeUndefined();
  });
  it('is used by coerceScalar for enum properties', () => {
    expect(
      coerceScalar('Part-time, evenings', { type: 'string', enum: ['full-time', 'part-time'] }, ctx('type')),
    ).toBe('part-time');
  });
});

describe('declaredTypes and allowsNull', () => {
  it('reads type lists, nullable and implied types', () => {
    expect(declaredTypes({ type: ['string', 'null'] })).toEqual(['string']);
    expect(declaredTypes({ properties: { a: { type: 'string' } } })).toEqual(['object']);
    expect(allowsNull({ type: 'string', nullable: true })).toBe(true);
    expect(allowsNull({ type: ['number', 'null'] })).toBe(true);
    expect(allowsNull({ type: 'number' })).toBe(false);
  });
});
