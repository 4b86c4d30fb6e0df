/**
 * A strict EIP-4361 parser, written by hand on purpose. viem's parseSiweMessage is a lenient regular expression
 * meant for reading messages a wallet produced: it finds fields anywhere in the text, accepts fields out of order
 * or missing, does not check the EIP-55 checksum or the calendar, and returns whatever it matched. A server that
 * signs members in must instead refuse anything that is not exactly the EIP's grammar
 * (https://eips.ethereum.org/EIPS/eip-4361#message-format), so that the text the wallet showed is the text we
 * interpret. This walks the ABNF line by line, in order, and then applies the same field rules as the formatter.
 */
import { SiweFormatError } from './errors';
import { validateSiweFields } from './fields';
import { chainIdPattern } from './grammar';
import type { SiweFields } from './types';

const HEADER_SUFFIX = ' wants you to sign in with your Ethereum account:';
// `[ scheme "://" ] domain`: an authority never contains "/", so "://" can only end a scheme.
const ORIGIN_WITH_SCHEME = /^([A-Za-z][A-Za-z0-9+\-.]*):\/\/(.*)$/;

class LineReader {
  private index = 0;
  constructor(private readonly lines: readonly string[]) {}

  peek(): string | undefined {
    return this.lines[this.index];
  }

  take(): string | undefined {
    return this.lines[this.index++];
  }

  /** Takes the next line, which must start with `tag`, and returns the rest of it. */
  tagged(tag: string, field: string): string {
    const line = this.take();
    if (line === undefined || !line.startsWith(tag)) throw new SiweFormatError(field, `expected a line starting "${tag}"`);
    return line.slice(tag.length);
  }

  /** Takes the next line only when it starts with `tag`; optional fields keep their place in the order. */
  optionalTagged(tag: string): string | undefined {
    const line = this.peek();
    if (line === undefined || !line.startsWith(tag)) return undefined;
    this.index++;
    return line.slice(tag.length);
  }

  blank(field: string): void {
    if (this.take() !== '') throw new SiweFormatError(field, 'expected an empty line');
  }

  get done(): boolean {
    return this.index >= this.lines.length;
  }
}

/**
 * Parses an EIP-4361 message exactly as its ABNF says: fields in order, LF line ends, no trailing line break.
 *
 * @param message - the message text the wallet signed
 * @returns the fields; dates stay the message's strings
 * @throws SiweFormatError naming the first field that breaks the grammar
 * @example
 * const fields = parseSiweMessage(body.message);
 * fields.nonce; // "32891757"
 */
export function parseSiweMessage(message: string): SiweFields {
  const reader = new LineReader(message.split('\n'));

  const header = reader.take() ?? '';
  if (!header.endsWith(HEADER_SUFFIX)) throw new SiweFormatError('message', 'expected the EIP-4361 header line');
  const origin = header.slice(0, -HEADER_SUFFIX.length);
  const withScheme = ORIGIN_WITH_SCHEME.exec(origin);
  const scheme = withScheme?.[1];
  const domain = withScheme ? withScheme[2] : origin;

  const address = reader.take();
  reader.blank('address');

  // `[ statement LF ] LF`: a blank line right away means no statement, unless a second blank line follows,
  // which is an empty statement.
  let statement: string | undefined;
  const afterAddress = reader.take();
  if (afterAddress === undefined) throw new SiweFormatError('uri', 'message ends early');
  if (afterAddress !== '') {
    statement = afterAddress;
    reader.blank('statement');
  } else if (reader.peek() === '') {
    statement = '';
    reader.take();
  }

  const uri = reader.tagged('URI: ', 'uri');
  const version = reader.tagged('Version: ', 'version');
  const chainIdText = reader.tagged('Chain ID: ', 'chainId');
  if (!chainIdPattern.test(chainIdText)) throw new SiweFormatError('chainId', 'must be digits');
  const nonce = reader.tagged('Nonce: ', 'nonce');
  const issuedAt = reader.tagged('Issued At: ', 'issuedAt');
  const expirationTime = reader.optionalTagged('Expiration Time: ');
  const notBefore = reader.optionalTagged('Not Before: ');
  const requestId = reader.optionalTagged('Request ID: ');

  let resources: string[] | undefined;
  if (reader.peek() === 'Resources:') {
    reader.take();
    resources = [];
    while (!reader.done) resources.push(reader.tagged('- ', 'resources'));
  }
  if (!reader.done) throw new SiweFormatError('message', 'unexpected line after the last field');

  return validateSiweFields({
    scheme,
    domain,
    address,
    statement,
    uri,
    version,
    chainId: Number(chainIdText),
    nonce,
    issuedAt,
    expirationTime,
    notBefore,
    requestId,
    resources,
  });
}
