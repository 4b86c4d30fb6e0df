import { useSelector } from '@xstate/react';
import type { ChangeEvent } from 'react';
import { ApiCode } from '../../../api-schema/codes';
import { selectResource, selectResourceError, selectResourceView } from '../../../machines/resource/resourceSelectors';
import { selectCanSubmit, selectFlowError, selectResult } from '../../../machines/shared/moneyFlowSelectors';
import { transferMachine, type TransferInput, type TransferResult } from '../../../machines/wpos/transferMachine';
import {
  selectAmount,
  selectAmountError,
  selectNormalizedAmount,
  selectRecipient,
  selectRecipientChecksummed,
  selectRecipientError,
  selectRecipientMatches,
  selectRemaining,
  selectTransferInput,
} from '../../../machines/wpos/transferSelectors';
import { submitTransfer } from '../../actors/wposActors';
import type { ResultOf } from '../../api/answer';
import { fetchTransferRecipients } from '../../api/screenCalls';
import { useRootActors } from '../../app/RootActorsContext';
import { errorKey } from '../../app/errorKey';
import { selectDappParam, selectMember } from '../../app/selectors';
import { AmountText } from '../../components/AmountText';
import { FormField } from '../../components/FormField';
import { ListState } from '../../components/ListState';
import { ShortAddress } from '../../components/ShortAddress';
import { SummaryList } from '../../components/SummaryList';
import { formatAmount } from '../../components/amountFormat';
import { createMoneyFlowSheet, MoneyFlowForm } from '../shared/MoneyFlowSheet';
import { useResource } from '../shared/useResource';

interface TransferSheetProps {
  /** Closes the sheet (the route takes ?sheet= off the URL). */
  onClose: () => void;
}

/** The transfer flow: its actor lives while the sheet is open; the parts below read it through selectors. */
const transferFlow = createMoneyFlowSheet({ machine: transferMachine, submit: submitTransfer, texts: 'wpos:transfer' });

/**
 * The WPOS transfer, as a bottom sheet over /me/wpos (`?sheet=transfer`; loaded when it opens). It first reads who
 * may receive (getRentValidBindMemberAddress, with its own loading and retry), then owns the transfer flow with
 * the list, minTransfer and the WPOS balance as input.
 */
export default function TransferSheet({ onClose }: TransferSheetProps) {
  const { t } = transferFlow.useText();
  const { api, auth, config } = useRootActors();
  const member = useSelector(auth, selectMember);
  const dappParam = useSelector(config, selectDappParam);
  const recipients = useResource<ResultOf<'getRentValidBindMemberAddress'>, Record<string, never>>(() => fetchTransferRecipients(api), {});
  const view = useSelector(recipients, selectResourceView);
  const error = useSelector(recipients, selectResourceError);
  const list = useSelector(recipients, selectResource<ResultOf<'getRentValidBindMemberAddress'>, Record<string, never>>)?.list;
  const input: TransferInput | null =
    member && dappParam && list ? { ownAddress: member.address, recipients: list, minTransfer: dappParam.minTransfer, balance: member.wposBalance } : null;

  return (
    <transferFlow.Sheet
      input={input}
      onClose={onClose}
      failure={
        view === 'failed' || view === 'notFound' ? (
          <ListState
            state="error"
            title={t('wpos:transfer.loadFailed')}
            description={error ? t(`common:${errorKey(error)}`) : undefined}
            retryLabel={t('common:actions.retry')}
            onRetry={() => recipients.send({ type: 'user.retry' })}
          />
        ) : undefined
      }
      Form={TransferForm}
      Summary={Summary}
      Receipt={Receipt}
    />
  );
}

