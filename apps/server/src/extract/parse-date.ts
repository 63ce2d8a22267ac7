/** A calendar date with an optional time of day and UTC offset, as read from a page. */
export interface ParsedDate {
  year: number;
  month: number;
  day: number;
  /** Present when the text gave a time of day. */
  time?: { hour: number; minute: number; second: number } | undefined;
  /** `Z` or `+02:00`, when the text gave one. */
  offset?: string | undefined;
}

const MONTHS: Record<string, number> = {
  jan: 1,
  january: 1,
  janvier: 1,
  januar: 1,
  enero: 1,
  feb: 2,
  february: 2,
  février: 2,
  februar: 2,
  mar: 3,
  march: 3,
  mars: 3,
  märz: 3,
  apr: 4,
  april: 4,
  avril: 4,
  may: 5,
  mai: 5,
  jun: 6,
  june: 6,
  juin: 6,
  juni: 6,
  jul: 7,
  july: 7,
  juillet: 7,
  juli: 7,
  aug: 8,
  august: 8,
  août: 8,
  sep: 9,
  sept: 9,
  september: 9,
  septembre: 9,
  oct: 10,
  october: 10,
  octobre: 10,
  oktober: 10,
  nov: 11,
  november: 11,
  novembre: 11,
  dec: 12,
  december: 12,
  décembre: 12,
  dezember: 12,
};
const MONTH_WORD = '(\\p{L}{3,12})\\.?';

/** Month names of a language (long, short and genitive forms), from the runtime's locale data. */
const LOCALE_MONTHS = new Map<string, Map<string, number>>();

function localeMonths(lang: string | undefined): Map<string, number> | undefined {
  if (!lang) return undefined;
  const cached = LOCALE_MONTHS.get(lang);
  if (cached) return cached;
  const names = new Map<string, number>();
  try {
    const formats = [
      new Intl.DateTimeFormat(lang, { month: 'long', timeZone: 'UTC' }),
      new Intl.DateTimeFormat(lang, { month: 'short', timeZone: 'UTC' }),
      // With a day, some languages write the month in another case ("5 марта", "5 marca").
      new Intl.DateTimeFormat(lang, { month: 'long', day: 'numeric', timeZone: 'UTC' }),
      new Intl.DateTimeFormat(lang, { month: 'short', day: 'numeric', timeZone: 'UTC' }),
    ];
    for (let month = 1; month <= 12; month++) {
      const date = new Date(Date.UTC(2024, month - 1, 15));
      for (const format of formats) {
        const name = format.formatToParts(date).find((p) => p.type === 'month')?.value;
        const word = name?.toLowerCase().replace(/\.$/, '');
        if (word && /^\p{L}{3,}$/u.test(word) && !names.has(word)) names.set(word, month);
      }
    }
  } catch {
    return undefined;
  }
  if (LOCALE_MONTHS.size < 200) LOCALE_MONTHS.set(lang, names);
  return names;
}

/** Whether the language writes the day before the month in numeric dates (`de`, `en-GB`), from its locale data. */
function dayFirst(lang: string | undefined): boolean | undefined {
  if (!lang) return undefined;
  try {
    const order = new Intl.DateTimeFormat(lang, { timeZone: 'UTC' })
      .formatToParts(new Date(Date.UTC(2024, 10, 25)))
      .map((p) => p.type)
      .filter((t) => t === 'day' || t === 'month');
    return order[0] === 'day';
  } catch {
    return undefined;
  }
}

function valid(d: ParsedDate): ParsedDate | undefined {
  if (d.month < 1 || d.month > 12 || d.day < 1 || d.day > 31 || d.year < 1000 || d.year > 9999)
    return undefined;
  const probe = new Date(Date.UTC(d.year, d.month - 1, d.day));
  if (probe.getUTCDate() !== d.day) return undefined;
  if (d.time && (d.time.hour > 23 || d.time.minute > 59 || d.time.second > 59)) return undefined;
  return d;
}

function fullYear(y: string): number {
  const n = Number(y);
  return y.length <= 2 ? (n < 70 ? 2000 + n : 1900 + n) : n;
}

/** A time of day written after a date: `19:30`, `7:30 PM`, `7pm`, `at 20h00`. */
function readTime(rest: string): ParsedDate['time'] {
  const m = /(?:^|[\sT,@]|at\s)(\d{1,2})(?:[:h.](\d{2}))?(?::(\d{2}))?\s*([ap]\.?m\.?)?(?![\d])/i.exec(rest);
  if (!m?.[1]) return undefined;
  if (!m[2] && !m[4]) return undefined; // a lone number is not a time
  let hour = Number(m[1]);
  const meridiem = m[4]?.toLowerCase().replace(/\./g, '');
  if (meridiem === 'pm' && hour < 12) hour += 12;
  if (meridiem === 'am' && hour === 12) hour = 0;
  return { hour, minute: Number(m[2] ?? 0), second: Number(m[3] ?? 0) };
}

