import { useSelector } from '@xstate/react';
import type { ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
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
import { MoneyFlowForm, MoneyFlowSheet, useLocale } from '../shared/MoneyFlowSheet';
import { MoneyFlowSteps } from '../shared/MoneyFlowSteps';
import { ExchangeContext } from './flowContexts';

interface FlowSheetProps {
  onClose: () => void;
}

const titleId = 'exchange-title';
const directions: readonly ExchangeFrom[] = ['WPOS', 'CREDIT'];

/**
 * The flash exchange, as a bottom sheet over /me/wpos (`?sheet=exchange`; loaded when it opens): the exchange flow
 * with dappParam's rate and both balances as input.
 */
export default function ExchangeSheet({ onClose }: FlowSheetProps) {
  const { api, auth, config } = useRootActors();
  const member = useSelector(auth, selectMember);
  const dappParam = useSelector(config, selectDappParam);
  const input: ExchangeInput | null =
    member && dappParam ? { rate: dappParam.exchangeRate, wposBalance: member.wposBalance, creditBalance: member.creditBalance } : null;

  return (
    <MoneyFlowSheet
      texts="wpos:exchange"
      titleId={titleId}
      onClose={onClose}
      flow={
        input ? (
          <ExchangeContext.Provider
            logic={exchangeMachine.provide({
              actors: { submit: submitExchange(api) },
              actions: { reportDone: () => auth.send({ type: 'app.refreshProfile' }) },
            })}
            options={{ input }}
          >
            <ExchangeFlow onClose={onClose} />
          </ExchangeContext.Provider>
        ) : null
      }
    />
  );
}

function ExchangeFlow({ onClose }: FlowSheetProps) {
  const actor = ExchangeContext.useActorRef();
  return <MoneyFlowSteps actor={actor} texts="wpos:exchange" Form={ExchangeForm} Summary={Summary} Receipt={Receipt} onClose={onClose} />;
}

/** Direction and amount; what arrives at the rate shows as the member types. */
function ExchangeForm() {
  const { t } = useTranslation(['wpos', 'common']);
  const locale = useLocale();
  const actor = ExchangeContext.useActorRef();
  const direction = ExchangeContext.useSelector(selectDirection);
  const receivedAsset = ExchangeContext.useSelector(selectReceivedAsset);
  const amount = ExchangeContext.useSelector(selectAmount);
  const fieldError = ExchangeContext.useSelector(selectAmountError);
  const serverError = ExchangeContext.useSelector(selectFlowError);
  const balance = ExchangeContext.useSelector(selectPayBalance);
  const rate = ExchangeContext.useSelector(selectRate);
  const received = ExchangeContext.useSelector(selectReceived);
  const canSubmit = ExchangeContext.useSelector(selectCanSubmit);

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
  const { t } = useTranslation(['wpos']);
  const locale = useLocale();
  const direction = ExchangeContext.useSelector(selectDirection);
  const receivedAsset = ExchangeContext.useSelector(selectReceivedAsset);
  const amount = ExchangeContext.useSelector(selectNormalizedAmount) ?? '0';
  const received = ExchangeContext.useSelector(selectReceived) ?? '0';
  const rate = ExchangeContext.useSelector(selectRate);
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
  const { t } = useTranslation(['wpos']);
  const locale = useLocale();
  const direction = ExchangeContext.useSelector(selectDirection);
  const receivedAsset = ExchangeContext.useSelector(selectReceivedAsset);
  const result = ExchangeContext.useSelector((snapshot) => selectResult<ExchangeResult>(snapshot));
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
