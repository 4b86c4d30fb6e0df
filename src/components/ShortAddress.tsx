/** 0x1234…abcd, with the whole address as its title for copying and screen readers. */
export function ShortAddress({ address }: { address: string }) {
  const short = address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
  return (
    <span className="address" title={address} aria-label={address}>
      {short}
    </span>
  );
}
