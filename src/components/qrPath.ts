import { create } from 'qrcode';

/** The quiet zone QR readers need around the symbol, in modules (ISO/IEC 18004). */
export const QR_QUIET_ZONE = 4;

export interface QrDrawing {
  /** Modules per side, quiet zone included: the SVG's viewBox is 0 0 size size. */
  size: number;
  /** One SVG path of every dark module, a horizontal run of them per subpath. */
  d: string;
}

/**
 * Draws a text as a QR code: the kept `qrcode` library encodes it (medium error correction, so a scuffed print still
 * reads), and this turns its modules into one SVG path, so the page needs no canvas, inline script or inline style.
 *
 * @param text - what the code holds (the invite link)
 * @returns the viewBox size and the path
 * @example
 * const { size, d } = qrPath('https://member.example/login/K7Q2ZP0A');
 */
export function qrPath(text: string): QrDrawing {
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  const parts: string[] = [];
  for (let row = 0; row < modules.size; row++) {
    let col = 0;
    while (col < modules.size) {
      if (!modules.get(row, col)) {
        col += 1;
        continue;
      }
      const start = col;
      while (col < modules.size && modules.get(row, col)) col += 1;
      parts.push(`M${start + QR_QUIET_ZONE} ${row + QR_QUIET_ZONE}h${col - start}v1h-${col - start}z`);
    }
  }
  return { size: modules.size + 2 * QR_QUIET_ZONE, d: parts.join('') };
}
