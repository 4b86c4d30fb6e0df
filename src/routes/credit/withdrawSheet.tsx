import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import { CheckCircleOutline } from 'antd-mobile-icons';
import type { ChangeEvent, FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { withdrawMachine } from '../../../machines/credit/withdrawMachine';
import type { WithdrawInput } from '../../../machines/credit/withdrawMachine';
import {
  selectAmount,
  selectBalance,
  selectCanCancel,
  selectCanRetry,
  selectCanSubmit,
  selectFee,
  selectFieldError,
  selectLimits,
  selectNormalizedAmount,
  selectReceive,
  selectResult,
  selectWithdrawError,
  selectWithdrawView,
} from '../../../machines/credit/withdrawSelectors';
import { submitWithdrawal } from '../../actors/creditActors';
import { useRootActors } from '../../app/RootActorsContext';
import { errorKey } from '../../app/errorKey';
import { selectDappParam, selectMember } from '../../app/selectors';
import { AmountText } from '../../components/AmountText';
import { BottomSheet } from '../../components/BottomSheet';
import { ErrorText } from '../../components/ErrorText';
import { FormField } from '../../components/FormField';
import { ListState } from '../../components/ListState';
import { StatusPanel } from '../../components/StatusPanel';
import { SummaryList } from '../../components/SummaryList';
import { formatAmount } from '../../components/amountFormat';
import { WithdrawContext } from './withdrawContext';

interface WithdrawSheetProps {
  /** Closes the sheet (the route takes ?sheet=withdraw off the URL). */
  onClose: () => void;
  /** Opens the credit records. */
  onShowRecords: () => void;
}

const titleId = 'withdraw-title';

/**
 * The withdrawal, as a bottom sheet over /me (BottomSheet, a native modal dialog; loaded when it opens). The sheet
 * owns the flow: it renders WithdrawContext.Provider with the withdraw machine, given the real submitWithdrawal and,
 * as input, the app config's limits and the member's balance; the actor starts when the sheet opens and stops when
 * it closes. The parts below read the flow through selectors and keep no copy of it.
 */
export default function WithdrawSheet({ onClose, onShowRecords }: WithdrawSheetProps) {
  const { t } = useTranslation(['credit', 'common']);
  const { api, auth, config } = useRootActors();
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
    <BottomSheet titleId={titleId} title={t('credit:withdraw.title')} closeLabel={t('credit:withdraw.close')} onClose={onClose}>
      {input ? (
        <WithdrawContext.Provider
          logic={withdrawMachine.provide({
            actors: { submitWithdrawal: submitWithdrawal(api) },
            actions: { reportWithdrawn: () => auth.send({ type: 'app.refreshProfile' }) },
          })}
          options={{ input }}
        >
          <WithdrawFlow onClose={onClose} onShowRecords={onShowRecords} />
        </WithdrawContext.Provider>
      ) : (
        <ListState state="loading" loadingLabel={t('credit:withdraw.loading')} rows={3} />
      )}
    </BottomSheet>
  );
}

/** The part of the sheet for the machine's state. */
function WithdrawFlow({ onClose, onShowRecords }: WithdrawSheetProps) {
  const view = WithdrawContext.useSelector(selectWithdrawView);
  switch (view) {
    case 'editing':
      return <AmountForm />;
    case 'confirming':
      return <Summary />;
    case 'submitting':
      return <Submitting />;
    case 'interrupted':
    case 'failed':
      return <Retry onClose={onClose} />;
    case 'done':
      return <Done onClose={onClose} onShowRecords={onShowRecords} />;
    case 'sessionEnded':
      return <SessionEnded />;
  }
}

function useLocale(): string {
  const { i18n } = useTranslation();
  return i18n.resolvedLanguage ?? 'zh';
}

/**
 * The amount, checked as typed. The field is a native input in antd-mobile's list look: antd-mobile's Input cannot
 * carry aria-invalid and aria-describedby, which tie the error to the field for screen readers (as on /register).
 */
function AmountForm() {
  const { t } = useTranslation(['credit', 'common']);
  const locale = useLocale();
  const actor = WithdrawContext.useActorRef();
  const amount = WithdrawContext.useSelector(selectAmount);
  const fieldError = WithdrawContext.useSelector(selectFieldError);
  const serverError = WithdrawContext.useSelector(selectWithdrawError);
  const limits = WithdrawContext.useSelector(selectLimits);
  const balance = WithdrawContext.useSelector(selectBalance);
  const fee = WithdrawContext.useSelector(selectFee);
  const receive = WithdrawContext.useSelector(selectReceive);
  const canSubmit = WithdrawContext.useSelector(selectCanSubmit);
  const format = (value: string) => formatAmount(value, { locale });
  const numbers = { min: format(limits.minWithdraw), max: format(limits.maxWithdraw), cap: format(limits.dailyWithdrawCap), balance: format(balance) };
  const errorText = fieldError
    ? t(`credit:withdraw.amount.errors.${fieldError}`, numbers)
    : serverError
      ? t(`common:${errorKey(serverError)}`)
      : null;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    actor.send({ type: 'user.submit' });
  };

  return (
    <form onSubmit={submit} noValidate className="form">
      <SummaryList rows={[{ label: t('credit:withdraw.available'), value: <AmountText amount={balance} symbol="CREDIT" locale={locale} /> }]} />
      <FormField
        id="withdraw-amount"
        name="amount"
        label={t('credit:withdraw.amount.label')}
        inputMode="decimal"
        value={amount}
        placeholder={t('credit:withdraw.amount.placeholder')}
        onChange={(event: ChangeEvent<HTMLInputElement>) => actor.send({ type: 'field.change', value: event.target.value.trim() })}
        error={errorText}
        hint={t('credit:withdraw.amount.limits', numbers)}
      />
      <SummaryList
        rows={[
          { label: t('credit:withdraw.fee'), value: <AmountText amount={fee} symbol="CREDIT" locale={locale} /> },
          { label: t('credit:withdraw.receive'), value: receive === null ? '—' : <AmountText amount={receive} symbol="CREDIT" locale={locale} />, strong: true },
        ]}
      />
      <div className="form-actions">
        <Button type="submit" block color="primary" size="large" shape="rounded" disabled={!canSubmit}>
          {t('credit:withdraw.next')}
        </Button>
      </div>
    </form>
  );
}

