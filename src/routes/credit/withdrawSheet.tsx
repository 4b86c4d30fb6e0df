import { useSelector } from '@xstate/react';
import type { ChangeEvent } from 'react';
import { withdrawMachine } from '../../../machines/credit/withdrawMachine';
import type { WithdrawInput } from '../../../machines/credit/withdrawMachine';
import type { WithdrawResult } from '../../../machines/credit/withdrawMachine';
import { selectAmount, selectAmountError, selectBalance, selectFee, selectLimits, selectNormalizedAmount, selectReceive, selectWithdrawalNext } from '../../../machines/credit/withdrawSelectors';
import { selectCanSubmit, selectFlowError, selectResult } from '../../../machines/shared/moneyFlowSelectors';
import { submitWithdrawal } from '../../actors/creditActors';
import { useRootActors } from '../../app/RootActorsContext';
import { errorKey } from '../../app/errorKey';
import { selectDappParam, selectMember } from '../../app/selectors';
import { AmountText } from '../../components/AmountText';
import { FormField } from '../../components/FormField';
import { SummaryList } from '../../components/SummaryList';
import { formatAmount } from '../../components/amountFormat';
import { formatTime, nextUtcDayStart } from '../../components/dateFormat';
import { createMoneyFlowSheet, MoneyFlowForm } from '../shared/MoneyFlowSheet';
import { TokenInWallet } from './TokenInWallet';
import { WithdrawalsPaused } from './WithdrawalsPaused';

interface WithdrawSheetProps {
  /** Closes the sheet (the route takes ?sheet=withdraw off the URL). */
  onClose: () => void;
  /** Opens the credit records. */
  onShowRecords: () => void;
}

/** The withdrawal flow: its actor lives while the sheet is open; the parts below read it through selectors. */
const withdrawFlow = createMoneyFlowSheet({ machine: withdrawMachine, submit: submitWithdrawal, texts: 'credit:withdraw' });

/**
 * The withdrawal, as a bottom sheet over /me (BottomSheet, a native modal dialog; loaded when it opens), with the
 * app config's limits and the member's balance as the flow's input.
 */
export default function WithdrawSheet({ onClose, onShowRecords }: WithdrawSheetProps) {
  const { t } = withdrawFlow.useText();
  const { auth, config } = useRootActors();
  const member = useSelector(auth, selectMember);
  const dappParam = useSelector(config, selectDappParam);
  const input: WithdrawInput | null =
    member && dappParam
      ? {
          minWithdraw: dappParam.minWithdraw,
          maxWithdraw: dappParam.maxWithdraw,
          withdrawFee: dappParam.withdrawFee,
          dailyWithdrawCap: dappParam.dailyWithdrawCap,
          balance: member.creditBalance,
        }
      : null;

  return (
    <withdrawFlow.Sheet
      input={input}
      onClose={onClose}
      Form={AmountForm}
      Summary={Summary}
      Receipt={Receipt}
      next={{ label: t('credit:withdraw.done.records'), onClick: onShowRecords }}
    />
  );
}

/**
 * The amount, checked as typed; its hint gives the limits and when the daily cap starts again on the member's clock
 * (the server counts a UTC day, docs/API.md "Money": that is 08:00 in Beijing). The field is a native input in
 * antd-mobile's list look: antd-mobile's Input cannot carry aria-invalid and aria-describedby, which tie the error to
 * the field for screen readers (as on /register).
 */
