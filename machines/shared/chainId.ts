/**
 * Reads a chain id as wallets really send it. EIP-1193 says a hex string ("0x38"), but wallets in the wild also
 * send numbers (56) and decimal strings ("56"), e.g. older Trust Wallet and some in-app browsers.
 * Returns undefined for anything that is not a positive safe integer.
 *
 * @example parseChainId('0x38') // 56
 */
export function parseChainId(raw: unknown): number | undefined {
  let value: number | undefined;
  if (typeof raw === 'number') value = raw;
  else if (typeof raw === 'bigint') value = Number(raw);
  else if (typeof raw === 'string') {
    const text = raw.trim();
    if (/^0x[0-9a-f]+$/i.test(text)) value = Number.parseInt(text.slice(2), 16);
    else if (/^[0-9]+$/.test(text)) value = Number.parseInt(text, 10);
  }
  return value !== undefined && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/** The hex form wallets expect in wallet_switchEthereumChain and wallet_addEthereumChain. */
export function toHexChainId(chainId: number): `0x${string}` {
  return `0x${chainId.toString(16)}`;
}
