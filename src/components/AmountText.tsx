import { formatAmount } from './amountFormat';

interface AmountTextProps {
  /** A decimal string, e.g. "1234.5". */
  amount: string;
  /** Asset symbol shown after the number, e.g. "CREDIT". */
  symbol?: string;
  locale: string;
  signed?: boolean;
  size?: 'body' | 'large';
}

/** An amount as members read it: grouped digits, up to 6 decimals, the asset's symbol; never via a float. */
export function AmountText({ amount, symbol, locale, signed = false, size = 'body' }: AmountTextProps) {
  return (
    <span className={`amount amount-${size}`}>
      <span className="amount-value">{formatAmount(amount, { locale, signed })}</span>
      {symbol ? <span className="amount-symbol"> {symbol}</span> : null}
    </span>
  );
}
