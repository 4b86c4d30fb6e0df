import { useMemo } from 'react';
import { qrPath } from './qrPath';

interface InviteQrProps {
  /** What the code holds. */
  text: string;
  /** The accessible name, e.g. "QR code of your invite link". */
  label: string;
}

/**
 * A QR code as one SVG path: dark modules on a light square in both themes (readers need the contrast), with its
 * quiet zone, drawn at least 200 CSS px wide so another phone's camera reads it off this screen.
 */
export function InviteQr({ text, label }: InviteQrProps) {
  const { size, d } = useMemo(() => qrPath(text), [text]);
  return (
    <svg className="invite-qr" role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} shapeRendering="crispEdges">
      <rect className="invite-qr-light" width={size} height={size} />
      <path className="invite-qr-dark" d={d} />
    </svg>
  );
}
