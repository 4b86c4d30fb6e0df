/** 0x1234…abcd: the first 6 and last 4 characters, which is what members compare. */
export function shortAddress(address: string): string {
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

/** 0x1234…abcd on screen; the whole address as its title and, visually hidden, for screen readers. */
export function ShortAddress({ address }: { address: string }) {
  return (
    <span className="address" title={address}>
      <span aria-hidden="true">{shortAddress(address)}</span>
      <span className="visually-hidden">{address}</span>
    </span>
  );
}
