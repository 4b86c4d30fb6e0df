/**
 * Writes the app's icons (scripts/icons/draw.ts) into server/media/icons, which the server sends under
 * /media/icons/ (server/plugins/appIdentity.ts): icon.svg for the browser, icon-180.png as the apple-touch-icon,
 * icon-192.png and icon-512.png for the web app manifest and link previews. `npm run icons`; with --check, says
 * whether the committed files are what the drawing makes (tests/scripts/icons.test.ts runs the same comparison).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { iconPixels, iconSvg } from './icons/draw';

export const iconsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../server/media/icons');

/** The PNG sizes, by file name. */
export const PNG_SIZES = { 'icon-180.png': 180, 'icon-192.png': 192, 'icon-512.png': 512 } as const;

/** One PNG chunk: length, type, data and the CRC of type and data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * Encodes opaque RGBA pixels as a small PNG. The drawing has a few dozen colours (the brand, white and their
 * antialiased edges), so the file is indexed: a palette of them, most used first, and one byte a pixel, rows
 * unfiltered, deflate at level 9. icon-192.png, which a browser fetches for the manifest on a first visit (Lighthouse
 * counts it), is 1.3 KB instead of 2.0 KB as RGB; a picture of more than 256 colours is written as RGB by pngjs.
 *
 * @param size - width and height
 * @param rgba - from iconPixels
 * @returns the PNG file's bytes
 */
export function encodePng(size: number, rgba: Buffer): Buffer {
  const uses = new Map<number, number>();
  for (let at = 0; at < rgba.length; at += 4) uses.set(rgba.readUInt32BE(at), (uses.get(rgba.readUInt32BE(at)) ?? 0) + 1);
  if (uses.size > 256) {
    const png = new PNG({ width: size, height: size });
    rgba.copy(png.data);
    return PNG.sync.write(png, { colorType: 2, inputColorType: 6, deflateLevel: 9, deflateStrategy: 0, filterType: 0 });
  }
  const colours = [...uses.entries()].sort(([, a], [, b]) => b - a).map(([colour]) => colour);
  const index = new Map(colours.map((colour, at) => [colour, at]));
  const palette = Buffer.alloc(colours.length * 3);
  colours.forEach((colour, at) => palette.writeUIntBE(colour >>> 8, at * 3, 3));
  // Each row: filter type 0 (none), then one palette index a pixel.
  const rows = Buffer.alloc((size + 1) * size);
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) rows[y * (size + 1) + 1 + x] = index.get(rgba.readUInt32BE((y * size + x) * 4)) ?? 0;
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  // 8 bits a pixel, colour type 3 (indexed); compression, filter method and interlace 0.
  header.set([8, 3, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('PLTE', palette),
    pngChunk('IDAT', deflateSync(rows, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Which committed icons differ from the drawing: the SVG by its text, each PNG by its decoded pixels (deflate's
 * bytes may differ between zlib versions; the picture may not).
 *
 * @returns the names of the files that differ or are missing
 */
export function staleIcons(): string[] {
  const stale: string[] = [];
  const read = (name: string) => {
    try {
      return readFileSync(path.join(iconsDir, name));
    } catch {
      return null;
    }
  };
  if (read('icon.svg')?.toString('utf8') !== iconSvg()) stale.push('icon.svg');
  for (const [name, size] of Object.entries(PNG_SIZES)) {
    const file = read(name);
    const decoded = file ? PNG.sync.read(file) : null;
    if (!decoded || decoded.width !== size || !decoded.data.equals(iconPixels(size))) stale.push(name);
  }
  return stale;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) {
    const stale = staleIcons();
    if (stale.length > 0) {
      console.error(`icons: out of date, run npm run icons: ${stale.join(', ')}`);
      process.exit(1);
    }
    console.log('icons: up to date');
  } else {
    writeFileSync(path.join(iconsDir, 'icon.svg'), iconSvg());
    for (const [name, size] of Object.entries(PNG_SIZES)) writeFileSync(path.join(iconsDir, name), encodePng(size, iconPixels(size)));
    console.log(`icons: wrote icon.svg and ${Object.keys(PNG_SIZES).join(', ')} in ${path.relative(process.cwd(), iconsDir)}`);
  }
}
