/**
 * A transaction's hash, shortened, linked to the chain's block explorer (`<explorer>/tx/<hash>`, as Etherscan and
 * BscScan take it) when the app config names one; a tap target of full height, since it sits among text. Its name
 * starts with the text it shows, then the whole hash, so a voice user can say what they see (WCAG 2.5.3).
 */
export function TransactionLink({ label, hash, explorer }: { label: string; hash: string; explorer: string | undefined }) {
  const short = `${hash.slice(0, 10)}…${hash.slice(-8)}`;
  return (
    <span className="tx-link">
      {label}{' '}
      {explorer ? (
        <a href={`${explorer.replace(/\/$/, '')}/tx/${hash}`} target="_blank" rel="noreferrer" aria-label={`${short}, ${label} ${hash}`}>
          {short}
        </a>
      ) : (
        <span title={hash}>{short}</span>
      )}
    </span>
  );
}
