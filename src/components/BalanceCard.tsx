import { AmountText } from './AmountText';

export interface Balance {
  label: string;
  amount: string;
  symbol: string;
}

/** The member's balances on the brand card: the first one large, the others beside it. */
export function BalanceCard({ title, balances, locale }: { title: string; balances: readonly Balance[]; locale: string }) {
  return (
    <section className="balance-card" aria-label={title}>
      <h2 className="balance-card-title">{title}</h2>
      <dl className="balance-card-list">
        {balances.map((balance) => (
          <div key={balance.symbol} className="balance-card-item">
            <dt>{balance.label}</dt>
            <dd>
              <AmountText amount={balance.amount} symbol={balance.symbol} locale={locale} size="large" />
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
