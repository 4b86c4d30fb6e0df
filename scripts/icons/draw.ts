/**
 * The app's icon, drawn from one description: the brand mark of src/components/BrandMark.tsx (two interlocking
 * links, white on the brand colour of src/theme/theme.css) as an SVG for browsers, and as pixels for the PNG sizes
 * that phones and link previews need. The pixels are computed here (distance to each stroke, anti-aliased over one
 * pixel), so no image tool is needed: pngjs writes them (scripts/icons.ts).
 */

/** src/theme/theme.css --app-color-brand and --app-color-on-brand (light theme: the icon has one look). */
export const BRAND = '#3451d1';
export const ON_BRAND = '#ffffff';

/** The mark's drawing box, as BrandMark's viewBox. */
const BOX = 48;
const STROKE_WIDTH = 3.5;

/** A stroke of the mark: the SVG path and the same path as segments for the raster. */
interface Stroke {
  d: string;
  opacity: number;
  segments: Segment[];
}

type Point = readonly [number, number];
type Segment =
  | { kind: 'line'; from: Point; to: Point }
  /** Clockwise on screen (SVG's sweep flag 1) from `start` through `sweep` degrees; 0° points right, 90° down. */
  | { kind: 'arc'; center: Point; radius: number; start: number; sweep: number };

/** BrandMark's two paths, each written out as its segments. */
const STROKES: readonly Stroke[] = [
  {
    d: 'M14 20a6 6 0 0 1 6-6h6a6 6 0 0 1 0 12h-2',
    opacity: 1,
    segments: [
      { kind: 'arc', center: [20, 20], radius: 6, start: 180, sweep: 90 },
      { kind: 'line', from: [20, 14], to: [26, 14] },
      { kind: 'arc', center: [26, 20], radius: 6, start: 270, sweep: 180 },
      { kind: 'line', from: [26, 26], to: [24, 26] },
    ],
  },
  {
    d: 'M34 28a6 6 0 0 1-6 6h-6a6 6 0 0 1 0-12h2',
    opacity: 0.85,
    segments: [
      { kind: 'arc', center: [28, 28], radius: 6, start: 0, sweep: 90 },
      { kind: 'line', from: [28, 34], to: [22, 34] },
      { kind: 'arc', center: [22, 28], radius: 6, start: 90, sweep: 180 },
      { kind: 'line', from: [22, 22], to: [24, 22] },
    ],
  },
];

/**
 * The icon as an SVG document: the browser tab's icon, with BrandMark's rounded corners.
 *
 * @returns the SVG text, a few hundred bytes
 * @example
 * writeFileSync('icon.svg', iconSvg());
 */
export function iconSvg(): string {
  const paths = STROKES.map(({ d, opacity }) => `<path d="${d}"${opacity === 1 ? '' : ` opacity="${opacity}"`}/>`).join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${BOX} ${BOX}">` +
    `<rect width="${BOX}" height="${BOX}" rx="12" fill="${BRAND}"/>` +
    `<g fill="none" stroke="${ON_BRAND}" stroke-width="${STROKE_WIDTH}" stroke-linecap="round">${paths}</g></svg>\n`
  );
}

function distanceToLine([px, py]: Point, [ax, ay]: Point, [bx, by]: Point): number {
  const [dx, dy] = [bx - ax, by - ay];
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

function pointOnCircle([cx, cy]: Point, radius: number, degrees: number): Point {
  const radians = (degrees * Math.PI) / 180;
  return [cx + radius * Math.cos(radians), cy + radius * Math.sin(radians)];
}

function distanceToSegment(point: Point, segment: Segment): number {
  if (segment.kind === 'line') return distanceToLine(point, segment.from, segment.to);
  const { center, radius, start, sweep } = segment;
  const [dx, dy] = [point[0] - center[0], point[1] - center[1]];
  const angle = (((Math.atan2(dy, dx) * 180) / Math.PI - start) % 360 + 360) % 360;
  if (angle <= sweep) return Math.abs(Math.hypot(dx, dy) - radius);
  const ends = [pointOnCircle(center, radius, start), pointOnCircle(center, radius, start + sweep)];
  return Math.min(...ends.map(([x, y]) => Math.hypot(point[0] - x, point[1] - y)));
}

const rgbOf = (hex: string): [number, number, number] => [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16)) as [number, number, number];

/**
 * The icon as pixels, edge to edge: the brand colour fills the whole square (iOS and Android round or mask it
 * themselves, and a transparent corner would show black on iOS), with the mark at its place in the box, which keeps
 * it inside the safe zone of a maskable icon (the middle 80 %).
 *
 * @param size - width and height in pixels
 * @returns RGBA bytes, row by row, opaque
 * @example
 * const rgba = iconPixels(180); // 180 * 180 * 4 bytes
 */
export function iconPixels(size: number): Buffer {
  const pixels = Buffer.alloc(size * size * 4);
  const brand = rgbOf(BRAND);
  const onBrand = rgbOf(ON_BRAND);
  const unitsPerPixel = BOX / size;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const point: Point = [(x + 0.5) * unitsPerPixel, (y + 0.5) * unitsPerPixel];
      let colour: number[] = [...brand];
      for (const stroke of STROKES) {
        const distance = Math.min(...stroke.segments.map((segment) => distanceToSegment(point, segment)));
        // Coverage of the pixel by the stroke, from the signed distance to its edge in pixels.
        const coverage = Math.max(0, Math.min(1, 0.5 - (distance - STROKE_WIDTH / 2) / unitsPerPixel)) * stroke.opacity;
        colour = colour.map((channel, index) => channel + ((onBrand[index] ?? 0) - channel) * coverage);
      }
      const at = (y * size + x) * 4;
      for (let index = 0; index < 3; index++) pixels[at + index] = Math.round(colour[index] ?? 0);
      pixels[at + 3] = 255;
    }
  }
  return pixels;
}
