/**
 * Reconcile (issue 43): what the ledger owes beside the token on chain (GET /api/admin/reconcile), and each list
 * an operator must act on with what to do (README, "Credit on chain: against real providers").
 */
import Button from 'antd-mobile/es/components/button';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { AmountText } from '../../components/AmountText';
import { SummaryList } from '../../components/SummaryList';
import { TransactionLink } from '../../components/TransactionLink';
import type { OpsResult } from '../api/opsContract';
import { useExplorer } from '../deskChain';
import { useDeskRead } from '../deskHooks';
import { ReadState, readAgain } from '../parts/ReadState';

type Reconcile = OpsResult<'adminReconcile'>;

export function Screen() {
  const { t } = useTranslation('ops');
  const reconcile = useDeskRead('adminReconcile', undefined);
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
