/**
 * Strict validation of EIP-4361 fields, shared by the parser (after it has cut the message into lines) and the
 * formatter (before it builds a message from fields), so both refuse exactly the same values.
 */
import { checksumAddress } from 'viem';
import { SiweFormatError } from './errors';
import {
  addressPattern,
  authorityHostPattern,
  authorityPattern,
  noncePattern,
  parseRfc3339,
  requestIdPattern,
  schemePattern,
  statementPattern,
  uriPattern,
} from './grammar';
import type { SiweFields } from './types';

/**
 * Checks that a text is an RFC 3986 authority with a non-empty host (EIP-4361 `domain`).
 *
 * @param value - e.g. "service.org", "test@127.0.0.1:8080", "[::cafe]"
 * @returns true when valid
 * @example
 * isSiweDomain('localhost:8080'); // true
 * isSiweDomain('#notrfc4501'); // false
 */
export function isSiweDomain(value: string): boolean {
  if (!authorityPattern.test(value)) return false;
  const host = authorityHostPattern.exec(value)?.[1];
  return host !== undefined && host.length > 0;
}

/**
 * Checks an address is 0x + 40 hex digits in its EIP-55 checksummed form. All-lowercase is refused too: EIP-4361
 * requires the checksum, and the test vectors include that case ("address not EIP-55").
 *
 * @param value - the address text
 * @returns true when it is exactly its own checksummed form
 * @example
 * isChecksummedAddress('0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2'); // true
 */
export function isChecksummedAddress(value: string): boolean {
  return addressPattern.test(value) && checksumAddress(value as `0x${string}`) === value;
}

function requireString(value: unknown, field: string): string {
  if (typeof value !== 'string') throw new SiweFormatError(field, 'is required and must be text');
  return value;
}

function optionalString(value: unknown, field: string): string | undefined {
  // JSON sources (the spruceid vectors among them) write an absent optional field as null.
  if (value === undefined || value === null) return undefined;
  return requireString(value, field);
}

function requireDate(value: unknown, field: string): string {
  const text = requireString(value, field);
  if (parseRfc3339(text) === undefined) throw new SiweFormatError(field, 'must be an RFC 3339 date-time on the calendar');
  return text;
}

/**
 * Validates an object as EIP-4361 fields, with the same rules as the strict parser.
 *
 * @param input - an object such as JSON gives (null is taken as absent for optional fields)
 * @returns the fields, typed, with absent optional fields left out
 * @throws SiweFormatError naming the first field at fault
 * @example
 * const fields = validateSiweFields(JSON.parse(text));
 */
export function validateSiweFields(input: unknown): SiweFields {
  if (typeof input !== 'object' || input === null) throw new SiweFormatError('message', 'must be an object');
  const raw = input as Record<string, unknown>;

  const scheme = optionalString(raw.scheme, 'scheme');
  if (scheme !== undefined && !schemePattern.test(scheme)) throw new SiweFormatError('scheme', 'must be an RFC 3986 scheme');

  const domain = requireString(raw.domain, 'domain');
  if (!isSiweDomain(domain)) throw new SiweFormatError('domain', 'must be an RFC 3986 authority');

  const address = requireString(raw.address, 'address');
  if (!isChecksummedAddress(address)) throw new SiweFormatError('address', 'must be an EIP-55 checksummed address');

  const statement = optionalString(raw.statement, 'statement');
  if (statement !== undefined && !statementPattern.test(statement)) {
    throw new SiweFormatError('statement', 'must be one line of reserved, unreserved or space characters');
  }

  const uri = requireString(raw.uri, 'uri');
  if (!uriPattern.test(uri)) throw new SiweFormatError('uri', 'must be an RFC 3986 URI');

  if (raw.version !== '1') throw new SiweFormatError('version', 'must be "1"');

  const chainId = raw.chainId;
  if (typeof chainId !== 'number' || !Number.isSafeInteger(chainId) || chainId < 0) {
    throw new SiweFormatError('chainId', 'must be a non-negative integer');
  }

  const nonce = requireString(raw.nonce, 'nonce');
  if (!noncePattern.test(nonce)) throw new SiweFormatError('nonce', 'must be at least 8 letters or digits');

  const issuedAt = requireDate(raw.issuedAt, 'issuedAt');
  const expirationTime = raw.expirationTime == null ? undefined : requireDate(raw.expirationTime, 'expirationTime');
  const notBefore = raw.notBefore == null ? undefined : requireDate(raw.notBefore, 'notBefore');

  const requestId = optionalString(raw.requestId, 'requestId');
  if (requestId !== undefined && !requestIdPattern.test(requestId)) {
    throw new SiweFormatError('requestId', 'must be RFC 3986 pchar characters');
  }

  let resources: string[] | undefined;
  if (raw.resources !== undefined && raw.resources !== null) {
    if (!Array.isArray(raw.resources)) throw new SiweFormatError('resources', 'must be a list of URIs');
    resources = raw.resources.map((resource: unknown) => {
      const text = requireString(resource, 'resources');
      if (!uriPattern.test(text)) throw new SiweFormatError('resources', 'every resource must be an RFC 3986 URI');
      return text;
    });
  }

  return {
    ...(scheme !== undefined ? { scheme } : {}),
    domain,
    address,
    ...(statement !== undefined ? { statement } : {}),
    uri,
    version: '1',
    chainId,
    nonce,
    issuedAt,
    ...(expirationTime !== undefined ? { expirationTime } : {}),
    ...(notBefore !== undefined ? { notBefore } : {}),
    ...(requestId !== undefined ? { requestId } : {}),
    ...(resources !== undefined ? { resources } : {}),
  };
}
