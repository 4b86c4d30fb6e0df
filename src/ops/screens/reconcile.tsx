/**
 * Reconcile: what the ledger owes beside the token on chain (GET /api/admin/reconcile), and each list an operator
 * must act on with what to do (docs/operations.md, "Credit on chain: against real providers"); the payer's journal with
 * the recovery from the chain, and the unknown payments it found, each settled here (docs/API.md, "The payer's
 * journal"); payouts paused on doubt, resumed here by two finance operators.
 */
import Button from 'antd-mobile/es/components/button';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AmountText } from '../../components/AmountText';
import { SummaryList } from '../../components/SummaryList';
import { FormField } from '../../components/FormField';
import { TransactionLink } from '../../components/TransactionLink';
import type { OpsResult } from '../api/opsContract';
import { useExplorer } from '../deskChain';
import { useDesk } from '../DeskContext';
import { useDeskAction, useDeskRead } from '../deskHooks';
import { ActionState } from '../parts/ActionState';
import { PayoutPauseCard } from '../parts/PayoutPauseCard';
import { ReadState, readAgain } from '../parts/ReadState';
import { runAct } from '../../../machines/ops/opsActionMachine';

type Reconcile = OpsResult<'opsReconcile'>;

export function Screen() {
  const { t } = useTranslation('ops');
  const reconcile = useDeskRead('opsReconcile', undefined);
  const loading = useSelector(reconcile, (snapshot) => snapshot.matches('loading'));
  return (
    <section aria-labelledby="reconcile-title">
      <div className="desk-row">
        <h2 id="reconcile-title" className="desk-screen-title desk-row-main">
          {t('screens.reconcile')}
        </h2>
        <Button size="small" fill="outline" shape="rounded" loading={loading} onClick={() => readAgain(reconcile)}>
          {t('actions.readAgain')}
        </Button>
      </div>
      <ReadState actor={reconcile} isEmpty={() => false} emptyTitle="">
        {(value) => <ReconcileView value={value} />}
      </ReadState>
    </section>
  );
}