function AmountForm() {
  const { t, locale } = withdrawFlow.useText();
  const actor = withdrawFlow.useActorRef();
  const amount = withdrawFlow.useSelector(selectAmount);
  const fieldError = withdrawFlow.useSelector(selectAmountError);
  const serverError = withdrawFlow.useSelector(selectFlowError);
  const limits = withdrawFlow.useSelector(selectLimits);
  const balance = withdrawFlow.useSelector(selectBalance);
  const fee = withdrawFlow.useSelector(selectFee);
  const receive = withdrawFlow.useSelector(selectReceive);
  const canSubmit = withdrawFlow.useSelector(selectCanSubmit);
  const format = (value: string) => formatAmount(value, { locale });
  const numbers = { min: format(limits.minWithdraw), max: format(limits.maxWithdraw), cap: format(limits.dailyWithdrawCap), balance: format(balance) };
  const capResets = formatTime(nextUtcDayStart(new Date()), locale);
  const errorText = fieldError
    ? t(`credit:withdraw.amount.errors.${fieldError}`, numbers)
    : serverError
      ? t(`common:${errorKey(serverError)}`)
      : null;

  return (
    <MoneyFlowForm actor={actor} canSubmit={canSubmit} nextLabel={t('credit:withdraw.next')}>
      <WithdrawalsPaused />
      <SummaryList rows={[{ label: t('credit:withdraw.available'), value: <AmountText amount={balance} symbol="CREDIT" locale={locale} /> }]} />
      <FormField
        id="withdraw-amount"
        name="amount"
        label={t('credit:withdraw.amount.label')}
        inputMode="decimal"
        value={amount}
        placeholder={t('credit:withdraw.amount.placeholder')}
        onChange={(event: ChangeEvent<HTMLInputElement>) => actor.send({ type: 'field.change', field: 'amount', value: event.target.value.trim() })}
        error={errorText}
        hint={t('credit:withdraw.amount.limits', { ...numbers, reset: capResets })}
      />
      <SummaryList
        rows={[
          { label: t('credit:withdraw.fee'), value: <AmountText amount={fee} symbol="CREDIT" locale={locale} /> },
          { label: t('credit:withdraw.receive'), value: receive === null ? '—' : <AmountText amount={receive} symbol="CREDIT" locale={locale} />, strong: true },
        ]}
      />
    </MoneyFlowForm>
  );
}

/** What the member confirms: amount, fee, what arrives. */
function Summary() {
  const { t, locale } = withdrawFlow.useText();
  const amount = withdrawFlow.useSelector(selectNormalizedAmount) ?? '0';
  const fee = withdrawFlow.useSelector(selectFee);
  const receive = withdrawFlow.useSelector(selectReceive) ?? '0';
  return (
    <SummaryList
      rows={[
        { label: t('credit:withdraw.confirm.amount'), value: <AmountText amount={amount} symbol="CREDIT" locale={locale} /> },
        { label: t('credit:withdraw.fee'), value: <AmountText amount={fee} symbol="CREDIT" locale={locale} /> },
        { label: t('credit:withdraw.receive'), value: <AmountText amount={receive} symbol="CREDIT" locale={locale} />, strong: true },
      ]}
    />
  );
}

/**
 * The withdrawal as recorded: amount, fee, its status, and what happens next (the selector beside the machine); where
 * it is paid on chain, the token's contract and "add to wallet", so the payment shows in the wallet.
 */
function Receipt() {
  const { t, locale } = withdrawFlow.useText();
  const { config } = useRootActors();
  const dappParam = useSelector(config, selectDappParam);
  const result = withdrawFlow.useSelector((snapshot) => selectResult<WithdrawResult>(snapshot));
  const next = withdrawFlow.useSelector(selectWithdrawalNext);
  if (!result) return null;
  return (
    <>
      <SummaryList
        rows={[
          { label: t('credit:withdraw.confirm.amount'), value: <AmountText amount={result.amount} symbol="CREDIT" locale={locale} /> },
          { label: t('credit:withdraw.fee'), value: <AmountText amount={result.fee} symbol="CREDIT" locale={locale} /> },
          { label: t('credit:withdraw.done.status'), value: t(`credit:records.withdrawalStatus.${result.status}`) },
        ]}
      />
      <WithdrawalsPaused />
      {next ? (
        <p className="flow-next" role="note">
          {t(`credit:withdraw.done.next.${next}`)}
        </p>
      ) : null}
      {dappParam?.token ? <TokenInWallet token={dappParam.token} explorer={dappParam.chain.blockExplorerUrls?.[0]} /> : null}
    </>
  );
}
