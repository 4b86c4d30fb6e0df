/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers over the 16 KiB limit, a malformed request
 * line, a request sent too slowly) still get the docs/API.md envelope, as every other refusal does: 1001 naming the part
 * at fault, with the status Node would give and the hardening headers. Written to the raw socket because there is no
 * request or reply yet; Fastify calls this as its clientErrorHandler.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ApiCode } from '../../api-schema/codes';
import type { ErrorEnvelope } from './errorHandler';
import { CONTENT_SECURITY_POLICY, serializeCsp } from './contentSecurityPolicy';

/** Status and the part named in the envelope, by Node's parser error code. */
function refusalOf(code: string | undefined): { status: number; part: string } {
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, part: 'headers' };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, part: 'request' };
  return { status: 400, part: 'request' };
}

/**
 * The raw HTTP answer for a parser refusal.
 *
 * @param code - Node's error code (e.g. HPE_HEADER_OVERFLOW)
 * @returns the bytes to write before closing the socket
 * @example
 * clientErrorAnswer('HPE_HEADER_OVERFLOW'); // "HTTP/1.1 431 Request Header Fields Too Large\r\n…{"code":1001,"message":"headers"}"
 */
export function clientErrorAnswer(code: string | undefined): string {
  const { status, part } = refusalOf(code);
  const body = JSON.stringify({ code: ApiCode.invalidParameters, message: part } satisfies ErrorEnvelope);
  const headers = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    `Content-Security-Policy: ${serializeCsp(CONTENT_SECURITY_POLICY)}`,
    'X-Content-Type-Options: nosniff',
    'X-Frame-Options: DENY',
    'Connection: close',
  ];
  return `${headers.join('\r\n')}\r\n\r\n${body}`;
}

/** How long a refused connection may stay half-closed while the client finishes sending and reads the answer. */
const ANSWERED_LINGER_MS = 2_000;

/** Sockets already answered: the parser may report more errors for the bytes still coming. */
const answered = new WeakSet<Socket>();

/**
 * Fastify's clientErrorHandler: answers with the envelope, then closes the connection. Not by destroying it at
 * once, as Node's own handler does: a socket destroyed with bytes of the request still unread makes the kernel reset
 * the connection, and the client may lose the answer (a 64 KiB URL on Node 24, seen in CI). The answer ends our side,
 * what the client still sends is read and dropped, and the socket is destroyed when it closes or after
 * ANSWERED_LINGER_MS.
 *
 * @example
 * Fastify({ clientErrorHandler: answerClientError });
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has no one to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed || answered.has(socket)) return;
  if (!socket.writable) {
    socket.destroy(error);
    return;
  }
  answered.add(socket);
  socket.setTimeout(ANSWERED_LINGER_MS, () => socket.destroy());
  socket.on('error', () => socket.destroy());
  socket.resume();
  socket.end(clientErrorAnswer(error.code));
}