function ReconcileView({ value }: { value: Reconcile }) {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const explorer = useExplorer();
  const amount = (text: string, signed = false) => <AmountText amount={text} locale={locale} signed={signed} />;
  const short = value.difference.startsWith('-');
  return (
    <div className="desk-columns">
      <div className="card desk-form">
        <p role="status" className="desk-badge" data-tone={value.ok ? 'success' : 'danger'}>
          {value.ok ? t('reconcile.ok') : t('reconcile.notOk')}
        </p>
        <SummaryList
          rows={[
            { label: t('reconcile.owed'), value: amount(value.owed) },
            { label: t('reconcile.ledgerMembers'), value: amount(value.ledger.members) },
            { label: t('reconcile.ledgerPayable'), value: amount(value.ledger.payable) },
            { label: t('reconcile.ledgerHeld'), value: amount(value.ledger.heldTopUps) },
            { label: t('reconcile.backing'), value: amount(value.backing) },
            { label: t('reconcile.treasury'), value: amount(value.chain.treasury) },
            { label: t('reconcile.hotWallet'), value: value.chain.payer === null ? t('reconcile.noPayer') : amount(value.chain.payer) },
            { label: t('reconcile.difference'), value: amount(value.difference, true), strong: true },
            { label: t('reconcile.pendingPayments'), value: amount(value.pendingPayments) },
            { label: t('reconcile.payerApproved'), value: amount(value.payer.approved) },
            { label: t('reconcile.payerWaiting'), value: value.payer.waiting ? t(`reconcile.waiting.${value.payer.waiting}`) : t('reconcile.notWaiting') },
          ]}
        />
        {short ? <p className="desk-muted">{t('reconcile.doShort')}</p> : null}
        {value.payer.waiting ? <p className="desk-muted">{t('reconcile.doWaiting')}</p> : null}
      </div>
      <div className="desk-form">
        {value.pause ? <PayoutPauseCard pause={value.pause} /> : null}
        {value.journal ? <Journal journal={value.journal} /> : null}
        {value.unknownPayments.length > 0 ? (
          <section aria-labelledby="unknown-title" className="card desk-form">
            <h3 id="unknown-title" className="card-title">
              {t('reconcile.unknownPayments')}
            </h3>
            <p className="desk-muted">{t('reconcile.doUnknown')}</p>
            <ul className="desk-list">
              {value.unknownPayments.map((item) => (
                <UnknownPayment key={item.hash} item={item} />
              ))}
            </ul>
          </section>
        ) : null}
        {value.missedTopUps.length > 0 ? (
          <section aria-labelledby="missed-title" className="card desk-form">
            <h3 id="missed-title" className="card-title">
              {t('reconcile.missedTopUps')}
            </h3>
            <ul className="desk-list">
              {value.missedTopUps.map((item) => (
                <li key={item.txHash} className="desk-item">
                  <p>
                    {item.from} · {amount(item.amount)} · {t('reconcile.block', { block: item.blockNumber })}
                  </p>
                  <TransactionLink label={t('reconcile.transfer')} hash={item.txHash} explorer={explorer} />
                  <p className="desk-muted">{t('reconcile.doMissed')}</p>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        <section aria-labelledby="lost-title" className="card desk-form">
          <h3 id="lost-title" className="card-title">
            {t('reconcile.lostPayments')}
          </h3>
          {value.lostPayments.length === 0 ? <p className="desk-muted">{t('reconcile.nothing')}</p> : null}
          <ul className="desk-list">
            {value.lostPayments.map((item) => (
              <li key={item.hash} className="desk-item">
                <p>
                  #{item.withdrawalId} · {item.address} · {amount(item.amount)} · <strong>{t(`reconcile.lost.${item.reason}`)}</strong>
                </p>
                <TransactionLink label={t('reconcile.payment')} hash={item.hash} explorer={explorer} />
                <p className="desk-muted">{t(`reconcile.doLost.${item.reason}`)}</p>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="reorged-title" className="card desk-form">
          <h3 id="reorged-title" className="card-title">
            {t('reconcile.reorgedCredits')}
          </h3>
          {value.reorgedCredits.length === 0 ? <p className="desk-muted">{t('reconcile.nothing')}</p> : null}
          <ul className="desk-list">
            {value.reorgedCredits.map((item) => (
              <li key={item.txHash} className="desk-item">
                <p>
                  {item.address} · {amount(item.amount)} · {item.credited ? t('reconcile.credited') : t('reconcile.held')}
                </p>
                <TransactionLink label={t('reconcile.transfer')} hash={item.txHash} explorer={explorer} />
                <p className="desk-muted">{t('reconcile.doReorged')}</p>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="stuck-title" className="card desk-form">
          <h3 id="stuck-title" className="card-title">
            {t('reconcile.stuckPayments')}
          </h3>
          {value.stuckPayments.length === 0 ? <p className="desk-muted">{t('reconcile.nothing')}</p> : null}
          <ul className="desk-list">
            {value.stuckPayments.map((item) => (
              <li key={item.hash} className="desk-item">
                <p>
                  #{item.withdrawalId} · {t('reconcile.nonce', { nonce: item.nonce })} · {t('reconcile.age', { minutes: Math.floor(item.ageSeconds / 60) })} ·{' '}
                  <strong>{t(`reconcile.stuck.${item.reason}`)}</strong>
                </p>
                <TransactionLink label={t('reconcile.payment')} hash={item.hash} explorer={explorer} />
                <p className="desk-muted">{t(`reconcile.doStuck.${item.reason}`)}</p>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </div>
  );
}

/** The payer's journal: whether payouts are halted, and the recovery from the chain. */
function Journal({ journal }: { journal: NonNullable<Reconcile['journal']> }) {
  const { t } = useTranslation('ops');
  const { api } = useDesk();
  const recover = useDeskAction((request: { requestId: string }) => api.call('opsPaymentsRecover', { body: request }));
  const busy = useSelector(recover, (snapshot) => snapshot.hasTag('busy'));
  return (
    <section aria-labelledby="journal-title" className="card desk-form">
      <h3 id="journal-title" className="card-title">
        {t('reconcile.journal')}
      </h3>
      <p role="status" className="desk-badge" data-tone={journal.halted ? 'danger' : 'success'}>
        {journal.halted ? t('reconcile.payoutsHalted') : t('reconcile.payoutsGoOn')}
      </p>
      <SummaryList
        rows={[
          { label: t('reconcile.chainNonce'), value: journal.chainNonce },
          { label: t('reconcile.knownNonce'), value: journal.knownNonce },
        ]}
      />
      {journal.halted ? <p className="desk-muted">{t('reconcile.doHalted')}</p> : null}
      {journal.chainNonce !== journal.knownNonce ? (
        <Button color="primary" shape="rounded" disabled={busy} onClick={() => runAct(recover, { requestId: crypto.randomUUID() })}>
          {t('reconcile.recover')}
        </Button>
      ) : null}
      <ActionState
        actor={recover}
        busyText={t('reconcile.recovering')}
        done={(result: OpsResult<'opsPaymentsRecover'> | null) => (
          <p>
            {t('reconcile.recovered', { payments: result?.recordedPayments ?? 0, unknown: result?.unknownPayments ?? 0, nonce: result?.knownNonce ?? '' })}
            {result?.stoppedAt ? ` ${t('reconcile.recoverStopped', { nonce: result.stoppedAt })}` : ''}
          </p>
        )}
      />
    </section>
  );
}

/** One unknown payment, settled by debiting the member it paid or writing it off, with a reason. */
function UnknownPayment({ item }: { item: Reconcile['unknownPayments'][number] }) {
  const { t, i18n } = useTranslation('ops');
  const { api } = useDesk();
  const explorer = useExplorer();
  const [reason, setReason] = useState('');
  const settle = useDeskAction((request: { hash: string; settlement: 'debit' | 'writeOff'; reason: string; requestId: string }) => api.call('opsUnknownPaymentSettle', { body: request }));
  const busy = useSelector(settle, (snapshot) => snapshot.hasTag('busy'));
  const run = (settlement: 'debit' | 'writeOff') => runAct(settle, { hash: item.hash, settlement, reason: reason.trim(), requestId: crypto.randomUUID() });
  const ready = reason.trim().length > 0 && !busy;
  return (
    <li className="desk-item">
      <p>
        {t('reconcile.nonce', { nonce: item.nonce })} · <strong>{t(`reconcile.unknown.${item.kind}`)}</strong> · {item.to ?? '—'} ·{' '}
        <AmountText amount={item.amount} locale={i18n.resolvedLanguage ?? 'zh'} />
      </p>
      <TransactionLink label={t('reconcile.payment')} hash={item.hash} explorer={explorer} />
      <FormField id={`settle-${item.hash}`} label={t('reconcile.settleReason')} error={null} value={reason} onChange={(event) => setReason(event.target.value)} />
      <div className="desk-actions">
        {item.member ? (
          <Button color="primary" shape="rounded" disabled={!ready} onClick={() => run('debit')}>
            {t('reconcile.settleDebit')}
          </Button>
        ) : null}
        <Button fill="outline" shape="rounded" disabled={!ready} onClick={() => run('writeOff')}>
          {t('reconcile.settleWriteOff')}
        </Button>
      </div>
      <ActionState
        actor={settle}
        busyText={t('reconcile.settling')}
        done={(result: OpsResult<'opsUnknownPaymentSettle'> | null) => <p>{result?.waitsForSecondApproval ? t('reconcile.settleWaits') : t('reconcile.settled')}</p>}
      />
    </li>
  );
}
