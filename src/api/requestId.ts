/**
 * A new request id (a version 4 UUID) for a request the server runs at most once per id.
 *
 * crypto.randomUUID exists only in secure contexts (HTTPS, localhost): a phone opening `npm start` at the
 * machine's LAN address over plain HTTP has none, while getRandomValues works everywhere. The same version 4
 * layout (RFC 9562 §5.4) is built from it there, in a few lines rather than a package.
 *
 * @returns e.g. '0b6f2a8e-3c1d-4e5f-8a9b-1c2d3e4f5a6b'
 * @example actor.send({ type: 'user.confirm', requestId: newRequestId() });
 */
export function newRequestId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
