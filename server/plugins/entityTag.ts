/**
 * Validators for files the server sends itself (the locale files, the app's icons and manifest): a strong ETag made
 * from the bytes, so a browser that kept a copy asks with If-None-Match and gets 304 with no body when nothing
 * changed (RFC 9110, 8.8.3 and 13.1.2).
 */
import { createHash } from 'node:crypto';

/**
 * The strong entity tag of a body: the first 128 bits of its SHA-256, base64url. The same bytes always give the
 * same tag, on any server and after any restart; a changed byte gives a new one.
 *
 * @param body - the answer's body before any content coding
 * @returns the tag with its quotes, as the ETag header carries it
 * @example
 * entityTagOf('{"title":"Sign in"}'); // '"Yq3…"' (24 characters between the quotes)
 */
export function entityTagOf(body: string | Buffer): string {
  return `"${createHash('sha256').update(body).digest().subarray(0, 16).toString('base64url')}"`;
}

/**
 * Whether an If-None-Match header names the tag (weak comparison, which is what If-None-Match uses): then the
 * client's copy is current and the answer is 304.
 *
 * @param ifNoneMatch - the request's If-None-Match, if any
 * @param tag - the current tag, from entityTagOf
 * @returns true for `*`, the tag itself, or the tag marked weak (W/), alone or in a list
 * @example
 * isNotModified('W/"abc", "def"', '"def"'); // true
 */
export function isNotModified(ifNoneMatch: string | undefined, tag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === tag);
}
