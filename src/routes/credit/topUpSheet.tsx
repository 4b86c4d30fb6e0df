import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import { createActorContext } from '@xstate/react';
import type { ChangeEvent, FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { transactionErrorNames } from '../../../machines/credit/transactionErrors';
import type { ErrorInfo } from '../../../machines/shared/errorInfo';
import type { Address } from 'viem';
import { topUpMachine } from '../../../machines/credit/topUpMachine';
import {
  selectCanTopUp,
  selectTopUpAmount,
  selectTopUpAmountError,
  selectTopUpBalance,
  selectTopUpConfirmations,
  selectTopUpCredited,
  selectTopUpError,
  selectTopUpHash,
  selectTopUpRequired,
  selectTopUpStep,
} from '../../../machines/credit/topUpSelectors';
import { provideTopUpMachine, readPendingTopUp } from '../../actors/topUpActors';
import { useRootActors } from '../../app/RootActorsContext';
import { errorKey } from '../../app/errorKey';
import { selectDappParam, selectMember, selectWalletView } from '../../app/selectors';
import { AmountText } from '../../components/AmountText';
import { FlowDone } from '../../components/moneyFlow/FlowSteps';
import { BottomSheet } from '../../components/BottomSheet';
import { FormField } from '../../components/FormField';
import { ListState } from '../../components/ListState';
import { StatusPanel } from '../../components/StatusPanel';
import { SummaryList } from '../../components/SummaryList';
import { TransactionLink } from '../../components/TransactionLink';
import { formatAmount } from '../../components/amountFormat';
import { useLocale } from '../../i18n/useLocale';
import { TokenInWallet } from './TokenInWallet';

/** A kept error's text: a transaction's own errors are the sheet's texts, the rest common ones. */
function errorText(t: TFunction, error: ErrorInfo): string {
  return transactionNames.has(error.name) ? t(`credit:topUp.errors.${error.name}`) : t(`common:${errorKey(error)}`);
}
const transactionNames = new Set<string>(transactionErrorNames);

/** The top-up flow, owned by the sheet (as the withdrawal's): the actor starts when it opens, stops when it closes. */
const TopUpContext = createActorContext(topUpMachine);

/** The token transfers (viem's transaction actions) load with the sheet, never with sign-in. */
const loadTokenTransfers = () => import('../../wallet/tokenTransfers');

interface TopUpSheetProps {
  onClose: () => void;
  onShowRecords: () => void;
}

const titleId = 'top-up-title';

/**
 * Topping up credit from the wallet, as a bottom sheet over /me (`?sheet=topUp`): the token balance in the wallet,
 * the amount, the wallet's transaction, then the blocks on top until the server credits it. A top-up sent before a
 * reload resumes here. Shown only when the app config names a token (a server with a chain).
 */
export default function TopUpSheet({ onClose, onShowRecords }: TopUpSheetProps) {
  const { t } = useTranslation(['credit', 'common']);
  const { api, auth, config, storage, wallet, walletProvider } = useRootActors();
  const member = useSelector(auth, selectMember);
  const dappParam = useSelector(config, selectDappParam);
  const walletView = useSelector(wallet, selectWalletView);
  const token = dappParam?.token;
  const treasury = dappParam?.treasury;
  const ready = member && dappParam && token && treasury;
  // The transfer needs the connected wallet: the wallet machine connects it (eagerly at start, or at the member's tap).
  const walletIdle = walletView === 'idle' || walletView === 'noWallet';

  return (
    <BottomSheet titleId={titleId} title={t('credit:topUp.title')} closeLabel={t('credit:topUp.close')} onClose={onClose}>
      {ready && walletView !== 'active' ? (
        walletIdle ? (
          <ListState
            state="error"
            title={t('credit:topUp.connect.title')}
            retryLabel={t('credit:topUp.connect.action')}
            onRetry={() => wallet.send({ type: 'user.connect' })}
          />
        ) : (
          <ListState state="loading" loadingLabel={t('credit:topUp.connect.waiting')} rows={3} />
        )
      ) : ready ? (
        <TopUpContext.Provider
          logic={provideTopUpMachine({
            api,
            storage,
            address: member.address as Address,
            transfers: async () => {
              const provider = walletProvider();
              const { createTokenTransfers, ProviderNotFoundError } = await loadTokenTransfers();
              if (!provider) throw new ProviderNotFoundError();
              return createTokenTransfers(provider, {
                token: token.address as Address,
                treasury: treasury as Address,
                decimals: token.decimals,
                chainId: dappParam.chainId,
                account: member.address as Address,
              });
            },
            onCredited: () => auth.send({ type: 'app.refreshProfile' }),
          })}
          options={{ input: { pendingHash: readPendingTopUp(storage, member.address) } }}
        >
          <TopUpFlow token={token} treasury={treasury} explorer={dappParam.chain.blockExplorerUrls?.[0]} onClose={onClose} onShowRecords={onShowRecords} />
        </TopUpContext.Provider>
      ) : (
        <ListState state="loading" loadingLabel={t('credit:topUp.loading')} rows={3} />
      )}
    </BottomSheet>
  );
}

interface TopUpFlowProps extends TopUpSheetProps {
  token: { address: string; symbol: string; decimals: number };
  treasury: string;
  explorer: string | undefined;
}

/** One step at a time, as the machine says; the token and the treasury shown with the form and once credited. */
function TopUpFlow({ token, treasury, explorer, onClose, onShowRecords }: TopUpFlowProps) {
  const { symbol } = token;
  const { t } = useTranslation(['credit', 'common']);
  const locale = useLocale();
  const actor = TopUpContext.useActorRef();
  const step = TopUpContext.useSelector(selectTopUpStep);
  const error = TopUpContext.useSelector(selectTopUpError);
  const hash = TopUpContext.useSelector(selectTopUpHash);
  const confirmations = TopUpContext.useSelector(selectTopUpConfirmations);
  const required = TopUpContext.useSelector(selectTopUpRequired);
  const credited = TopUpContext.useSelector(selectTopUpCredited);
  const shownError = error ? errorText(t, error) : null;
  const retry = () => actor.send({ type: 'user.retry' });
  const restart = () => actor.send({ type: 'user.restart' });
  const hashLine = hash ? (
    <p className="hint">
      <TransactionLink label={t('credit:topUp.hash')} hash={hash} explorer={explorer} />
    </p>
  ) : null;

  switch (step) {
    case 'loading':
      return <ListState state="loading" loadingLabel={t('credit:topUp.loading')} rows={3} />;
    case 'unavailable':
      return <ListState state="error" title={t('credit:topUp.unavailable')} description={shownError ?? undefined} retryLabel={t('common:actions.retry')} onRetry={retry} />;
    case 'form':
      return (
        <>
          <AmountForm symbol={symbol} />
          <TokenInWallet token={token} treasury={treasury} explorer={explorer} />
        </>
      );
    case 'wallet':
      return <StatusPanel message={t('credit:topUp.wallet.message')} detail={t('credit:topUp.wallet.detail')} />;
    case 'walletBusy':
      return (
        <StatusPanel message={t('credit:topUp.walletBusy.message')} detail={shownError} waiting={false} cancelLabel={t('credit:topUp.walletBusy.retry')} onCancel={retry} />
      );
    case 'confirming':
      return (
        <StatusPanel
          message={required > 0 ? t('credit:topUp.confirming.progress', { confirmations, required }) : t('credit:topUp.confirming.sent')}
          detail={
            <>
              <p>{t('credit:topUp.confirming.detail')}</p>
              {shownError ? <p>{shownError}</p> : null}
              {hashLine}
            </>
          }
        />
      );
    case 'notFound':
      return (
        <div className="form">
          <StatusPanel message={t('credit:topUp.notFound.message')} detail={<>{t('credit:topUp.notFound.detail')}{hashLine}</>} waiting={false} />
          <div className="form-actions">
            <Button block color="primary" size="large" shape="rounded" onClick={retry}>
              {t('credit:topUp.notFound.wait')}
            </Button>
            <Button block fill="outline" shape="rounded" onClick={restart}>
              {t('credit:topUp.restart')}
            </Button>
          </div>
        </div>
      );
    case 'failed':
    case 'replaced':
      return (
        <div className="form">
          <StatusPanel message={t(`credit:topUp.${step}.message`)} detail={<>{t(`credit:topUp.${step}.detail`)}{hashLine}</>} waiting={false} />
          <div className="form-actions">
            <Button block color="primary" size="large" shape="rounded" onClick={restart}>
              {t('credit:topUp.restart')}
            </Button>
          </div>
        </div>
      );
    case 'credited':
      return (
        <FlowDone
          title={t('credit:topUp.credited.title')}
          detail={t('credit:topUp.credited.detail')}
          closeLabel={t('credit:topUp.credited.close')}
          onClose={onClose}
          secondary={{ label: t('credit:topUp.credited.records'), onClick: onShowRecords }}
        >
          <SummaryList rows={[{ label: t('credit:topUp.credited.amount'), value: <AmountText amount={credited ?? '0'} symbol="CREDIT" locale={locale} />, strong: true }]} />
          {hashLine}
          <TokenInWallet token={token} treasury={treasury} explorer={explorer} />
        </FlowDone>
      );
  }
}

/** The amount, checked as typed against the token balance in the wallet. */
function AmountForm({ symbol }: { symbol: string }) {
  const { t } = useTranslation(['credit', 'common']);
  const locale = useLocale();
  const actor = TopUpContext.useActorRef();
  const amount = TopUpContext.useSelector(selectTopUpAmount);
  const balance = TopUpContext.useSelector(selectTopUpBalance) ?? '0';
  const fieldError = TopUpContext.useSelector(selectTopUpAmountError);
  const walletError = TopUpContext.useSelector(selectTopUpError);
  const canSubmit = TopUpContext.useSelector(selectCanTopUp);
  const numbers = { balance: formatAmount(balance, { locale }), symbol };
  const fieldText = fieldError ? t(`credit:topUp.amount.errors.${fieldError}`, numbers) : walletError ? errorText(t, walletError) : null;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    actor.send({ type: 'user.submit' });
  };
  return (
    <form onSubmit={submit} noValidate className="form">
      <SummaryList rows={[{ label: t('credit:topUp.balance', { symbol }), value: <AmountText amount={balance} symbol={symbol} locale={locale} /> }]} />
      <FormField
        id="top-up-amount"
        name="amount"
        label={t('credit:topUp.amount.label', { symbol })}
        inputMode="decimal"
        value={amount}
        placeholder={t('credit:topUp.amount.placeholder')}
        onChange={(event: ChangeEvent<HTMLInputElement>) => actor.send({ type: 'field.change', field: 'amount', value: event.target.value.trim() })}
        error={fieldText}
        hint={t('credit:topUp.amount.hint', { symbol })}
      />
      <div className="form-actions">
        <Button type="submit" block color="primary" size="large" shape="rounded" disabled={!canSubmit}>
          {t('credit:topUp.submit')}
        </Button>
      </div>
    </form>
  );
}
