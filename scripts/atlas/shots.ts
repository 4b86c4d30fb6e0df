/**
 * Makes the atlas' screenshots small enough to commit: each PNG the e2e harness saved (test-results/visual/
 * <shot>.<lng>.light.png, 375 CSS px wide) becomes docs/atlas/shots/<shot>.<lng>.webp, cut at two phone screens'
 * height, at WebP quality 0.6. Debian's Chromium encodes them (a canvas' toDataURL), so no image library or native
 * module is added for it.
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { atlasLanguages } from '../machineGraph/texts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sourceDir = path.join(root, 'test-results', 'visual');
/** Two screens of a 375×812 phone: enough for every state's screen, and a cap on long lists. */
const MAX_HEIGHT = 1624;

/**
 * Converts the screenshots of these shots that the harness saved.
 *
 * @param shots - shot names
 * @param targetDir - docs/atlas/shots
 * @returns the shots not found, as "<shot>.<lng>"
 * @example
 * await convertShots(['login'], 'docs/atlas/shots');
 */
export async function convertShots(shots: readonly string[], targetDir: string): Promise<string[]> {
  await mkdir(targetDir, { recursive: true });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const missing: string[] = [];
  try {
    const page = await browser.newPage();
    for (const shot of shots) {
      for (const lng of atlasLanguages) {
        const png = await readFile(path.join(sourceDir, `${shot}.${lng}.light.png`)).catch(() => null);
        if (!png) {
          missing.push(`${shot}.${lng}`);
          continue;
        }
        const dataUrl = await page.evaluate(
          async ({ source, maxHeight }) => {
            const image = new Image();
            image.src = source;
            await image.decode();
            const canvas = document.createElement('canvas');
            canvas.width = image.naturalWidth;
            canvas.height = Math.min(image.naturalHeight, maxHeight);
            const context = canvas.getContext('2d');
            if (!context) throw new Error('no 2d canvas');
            context.drawImage(image, 0, 0);
            return canvas.toDataURL('image/webp', 0.6);
          },
          { source: `data:image/png;base64,${png.toString('base64')}`, maxHeight: MAX_HEIGHT },
        );
        await writeFile(path.join(targetDir, `${shot}.${lng}.webp`), Buffer.from(dataUrl.replace(/^data:image\/webp;base64,/, ''), 'base64'));
      }
    }
  } finally {
    await browser.close();
  }
  if (missing.length > 0) console.warn(`atlas: no screenshot taken for ${missing.join(', ')}`);
  return missing;
}
