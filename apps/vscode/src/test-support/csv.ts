/** Splits RFC 4180 text into records of fields (quoted fields may hold commas, quotes and line breaks). */
export function parseCsv(csv: string): string[][] {
  // A byte-order mark is not part of the first field (as Excel reads it).
  const text = csv.startsWith('\uFEFF') ? csv.slice(1) : csv;
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += char;
  }
  if (field !== '' || record.length > 0)
    throw new Error(`text after the last CRLF: ${JSON.stringify(field)}`);
  return records;
}