/** Recipient (picked from the team or pasted) and amount, each checked as typed. */
function TransferForm() {
  const { t, locale } = transferFlow.useText();
  const actor = transferFlow.useActorRef();
  const recipient = transferFlow.useSelector(selectRecipient);
  const recipientError = transferFlow.useSelector(selectRecipientError);
  const { matches, total } = transferFlow.useSelector(selectRecipientMatches);
  const amount = transferFlow.useSelector(selectAmount);
  const amountError = transferFlow.useSelector(selectAmountError);
  const serverError = transferFlow.useSelector(selectFlowError);
  const input = transferFlow.useSelector(selectTransferInput);
  const remaining = transferFlow.useSelector(selectRemaining);
  const canSubmit = transferFlow.useSelector(selectCanSubmit);
  const numbers = { min: formatAmount(input.minTransfer, { locale }), balance: formatAmount(input.balance, { locale }) };
  // A server refusal shows beside the field it is about: 3004 is the recipient, the others the amount.
  const serverText = serverError ? t(`common:${errorKey(serverError)}`) : null;
  const aboutRecipient = serverError?.code === ApiCode.recipientInvalid;
  const change = (field: 'toAddress' | 'amount') => (event: ChangeEvent<HTMLInputElement>) =>
    actor.send({ type: 'field.change', field, value: event.target.value.trim() });

  return (
    <MoneyFlowForm actor={actor} canSubmit={canSubmit} nextLabel={t('wpos:transfer.next')}>
      <SummaryList rows={[{ label: t('wpos:transfer.available'), value: <AmountText amount={input.balance} symbol="WPOS" locale={locale} /> }]} />
      <FormField
        id="transfer-recipient"
        name="toAddress"
        label={t('wpos:transfer.recipient.label')}
        value={recipient}
        placeholder={t('wpos:transfer.recipient.placeholder')}
        autoCapitalize="off"
        spellCheck={false}
        onChange={change('toAddress')}
        error={recipientError ? t(`wpos:transfer.recipient.errors.${recipientError}`) : aboutRecipient ? serverText : null}
        hint={input.recipients.length === 0 ? t('wpos:transfer.recipient.none') : undefined}
      />
      {matches.length > 0 ? (
        <section className="recipient-picker" aria-label={t('wpos:transfer.recipient.pick')}>
          <ul>
            {matches.map((address) => (
              <li key={address}>
                <button type="button" className="recipient-option" onClick={() => actor.send({ type: 'field.change', field: 'toAddress', value: address })}>
                  <ShortAddress address={address} />
                </button>
              </li>
            ))}
          </ul>
          {total > matches.length ? <p className="hint">{t('wpos:transfer.recipient.more', { count: total - matches.length })}</p> : null}
        </section>
      ) : null}
      <FormField
        id="transfer-amount"
        name="amount"
        label={t('wpos:transfer.amount.label')}
        inputMode="decimal"
        value={amount}
        placeholder={t('wpos:transfer.amount.placeholder')}
        onChange={change('amount')}
        error={amountError ? t(`wpos:transfer.amount.errors.${amountError}`, numbers) : aboutRecipient ? null : serverText}
        hint={t('wpos:transfer.amount.limits', numbers)}
      />
      <SummaryList
        rows={[
          {
            label: t('wpos:transfer.remaining'),
            value: remaining === null || remaining.startsWith('-') ? '—' : <AmountText amount={remaining} symbol="WPOS" locale={locale} />,
            strong: true,
          },
        ]}
      />
    </MoneyFlowForm>
  );
}

/** What the member confirms: recipient, amount, what remains. */
function Summary() {
  const { t, locale } = transferFlow.useText();
  const recipient = transferFlow.useSelector(selectRecipientChecksummed) ?? '';
  const amount = transferFlow.useSelector(selectNormalizedAmount) ?? '0';
  const remaining = transferFlow.useSelector(selectRemaining) ?? '0';
  return (
    <SummaryList
      rows={[
        { label: t('wpos:transfer.confirm.recipient'), value: <span className="address-full">{recipient}</span> },
        { label: t('wpos:transfer.confirm.amount'), value: <AmountText amount={amount} symbol="WPOS" locale={locale} />, strong: true },
        { label: t('wpos:transfer.remaining'), value: <AmountText amount={remaining} symbol="WPOS" locale={locale} /> },
      ]}
    />
  );
}

/** The transfer as done: to whom and how much. */
function Receipt() {
  const { t, locale } = transferFlow.useText();
  const recipient = transferFlow.useSelector(selectRecipientChecksummed) ?? '';
  const result = transferFlow.useSelector((snapshot) => selectResult<TransferResult>(snapshot));
  if (!result) return null;
  return (
    <SummaryList
      rows={[
        { label: t('wpos:transfer.confirm.recipient'), value: <ShortAddress address={recipient} /> },
        { label: t('wpos:transfer.confirm.amount'), value: <AmountText amount={result.amount} symbol="WPOS" locale={locale} /> },
      ]}
    />
  );
}