function readOffset(rest: string): string | undefined {
  const m = /(Z|[+-]\d{2}:?\d{2})\s*$/.exec(rest.trim()) ?? /\b(UTC|GMT)\b/.exec(rest);
  if (!m?.[1]) return undefined;
  if (m[1] === 'UTC' || m[1] === 'GMT' || m[1] === 'Z') return 'Z';
  return m[1].length === 5 ? `${m[1].slice(0, 3)}:${m[1].slice(3)}` : m[1];
}

/**
 * Reads a date (and time) as written on pages: ISO 8601, `2024-03-05 19:00`,
 * `March 5, 2024`, `5 March 2024, 7:30 PM`, `Tue 5th Mar 2024`, `5 de marzo
 * de 2024`, `2024年3月5日`, `05.03.2024` (day first), `03/05/2024`. Month
 * names are English, French and German, plus those of the page's language
 * (`lang`, from the runtime's locale data); in a slashed date the day comes
 * first when the language writes it so (`en-GB`, `fr`), else when the first
 * number is above 12. Undefined when no date is found.
 */
export function parseDate(input: string, lang?: string): ParsedDate | undefined {
  const text = input.trim();
  const local = localeMonths(lang);
  const monthOf = (word: string | undefined) => {
    const w = (word ?? '').toLowerCase();
    return MONTHS[w] ?? local?.get(w);
  };
  let m =
    /(\d{4})-(\d{2})-(\d{2})(?:[T\s]+(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2}|UTC\b|GMT\b)?)?/.exec(
      text,
    );
  if (m) {
    const time = m[4] ? { hour: Number(m[4]), minute: Number(m[5]), second: Number(m[6] ?? 0) } : undefined;
    // "2024-05-31 00:35:55 UTC": a zone named after the time is an offset too.
    let offset = m[7] === 'UTC' || m[7] === 'GMT' ? 'Z' : m[7];
    if (offset && offset !== 'Z' && offset.length === 5) offset = `${offset.slice(0, 3)}:${offset.slice(3)}`;
    return valid({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), time, offset });
  }
  m =
    /(\d{4})\/(\d{1,2})\/(\d{1,2})/.exec(text) ??
    /(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일]/u.exec(text);
  if (m) return valid({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), ...rest(text, m) });
  m = /\b(\d{1,2})([./-])(\d{1,2})\2(\d{4}|\d{2})\b/.exec(text);
  if (m) {
    const a = Number(m[1]);
    const b = Number(m[3]);
    const dayFirstHere = m[2] === '.' || a > 12 || (b <= 12 && dayFirst(lang) === true);
    return valid({
      year: fullYear(m[4] ?? ''),
      month: dayFirstHere ? b : a,
      day: dayFirstHere ? a : b,
      ...rest(text, m),
    });
  }
  m = new RegExp(`(?<!\\p{L})${MONTH_WORD}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})`, 'iu').exec(text);
  if (m && monthOf(m[1])) {
    return valid({ year: Number(m[3]), month: monthOf(m[1]) ?? 0, day: Number(m[2]), ...rest(text, m) });
  }
  m = new RegExp(
    `\\b(\\d{1,2})(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+|de\\s+)?${MONTH_WORD},?\\s+(?:de\\s+)?(\\d{4})`,
    'iu',
  ).exec(text);
  if (m && monthOf(m[2])) {
    return valid({ year: Number(m[3]), month: monthOf(m[2]) ?? 0, day: Number(m[1]), ...rest(text, m) });
  }
  m = new RegExp(`^${MONTH_WORD}\\s+(?:de\\s+)?(\\d{4})$`, 'iu').exec(text);
  if (m && monthOf(m[1])) return valid({ year: Number(m[2]), month: monthOf(m[1]) ?? 0, day: 1 });
  return undefined;
}

function rest(text: string, m: RegExpExecArray): Pick<ParsedDate, 'time' | 'offset'> {
  const after = text.slice((m.index ?? 0) + m[0].length);
  const time = readTime(after);
  return { time, offset: time ? readOffset(after) : undefined };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `YYYY-MM-DD`. */
export function formatDate(d: ParsedDate): string {
  return `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;
}

/**
 * RFC 3339 date-time. A time without an offset is written as UTC (`Z`): the
 * page gave no zone, and JSON Schema's `date-time` requires one. A date
 * without a time becomes midnight.
 */
export function formatDateTime(d: ParsedDate): string {
  const t = d.time ?? { hour: 0, minute: 0, second: 0 };
  return `${formatDate(d)}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}${d.offset ?? 'Z'}`;
}