/** The summary the member confirms; confirming creates the request id every retry of it reuses. */
function Summary() {
  const { t } = useTranslation(['credit', 'common']);
  const locale = useLocale();
  const actor = WithdrawContext.useActorRef();
  const amount = WithdrawContext.useSelector(selectNormalizedAmount) ?? '0';
  const fee = WithdrawContext.useSelector(selectFee);
  const receive = WithdrawContext.useSelector(selectReceive) ?? '0';
  return (
    <div className="form">
      <p className="sheet-lead">{t('credit:withdraw.confirm.title')}</p>
      <SummaryList
        rows={[
          { label: t('credit:withdraw.confirm.amount'), value: <AmountText amount={amount} symbol="CREDIT" locale={locale} /> },
          { label: t('credit:withdraw.fee'), value: <AmountText amount={fee} symbol="CREDIT" locale={locale} /> },
          { label: t('credit:withdraw.receive'), value: <AmountText amount={receive} symbol="CREDIT" locale={locale} />, strong: true },
        ]}
      />
      <div className="form-actions">
        <Button block color="primary" size="large" shape="rounded" onClick={() => actor.send({ type: 'user.confirm', requestId: crypto.randomUUID() })}>
          {t('credit:withdraw.confirm.submit')}
        </Button>
        <Button block fill="outline" shape="rounded" onClick={() => actor.send({ type: 'user.edit' })}>
          {t('credit:withdraw.confirm.edit')}
        </Button>
      </div>
    </div>
  );
}

function Submitting() {
  const { t } = useTranslation(['credit', 'common']);
  const actor = WithdrawContext.useActorRef();
  const canCancel = WithdrawContext.useSelector(selectCanCancel);
  return (
    <div className="card">
      <StatusPanel
        message={t('credit:withdraw.submitting.message')}
        cancelLabel={t('credit:withdraw.submitting.cancel')}
        onCancel={canCancel ? () => actor.send({ type: 'user.cancel' }) : undefined}
      />
    </div>
  );
}

/** A failure or a member who stopped waiting: what happened, and a retry with the same request id. */
function Retry({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation(['credit', 'common']);
  const actor = WithdrawContext.useActorRef();
  const view = WithdrawContext.useSelector(selectWithdrawView);
  const error = WithdrawContext.useSelector(selectWithdrawError);
  const canRetry = WithdrawContext.useSelector(selectCanRetry);
  const interrupted = view === 'interrupted';
  return (
    <div className="form">
      {interrupted ? (
        <p role="status" className="sheet-lead">
          {t('credit:withdraw.interrupted.message')}
        </p>
      ) : (
        <ErrorText text={t(`common:${error ? errorKey(error) : 'Common.unknown'}`)} />
      )}
      <p className="hint">{t(interrupted ? 'credit:withdraw.interrupted.detail' : 'credit:withdraw.failed.detail')}</p>
      <div className="form-actions">
        <Button block color="primary" size="large" shape="rounded" disabled={!canRetry} onClick={() => actor.send({ type: 'user.retry' })}>
          {t(interrupted ? 'credit:withdraw.interrupted.retry' : 'credit:withdraw.failed.retry')}
        </Button>
        <Button block fill="outline" shape="rounded" onClick={onClose}>
          {t('credit:withdraw.close')}
        </Button>
      </div>
    </div>
  );
}

function Done({ onClose, onShowRecords }: WithdrawSheetProps) {
  const { t } = useTranslation(['credit', 'common']);
  const locale = useLocale();
  const result = WithdrawContext.useSelector(selectResult);
  return (
    <div className="form">
      <p role="status" className="sheet-done">
        <CheckCircleOutline aria-hidden="true" className="sheet-done-icon" />
        <span>{t('credit:withdraw.done.title')}</span>
      </p>
      {result ? (
        <SummaryList
          rows={[
            { label: t('credit:withdraw.confirm.amount'), value: <AmountText amount={result.amount} symbol="CREDIT" locale={locale} /> },
            { label: t('credit:withdraw.fee'), value: <AmountText amount={result.fee} symbol="CREDIT" locale={locale} /> },
            { label: t('credit:withdraw.done.status'), value: t(`credit:records.status.${result.status}`) },
          ]}
        />
      ) : null}
      <p className="hint">{t('credit:withdraw.done.detail')}</p>
      <div className="form-actions">
        <Button block color="primary" size="large" shape="rounded" onClick={onClose}>
          {t('credit:withdraw.done.close')}
        </Button>
        <Button block fill="outline" shape="rounded" onClick={onShowRecords}>
          {t('credit:withdraw.done.records')}
        </Button>
      </div>
    </div>
  );
}

/** 1002: the app's auth machine has ended the session and the member area goes to sign-in. */
function SessionEnded() {
  const { t } = useTranslation(['credit', 'common']);
  return <ErrorText text={t('common:Common.1002')} />;
}
