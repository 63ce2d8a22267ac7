import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodePng, readPngSize } from './png.js';

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A real RGBA PNG of the given size, every row filter 0, all pixels grey. */
function makePng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(6, 9); // RGBA
  const raw = Buffer.alloc((1 + width * 4) * height, 0x80);
  for (let row = 0; row < height; row++) raw[row * (1 + width * 4)] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('readPngSize', () => {
  it('reads width and height from IHDR', () => {
    expect(readPngSize(makePng(3, 7))).toEqual({ width: 3, height: 7 });
    expect(readPngSize(makePng(1280, 1))).toEqual({ width: 1280, height: 1 });
  });

  it('rejects a bad signature, a truncated header and a corrupt IHDR', () => {
    const png = makePng(2, 2);
    const badSignature = Buffer.from(png);
    badSignature[1] = 0x51;
    expect(() => readPngSize(badSignature)).toThrow(/signature/);
    expect(() => readPngSize(png.subarray(0, 20))).toThrow(/truncated/);
    const corrupt = Buffer.from(png);
    corrupt[17] = (corrupt[17] ?? 0) ^ 0xff; // a byte of the width
    expect(() => readPngSize(corrupt)).toThrow(/CRC/);
    expect(() => readPngSize(Buffer.from('hello world, not an image'))).toThrow(/signature/);
  });
});

describe('decodePng', () => {
  it('accepts a complete image and reports its format', () => {
    expect(decodePng(makePng(5, 4))).toEqual({
      width: 5,
      height: 4,
      bitDepth: 8,
      colorType: 6,
      rawBytes: (1 + 5 * 4) * 4,
    });
  });

  it('rejects a PNG cut before IEND or whose data does not match its size', () => {
    const png = makePng(5, 4);
    expect(() => decodePng(png.subarray(0, png.length - 12))).toThrow(/IEND|truncated/);
    // Same IHDR, but the image data of a smaller picture.
    const small = makePng(5, 3);
    const mixed = Buffer.concat([png.subarray(0, 33), small.subarray(33)]);
    expect(() => decodePng(mixed)).toThrow(/expected/);
  });
});
