import type { ResultContentFormat } from '@webdata/contract';
import type { CompletedItem } from '../store.js';

/**
 * Characters of one piece of a large text sent to the batch write thread. Copying a string into a
 * message costs the sending thread about 2-5 ms a Mi characters here; a 9 MB page's contents and
 * indexed text (~30 Mi characters) sent in one message held the main thread 40-110 ms.
 */
export const PIECE_CHARS = 1024 * 1024;

/** Where a large text of a batch was taken from, and how it is put back. */
export interface LargeText {
  /** Index of its outcome in the batch. */
  outcome: number;
  /** A content format, or `body` for the indexed document's body. */
  field: ResultContentFormat | 'body';
  /** How many pieces, in order, make it up; or the index of an earlier large text that is the same string. */
  from: { pieces: number } | { sameAs: number };
}

/** A batch with its large texts taken out, and the pieces they were cut into, in order. */
export interface SplitBatch {
  batch: CompletedItem[];
  texts: LargeText[];
  pieces: string[];
}

/**
 * Takes the texts of `batch` longer than `pieceChars` (contents and indexed bodies) out of a copy of
 * it, cut into pieces of at most `pieceChars`, so that they cross to another thread one piece a
 * turn of the event loop. A text met twice (a page's text content is also its indexed body) is
 * sent once. `batch` itself is not changed.
 */
export function splitLargeTexts(batch: readonly CompletedItem[], pieceChars = PIECE_CHARS): SplitBatch {
  const texts: LargeText[] = [];
  const pieces: string[] = [];
  const takeOut = (outcome: number, field: LargeText['field'], text: string): string => {
    if (text.length <= pieceChars) return text;
    // Its indexed body is a page's text content: the same string (compared by reference first, and
    // only looked for there: hashing 9 M characters to find any repeat would cost a turn of its own).
    const earlier = texts.length - 1;
    const last = texts[earlier];
    if (
      field === 'body' &&
      last?.outcome === outcome &&
      last.field === 'text' &&
      batch[outcome]!.outcome.contents.text === text
    ) {
      texts.push({ outcome, field, from: { sameAs: earlier } });
      return '';
    }
    const count = Math.ceil(text.length / pieceChars);
    for (let i = 0; i < count; i += 1) pieces.push(text.slice(i * pieceChars, (i + 1) * pieceChars));
    texts.push({ outcome, field, from: { pieces: count } });
    return '';
  };
  const copy = batch.map(({ item, outcome }, i) => {
    const contents: typeof outcome.contents = {};
    // Text last of the contents, so that the body taken out next can refer to it.
    const formats = Object.keys(outcome.contents).sort((a, b) => Number(a === 'text') - Number(b === 'text'));
    for (const format of formats as ResultContentFormat[]) {
      const body = outcome.contents[format];
      if (body !== undefined) contents[format] = takeOut(i, format, body);
    }
    const document = outcome.document && {
      ...outcome.document,
      body: takeOut(i, 'body', outcome.document.body),
    };
    return { item, outcome: { ...outcome, contents, document } };
  });
  return { batch: copy, texts, pieces };
}

/**
 * Puts the texts {@link splitLargeTexts} took out back into its batch (changed in place) as their
 * pieces arrive, in order: each text is joined once its last piece is in, and its pieces are then
 * garbage, so the receiving thread never holds every piece and every joined text at once.
 */
export class LargeTextJoiner {
  private next = 0;
  private held: string[] = [];

  constructor(
    readonly batch: CompletedItem[],
    private readonly texts: readonly LargeText[],
  ) {
    this.putCopies();
  }

  /** Whether every text is back in the batch. */
  get done(): boolean {
    return this.next >= this.texts.length;
  }

  /** Takes the next piece. */
  add(piece: string): void {
    const text = this.texts[this.next];
    if (!text || !('pieces' in text.from)) throw new Error('a piece arrived that no text expects');
    this.held.push(piece);
    if (this.held.length < text.from.pieces) return;
    this.put(text, this.held.join(''));
    this.held = [];
    this.next += 1;
    this.putCopies();
  }

  /** Texts next in line that are an earlier text again. */
  private putCopies(): void {
    for (let text = this.texts[this.next]; text && 'sameAs' in text.from; text = this.texts[this.next]) {
      this.put(text, this.valueOf(this.texts[text.from.sameAs]!));
      this.next += 1;
    }
  }

  private put(text: LargeText, value: string): void {
    const { outcome } = this.batch[text.outcome]!;
    if (text.field === 'body') outcome.document!.body = value;
    else outcome.contents[text.field] = value;
  }

  private valueOf(text: LargeText): string {
    const { outcome } = this.batch[text.outcome]!;
    return (text.field === 'body' ? outcome.document!.body : outcome.contents[text.field]) ?? '';
  }
}
