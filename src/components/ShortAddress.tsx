/** 0x1234…abcd on screen; the whole address as its title and, visually hidden, for screen readers. */
export function ShortAddress({ address }: { address: string }) {
  const short = address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
  return (
    <span className="address" title={address}>
      <span aria-hidden="true">{short}</span>
      <span className="visually-hidden">{address}</span>
    </span>
  );
}
