/**
 * Writes the app's icons (scripts/icons/draw.ts) into server/media/icons, which the server sends under
 * /media/icons/ (server/plugins/appIdentity.ts): icon.svg for the browser, icon-180.png as the apple-touch-icon,
 * icon-192.png and icon-512.png for the web app manifest and link previews. `npm run icons`; with --check, says
 * whether the committed files are what the drawing makes (tests/scripts/icons.test.ts runs the same comparison).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { iconPixels, iconSvg } from './icons/draw';

export const iconsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../server/media/icons');

/** The PNG sizes, by file name. */
export const PNG_SIZES = { 'icon-180.png': 180, 'icon-192.png': 192, 'icon-512.png': 512 } as const;

/**
 * Encodes opaque RGBA pixels as a small PNG: RGB without alpha, rows unfiltered and deflate at level 9 with its
 * default strategy (for these flat pictures, 8 KiB at 512 px against 11 KiB with pngjs' defaults).
 *
 * @param size - width and height
 * @param rgba - from iconPixels
 * @returns the PNG file's bytes
 */
export function encodePng(size: number, rgba: Buffer): Buffer {
  const png = new PNG({ width: size, height: size });
  rgba.copy(png.data);
  return PNG.sync.write(png, { colorType: 2, inputColorType: 6, deflateLevel: 9, deflateStrategy: 0, filterType: 0 });
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
