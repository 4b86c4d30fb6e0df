import { shortAddress } from './ShortAddress';

/**
 * An address, shortened, linked to the chain's block explorer (`<explorer>/address/<address>`, as Etherscan and
 * BscScan take it) when the app config names one; as TransactionLink, a full-height tap target whose name starts
 * with the text it shows, then the whole address (WCAG 2.5.3).
 */
export function AddressLink({ label, address, explorer }: { label: string; address: string; explorer: string | undefined }) {
  const short = shortAddress(address);
  return (
    <span className="tx-link">
      {explorer ? (
        <a href={`${explorer.replace(/\/$/, '')}/address/${address}`} target="_blank" rel="noreferrer" aria-label={`${short}, ${label} ${address}`}>
          {short}
        </a>
      ) : (
        <span title={address}>{short}</span>
      )}
    </span>
  );
}
