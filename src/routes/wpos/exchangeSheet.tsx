import { useSelector } from '@xstate/react';
import type { ChangeEvent } from 'react';
import { exchangeMachine, type ExchangeFrom, type ExchangeInput, type ExchangeResult } from '../../../machines/exchange/exchangeMachine';
import {
  selectAmount,
  selectAmountError,
  selectDirection,
  selectNormalizedAmount,
  selectPayBalance,
  selectRate,
  selectReceived,
  selectReceivedAsset,
} from '../../../machines/exchange/exchangeSelectors';
import { selectCanSubmit, selectFlowError, selectResult } from '../../../machines/shared/moneyFlowSelectors';
import { submitExchange } from '../../actors/wposActors';
import { useRootActors } from '../../app/RootActorsContext';
import { errorKey } from '../../app/errorKey';
import { selectDappParam, selectMember } from '../../app/selectors';
import { AmountText } from '../../components/AmountText';
import { FilterChips } from '../../components/FilterChips';
import { FormField } from '../../components/FormField';
import { SummaryList } from '../../components/SummaryList';
import { formatAmount } from '../../components/amountFormat';
import { createMoneyFlowSheet, MoneyFlowForm } from '../shared/MoneyFlowSheet';

interface ExchangeSheetProps {
  /** Closes the sheet (the route takes ?sheet= off the URL). */
  onClose: () => void;
}

/** The exchange flow: its actor lives while the sheet is open; the parts below read it through selectors. */
const exchangeFlow = createMoneyFlowSheet({ machine: exchangeMachine, submit: submitExchange, texts: 'wpos:exchange' });
const directions: readonly ExchangeFrom[] = ['WPOS', 'CREDIT'];

/**
 * The flash exchange, as a bottom sheet over /me/wpos (`?sheet=exchange`; loaded when it opens): the exchange flow
 * with dappParam's rate and both balances as input.
 */
export default function ExchangeSheet({ onClose }: ExchangeSheetProps) {
  const { auth, config } = useRootActors();
  const member = useSelector(auth, selectMember);
  const dappParam = useSelector(config, selectDappParam);
  const input: ExchangeInput | null =
    member && dappParam ? { rate: dappParam.exchangeRate, wposBalance: member.wposBalance, creditBalance: member.creditBalance } : null;

  return <exchangeFlow.Sheet input={input} onClose={onClose} Form={ExchangeForm} Summary={Summary} Receipt={Receipt} />;
}

/** Direction and amount; what arrives at the rate shows as the member types. */
function ExchangeForm() {
  const { t, locale } = exchangeFlow.useText();
  const actor = exchangeFlow.useActorRef();
  const direction = exchangeFlow.useSelector(selectDirection);
  const receivedAsset = exchangeFlow.useSelector(selectReceivedAsset);
  const amount = exchangeFlow.useSelector(selectAmount);
  const fieldError = exchangeFlow.useSelector(selectAmountError);
  const serverError = exchangeFlow.useSelector(selectFlowError);
  const balance = exchangeFlow.useSelector(selectPayBalance);
  const rate = exchangeFlow.useSelector(selectRate);
  const received = exchangeFlow.useSelector(selectReceived);
  const canSubmit = exchangeFlow.useSelector(selectCanSubmit);

  return (
    <MoneyFlowForm actor={actor} canSubmit={canSubmit} nextLabel={t('wpos:exchange.next')}>
      <FilterChips
        label={t('wpos:exchange.direction.label')}
        options={directions.map((value) => ({ value, label: t(`wpos:exchange.direction.${value}`) }))}
        value={direction}
        onChange={(value) => actor.send({ type: 'field.change', field: 'from', value })}
      />
      <SummaryList
        rows={[
          { label: t('wpos:exchange.available'), value: <AmountText amount={balance} symbol={direction} locale={locale} /> },
          { label: t('wpos:exchange.rateLabel'), value: t('wpos:exchange.rate', { rate: formatAmount(rate, { locale, minDecimals: 0 }) }) },
        ]}
      />
      <FormField
        id="exchange-amount"
        name="amount"
        label={t('wpos:exchange.amount.label', { asset: direction })}
        inputMode="decimal"
        value={amount}
        placeholder={t('wpos:exchange.amount.placeholder')}
        onChange={(event: ChangeEvent<HTMLInputElement>) => actor.send({ type: 'field.change', field: 'amount', value: event.target.value.trim() })}
        error={
          fieldError
            ? t(`wpos:exchange.amount.errors.${fieldError}`, { balance: formatAmount(balance, { locale }) })
            : serverError
              ? t(`common:${errorKey(serverError)}`)
              : null
        }
      />
      <SummaryList
        rows={[
          {
            label: t('wpos:exchange.receive'),
            value: received === null ? '—' : <AmountText amount={received} symbol={receivedAsset} locale={locale} />,
            strong: true,
          },
        ]}
      />
    </MoneyFlowForm>
  );
}

/** What the member confirms: what they pay, the rate and what arrives. */
function Summary() {
  const { t, locale } = exchangeFlow.useText();
  const direction = exchangeFlow.useSelector(selectDirection);
  const receivedAsset = exchangeFlow.useSelector(selectReceivedAsset);
  const amount = exchangeFlow.useSelector(selectNormalizedAmount) ?? '0';
  const received = exchangeFlow.useSelector(selectReceived) ?? '0';
  const rate = exchangeFlow.useSelector(selectRate);
  return (
    <SummaryList
      rows={[
        { label: t('wpos:exchange.confirm.pay'), value: <AmountText amount={amount} symbol={direction} locale={locale} /> },
        { label: t('wpos:exchange.rateLabel'), value: t('wpos:exchange.rate', { rate: formatAmount(rate, { locale, minDecimals: 0 }) }) },
        { label: t('wpos:exchange.receive'), value: <AmountText amount={received} symbol={receivedAsset} locale={locale} />, strong: true },
      ]}
    />
  );
}

/** The exchange as made: paid, received, at which rate. */
function Receipt() {
  const { t, locale } = exchangeFlow.useText();
  const direction = exchangeFlow.useSelector(selectDirection);
  const receivedAsset = exchangeFlow.useSelector(selectReceivedAsset);
  const result = exchangeFlow.useSelector((snapshot) => selectResult<ExchangeResult>(snapshot));
  if (!result) return null;
  return (
    <SummaryList
      rows={[
        { label: t('wpos:exchange.confirm.pay'), value: <AmountText amount={result.paid} symbol={direction} locale={locale} /> },
        { label: t('wpos:exchange.receive'), value: <AmountText amount={result.received} symbol={receivedAsset} locale={locale} />, strong: true },
      ]}
    />
  );
}
