/**
 * The fields of an EIP-4361 message. Dates stay the exact strings of the message: the signature covers the text,
 * so "2021-09-30T16:25:24Z" and "2021-09-30T16:25:24.000Z" are different messages.
 */
export interface SiweFields {
  scheme?: string;
  domain: string;
  address: string;
  statement?: string;
  uri: string;
  version: '1';
  chainId: number;
  nonce: string;
  issuedAt: string;
  expirationTime?: string;
  notBefore?: string;
  requestId?: string;
  resources?: string[];
}
