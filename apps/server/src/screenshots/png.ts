import { crc32, inflateSync } from 'node:zlib';

/** The eight bytes every PNG file starts with. */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Channels per pixel of each PNG colour type (grey, RGB, palette, grey+alpha, RGBA). */
const CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Width and height of a PNG image, in pixels. */
export interface PngSize {
  width: number;
  height: number;
}

/** What {@link decodePng} learnt about a PNG after checking all of it. */
export interface PngInfo extends PngSize {
  bitDepth: number;
  colorType: number;
  /** Size of the inflated, filtered image data, in bytes. */
  rawBytes: number;
}

/**
 * The size of a PNG, read from its IHDR chunk (the first chunk, by the
 * format's rules). Checks the signature, the chunk type and its CRC, so a
 * truncated or non-PNG buffer throws instead of yielding a made-up size.
 */
export function readPngSize(buffer: Buffer): PngSize {
  const { width, height } = readHeader(buffer);
  return { width, height };
}

/**
 * Checks a whole PNG: signature, every chunk's CRC, a closing IEND, and that
 * the IDAT stream inflates to exactly the bytes the header's size and pixel
 * format need (non-interlaced images). Proves a screenshot decodes without an
 * image library. Throws on the first fault.
 */
export function decodePng(buffer: Buffer): PngInfo {
  const header = readHeader(buffer);
  const idat: Buffer[] = [];
  let offset = PNG_SIGNATURE.length;
  let sawEnd = false;
  while (offset < buffer.length) {
    const chunk = readChunk(buffer, offset);
    if (chunk.type === 'IDAT') idat.push(chunk.data);
    offset = chunk.next;
    if (chunk.type === 'IEND') {
      sawEnd = true;
      break;
    }
  }
  if (!sawEnd) throw new Error('PNG has no IEND chunk');
  if (idat.length === 0) throw new Error('PNG has no IDAT chunk');
  if (header.interlace !== 0) throw new Error('interlaced PNGs are not checked');
  const channels = CHANNELS[header.colorType];
  if (channels === undefined) throw new Error(`PNG has unknown colour type ${header.colorType}`);
  const rowBytes = 1 + Math.ceil((header.width * channels * header.bitDepth) / 8);
  const raw = inflateSync(Buffer.concat(idat));
  if (raw.length !== rowBytes * header.height) {
    throw new Error(`PNG image data is ${raw.length} bytes, expected ${rowBytes * header.height}`);
  }
  return {
    width: header.width,
    height: header.height,
    bitDepth: header.bitDepth,
    colorType: header.colorType,
    rawBytes: raw.length,
  };
}

interface PngHeader extends PngSize {
  bitDepth: number;
  colorType: number;
  interlace: number;
}

function readHeader(buffer: Buffer): PngHeader {
  if (buffer.length < PNG_SIGNATURE.length || !buffer.subarray(0, 8).equals(PNG_SIGNATURE)) {
    throw new Error('not a PNG: bad signature');
  }
  const chunk = readChunk(buffer, PNG_SIGNATURE.length);
  if (chunk.type !== 'IHDR' || chunk.data.length !== 13) throw new Error('PNG does not start with IHDR');
  const width = chunk.data.readUInt32BE(0);
  const height = chunk.data.readUInt32BE(4);
  if (width === 0 || height === 0) throw new Error('PNG has a zero dimension');
  return {
    width,
    height,
    bitDepth: chunk.data.readUInt8(8),
    colorType: chunk.data.readUInt8(9),
    interlace: chunk.data.readUInt8(12),
  };
}

/** One chunk at `offset` (length, type, data, CRC over type+data); throws when cut short or corrupt. */
function readChunk(buffer: Buffer, offset: number): { type: string; data: Buffer; next: number } {
  if (offset + 12 > buffer.length) throw new Error('PNG is truncated');
  const length = buffer.readUInt32BE(offset);
  const end = offset + 8 + length;
  if (end + 4 > buffer.length) throw new Error('PNG is truncated');
  const type = buffer.toString('latin1', offset + 4, offset + 8);
  const data = buffer.subarray(offset + 8, end);
  const expected = buffer.readUInt32BE(end);
  if (crc32(buffer.subarray(offset + 4, end)) !== expected)
    throw new Error(`PNG chunk ${type} has a bad CRC`);
  return { type, data, next: end + 4 };
}
