/** Currency signs and the ISO 4217 codes they usually mean. */
const CURRENCY_SIGNS: [RegExp, string][] = [
  [/US\$|\$\s?USD|USD/i, 'USD'],
  [/C\$|CAD/i, 'CAD'],
  [/A\$|AUD/i, 'AUD'],
  [/€|EUR\b|euros?\b/i, 'EUR'],
  [/£|GBP/i, 'GBP'],
  [/¥|JPY|円/i, 'JPY'],
  [/₹|INR|Rs\.?\s/i, 'INR'],
  [/CHF/i, 'CHF'],
  [/SEK/i, 'SEK'],
  [/NOK/i, 'NOK'],
  [/DKK/i, 'DKK'],
  [/zł|PLN/i, 'PLN'],
  [/\bkr\b/i, 'SEK'],
  [/\$/, 'USD'],
];

/** The ISO 4217 code of the first currency named or signed in a text, if any. */
export function detectCurrency(text: string): string | undefined {
  const code = /\b([A-Z]{3})\b/.exec(text)?.[1];
  for (const [pattern, iso] of CURRENCY_SIGNS) {
    if (pattern.test(text)) return iso;
  }
  return code && /^(USD|EUR|GBP|JPY|CHF|CAD|AUD|SEK|NOK|DKK|PLN|INR|CNY|BRL|MXN|NZD|SGD|HKD|ZAR)$/.test(code)
    ? code
    : undefined;
}

/** Numbers as written on pages: a digit run with group or decimal separators. */
const NUMBER_TOKEN = /[-−]?\d(?:[\d.,'’]|[\s\u00a0\u202f](?=\d{3}(?!\d)))*/;

const DECIMAL_SEPARATORS = new Map<string, '.' | ','>();

/** The decimal separator of a language (`de` → `,`, `en` → `.`), from the runtime's locale data; undefined when unknown. */
export function decimalSeparator(lang: string | undefined): '.' | ',' | undefined {
  if (!lang) return undefined;
  const known = DECIMAL_SEPARATORS.get(lang);
  if (known) return known;
  try {
    const part = new Intl.NumberFormat(lang).formatToParts(1.5).find((p) => p.type === 'decimal')?.value;
    const separator = part === ',' ? ',' : '.';
    if (DECIMAL_SEPARATORS.size < 500) DECIMAL_SEPARATORS.set(lang, separator);
    return separator;
  } catch {
    return undefined;
  }
}

/**
 * Reads the first number in a text, the way a person would: `$1,299.00` →
 * 1299, `1.299,00 €` → 1299, `1 299,50` → 1299.5, `12,5` → 12.5, `$85k` →
 * 85000, `1.2 million` → 1200000. Only a lone `.` or `,` followed by exactly
 * three digits is ambiguous (`1,299`, `1.299`): the page's language decides
 * (`lang`, whose decimal separator it is); without one, a comma groups
 * thousands and a dot is a decimal point unless the text has a euro-style
 * currency (`1.299 €`).
 */
export function parseNumber(input: string | number, lang?: string): number | undefined {
  if (typeof input === 'number') return Number.isFinite(input) ? input : undefined;
  const text = input.trim();
  const match = NUMBER_TOKEN.exec(text);
  if (!match) return undefined;
  let raw = match[0].replace(/[\s\u00a0\u202f'’]/g, '').replace('−', '-');
  raw = raw.replace(/[.,]+$/, '');
  const lastDot = raw.lastIndexOf('.');
  const lastComma = raw.lastIndexOf(',');
  let normal: string;
  if (lastDot >= 0 && lastComma >= 0) {
    const decimal = lastDot > lastComma ? '.' : ',';
    const group = decimal === '.' ? ',' : '.';
    normal = raw.split(group).join('').replace(decimal, '.');
  } else if (lastComma >= 0) {
    const parts = raw.split(',');
    const tail = parts[parts.length - 1] ?? '';
    const decimalComma = parts.length === 2 && (tail.length !== 3 || decimalSeparator(lang) === ',');
    normal = decimalComma ? raw.replace(',', '.') : parts.join('');
  } else if (lastDot >= 0) {
    const parts = raw.split('.');
    const tail = parts[parts.length - 1] ?? '';
    const language = decimalSeparator(lang);
    const groupingDot = language ? language === ',' : /€|EUR|\bkr\b|zł|CHF/i.test(text);
    normal = parts.length > 2 || (tail.length === 3 && groupingDot) ? parts.join('') : raw;
  } else {
    normal = raw;
  }
  let value = Number(normal);
  if (!Number.isFinite(value)) return undefined;
  const after = text.slice((match.index ?? 0) + match[0].length);
  if (/^\s?[kK](?![a-zA-Z])/.test(after)) value *= 1_000;
  else if (/^\s?(million|mio\.?|mn|M)(?![a-zA-Z])/.test(after)) value *= 1_000_000;
  else if (/^\s?(billion|bn|B)(?![a-zA-Z])/.test(after)) value *= 1_000_000_000;
  return value;
}

/** Two numbers of a range (`$50,000 – $70,000`, `85k-110k`, `from 20 to 30`), or undefined. */
export function parseRange(text: string): [number, number] | undefined {
  const m = /(.*?\d[^–—-]*?)\s*(?:[–—-]|\bto\b|\bbis\b|\bà\b)\s*(\D{0,6}\d.*)$/i.exec(text);
  if (!m?.[1] || !m[2]) return undefined;
  let low = parseNumber(m[1]);
  const high = parseNumber(m[2]);
  if (low === undefined || high === undefined) return undefined;
  // "85-110k": the multiplier written once applies to both ends.
  if (high >= 1000 && low < 1000 && high / low > 100 && /[kK]\b/.test(m[2])) low *= 1000;
  return low <= high ? [low, high] : undefined;
}

/**
 * A duration in minutes: ISO 8601 (`PT1H30M`), or words (`1 hr 30 mins`,
 * `45 minutes`, `2 hours`). Undefined when the text names no duration.
 */
export function parseDurationMinutes(text: string): number | undefined {
  const iso =
    /^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i.exec(
      text.trim(),
    );
  if (iso && text.trim().length > 1) {
    const [, d, h, m, s] = iso;
    return Number(d ?? 0) * 1440 + Number(h ?? 0) * 60 + Number(m ?? 0) + Number(s ?? 0) / 60;
  }
  let minutes = 0;
  let found = false;
  for (const m of text.matchAll(/(\d+(?:[.,]\d+)?)\s*(days?|d\b|hours?|hrs?|h\b|minutes?|mins?|m\b)/gi)) {
    const n = Number((m[1] ?? '0').replace(',', '.'));
    const unit = (m[2] ?? '').toLowerCase();
    found = true;
    if (unit.startsWith('d')) minutes += n * 1440;
    else if (unit.startsWith('h')) minutes += n * 60;
    else minutes += n;
  }
  return found ? minutes : undefined;
}
