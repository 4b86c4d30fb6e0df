/**
 * Builds the EIP-4361 text of a field set, keeping every string as given. viem's createSiweMessage takes dates as
 * Date objects and prints them with toISOString(), which turns "2021-01-05T00:00:00Z" into
 * "2021-01-05T00:00:00.000Z"; a signature over the original text would then no longer match.
 */
import { validateSiweFields } from './fields';
import type { SiweFields } from './types';

/**
 * Formats fields as an EIP-4361 message after validating them strictly.
 *
 * @param input - the fields (an unknown object is validated first)
 * @returns the message text, without a trailing line break
 * @throws SiweFormatError when a field breaks the EIP-4361 rules
 * @example
 * const message = formatSiweMessage({ domain: 'login.xyz', address, uri: 'https://login.xyz', version: '1',
 *   chainId: 1, nonce: 'bTyXgcQxn2htgkjJn', issuedAt: '2022-01-27T17:09:38.578Z' });
 */
export function formatSiweMessage(input: SiweFields | Record<string, unknown>): string {
  const f = validateSiweFields(input);
  const origin = f.scheme !== undefined ? `${f.scheme}://${f.domain}` : f.domain;
  const lines = [`${origin} wants you to sign in with your Ethereum account:`, f.address, ''];
  if (f.statement !== undefined) lines.push(f.statement);
  lines.push('', `URI: ${f.uri}`, `Version: ${f.version}`, `Chain ID: ${f.chainId}`, `Nonce: ${f.nonce}`, `Issued At: ${f.issuedAt}`);
  if (f.expirationTime !== undefined) lines.push(`Expiration Time: ${f.expirationTime}`);
  if (f.notBefore !== undefined) lines.push(`Not Before: ${f.notBefore}`);
  if (f.requestId !== undefined) lines.push(`Request ID: ${f.requestId}`);
  if (f.resources !== undefined) lines.push('Resources:', ...f.resources.map((resource) => `- ${resource}`));
  return lines.join('\n');
}
