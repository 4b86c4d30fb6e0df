/**
 * Top-ups: the top-ups held for senders that are no member, each released to a member after the operator's check or
 * returned on chain to its sender (once either way), and the re-read of a block range (docs/operations.md, "Re-reading
 * blocks"). On a phone a list of cards, each with its decision; from 900 px a table (parts/DeskTable.tsx) with the
 * state and page size in one row, the total, and the opened top-up's decision beside it.
 */
import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { createHeldTopUpMachine } from '../../../machines/ops/heldTopUpMachine';
import { selectDecisionAct, selectDecisionError, selectDecisionForm, selectDecisionStage, selectDecisionSubject } from '../../../machines/shared/deskDecisionSelectors';
import { checkAddress } from '../../../machines/shared/address';
import { AmountText } from '../../components/AmountText';
import { FilterChips } from '../../components/FilterChips';
import { FormField } from '../../components/FormField';
import { ShortAddress } from '../../components/ShortAddress';
import { StatusPanel } from '../../components/StatusPanel';
import { SummaryList } from '../../components/SummaryList';
import { TransactionLink } from '../../components/TransactionLink';
import { formatDateTime } from '../../components/dateFormat';
import type { OpsItem, OpsQuery, OpsResult } from '../api/opsContract';
import { useDesk } from '../DeskContext';
import { useExplorer } from '../deskChain';
import { useDeskAction, useDeskDecision, useDeskRead } from '../deskHooks';
import { ActionState } from '../parts/ActionState';
import { DeskTable, byDecimal, byText, byTime } from '../parts/DeskTable';
import type { DeskColumn } from '../parts/DeskTable';
import { ListFooter, PageButtons } from '../parts/PageButtons';
import { PageSize, pageSizeOf } from '../parts/PageSize';
import { Refused } from '../parts/Refused';
import { ReadState, readAgain } from '../parts/ReadState';
import { useWide } from '../useWide';
import { runAct } from '../../../machines/ops/opsActionMachine';

type HeldTopUp = OpsItem<'opsHeldTopUps'>;
type HeldState = NonNullable<OpsQuery<'opsHeldTopUps'>['state']>;
const states: readonly HeldState[] = ['held', 'released', 'returning', 'returned'];
const blockPattern = /^(0|[1-9]\d{0,17})$/;

const keyOf = (topUp: HeldTopUp) => `${topUp.txHash}:${String(topUp.logPosition)}`;

export function Screen() {
  const { t } = useTranslation('ops');
  const wide = useWide();
  const [params, setParams] = useSearchParams();
  const state: HeldState = states.includes(params.get('state') as HeldState) ? (params.get('state') as HeldState) : 'held';
  const limit = pageSizeOf(params.get('limit'));
  const openKey = params.get('open');
  const held = useDeskRead('opsHeldTopUps', { state, limit });
  const nextCursor = useSelector(held, (snapshot) => snapshot.context.value?.nextCursor ?? null);
  const opened = useSelector(held, (snapshot) => snapshot.context.value?.list.find((item) => keyOf(item) === openKey) ?? null);
  const setQuery = (next: { state?: HeldState; limit?: number; open?: string | null }) => {
    const search = new URLSearchParams({ state: next.state ?? state });
    const size = next.limit ?? limit;
    if (size !== pageSizeOf(null)) search.set('limit', String(size));
    const open = next.open === undefined ? (next.state === undefined && next.limit === undefined ? openKey : null) : next.open;
    if (open) search.set('open', open);
    setParams(search);
  };
  const choose = (next: HeldState) => setQuery({ state: next });
  if (wide) {
    return (
      <section aria-labelledby="top-ups-title">
        <h2 id="top-ups-title" className="desk-screen-title">
          {t('screens.topUps')}
        </h2>
        <div className="desk-filters" role="search">
          <label className="desk-filter">
            <span className="field-label">{t('topUps.stateLabel')}</span>
            <select value={state} onChange={(event) => choose(event.target.value as HeldState)}>
              {states.map((value) => (
                <option key={value} value={value}>
                  {t(`topUps.state.${value}`)}
                </option>
              ))}
            </select>
          </label>
          <PageSize value={limit} onChange={(size) => setQuery({ limit: size })} />
        </div>
        <div className="desk-columns">
          <div>
            <ReadState actor={held} isEmpty={(value) => value.list.length === 0} emptyTitle={t('topUps.empty', { state: t(`topUps.state.${state}`) })}>
              {(value) => <HeldTable rows={value.list} openKey={openKey} onOpen={(item) => setQuery({ open: keyOf(item) })} />}
            </ReadState>
            <ListFooter actor={held} />
          </div>
          <div className="desk-form">
            {opened ? (
              <HeldTopUpItem key={keyOf(opened)} topUp={opened} onDecided={() => readAgain(held)} onClose={() => setQuery({ open: null })} />
            ) : (
              <p className="desk-muted">{t('topUps.pick')}</p>
            )}
            <Reread />
          </div>
        </div>
      </section>
    );
  }
  return (
    <section aria-labelledby="top-ups-title">
      <h2 id="top-ups-title" className="desk-screen-title">
        {t('screens.topUps')}
      </h2>
      <div className="desk-columns">
        <div>
          <FilterChips label={t('topUps.stateLabel')} options={states.map((value) => ({ value, label: t(`topUps.state.${value}`) }))} value={state} onChange={choose} />
          <ReadState actor={held} isEmpty={(value) => value.list.length === 0} emptyTitle={t('topUps.empty', { state: t(`topUps.state.${state}`) })}>
            {(value) => (
              <ul className="desk-list" aria-label={t('topUps.list')}>
                {value.list.map((item) => (
                  <HeldTopUpItem key={keyOf(item)} topUp={item} onDecided={() => readAgain(held)} />
                ))}
              </ul>
            )}
          </ReadState>
          <PageButtons actor={held} nextCursor={nextCursor} />
        </div>
        <Reread />
      </div>
    </section>
  );
}

/** The held top-ups' columns: sender, amount, block, when seen, state; each sortable. */
function HeldTable({ rows, openKey, onOpen }: { rows: readonly HeldTopUp[]; openKey: string | null; onOpen: (item: HeldTopUp) => void }) {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const columns: DeskColumn<HeldTopUp>[] = [
    { id: 'from', header: t('topUps.fields.from'), cell: (item) => <ShortAddress address={item.from} />, compare: byText((item) => item.from.toLowerCase()) },
    { id: 'amount', header: t('topUps.fields.amount'), cell: (item) => <AmountText amount={item.amount} symbol="CREDIT" locale={locale} />, compare: byDecimal((item) => item.amount), numeric: true },
    { id: 'block', header: t('topUps.fields.block'), cell: (item) => item.blockNumber, compare: byDecimal((item) => item.blockNumber), numeric: true },
    { id: 'seenAt', header: t('topUps.fields.seenAt'), cell: (item) => formatDateTime(item.seenAt, locale), compare: byTime((item) => item.seenAt) },
    { id: 'state', header: t('topUps.fields.state'), cell: (item) => <span className="desk-badge">{t(`topUps.state.${item.state}`)}</span>, compare: byText((item) => item.state) },
  ];
  return (
    <DeskTable
      label={t('topUps.list')}
      rows={rows}
      columns={columns}
      rowId={keyOf}
      openId={openKey}
      onOpen={onOpen}
    />
  );
}

/**
 * One held top-up with its decision: a card of the phone's list, or, with `onClose`, the one opened beside the table.
 */
function HeldTopUpItem({ topUp, onDecided, onClose }: { topUp: HeldTopUp; onDecided: () => void; onClose?: () => void }) {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const explorer = useExplorer();
  const decision = useDeskDecision(
    createHeldTopUpMachine,
    topUp,
    ({ act, subject, form, requestId }, api) => {
      const item = { txHash: subject.txHash, logPosition: subject.logPosition, requestId };
      return act === 'release' ? api.call('opsHeldTopUpRelease', { body: { ...item, address: form.address ?? '' } }) : api.call('opsHeldTopUpReturn', { body: item });
    },
    onDecided,
  );
  const stage = useSelector(decision, selectDecisionStage);
  const act = useSelector(decision, selectDecisionAct);
  const address = useSelector(decision, selectDecisionForm).address ?? '';
  const error = useSelector(decision, selectDecisionError);
  const decided = useSelector(decision, selectDecisionSubject).state;
  const addressError = address.trim() === '' ? null : checkAddress(address.trim());
  const canConfirm = useSelector(decision, (snapshot) => snapshot.can({ type: 'user.confirm', requestId: '' }));
  const confirm = () => decision.send({ type: 'user.confirm', requestId: crypto.randomUUID() });
  const Item = onClose ? 'article' : 'li';
  return (
    <Item className={onClose ? 'card' : 'desk-item'} {...(onClose ? { 'aria-label': t('topUps.detailTitle', { from: topUp.from }) } : {})}>
      {onClose ? (
        <div className="desk-row">
          <h3 className="card-title desk-row-main">{t('topUps.detailTitle', { from: topUp.from })}</h3>
          <Button size="small" fill="none" onClick={onClose}>
            {t('actions.close')}
          </Button>
        </div>
      ) : null}
      <SummaryList
        rows={[
          { label: t('topUps.fields.from'), value: topUp.from },
          { label: t('topUps.fields.amount'), value: <AmountText amount={topUp.amount} symbol="CREDIT" locale={locale} /> },
          { label: t('topUps.fields.block'), value: topUp.blockNumber },
          { label: t('topUps.fields.seenAt'), value: formatDateTime(topUp.seenAt, locale) },
          {
            label: t('topUps.fields.sender'),
            value: topUp.senderIsContract === null ? t('topUps.senderUnknown') : topUp.senderIsContract ? t('topUps.senderContract') : t('topUps.senderAccount'),
          },
          { label: t('topUps.fields.state'), value: t(`topUps.state.${decided}`) },
          ...(topUp.releasedTo ? [{ label: t('topUps.fields.releasedTo'), value: topUp.releasedTo }] : []),
        ]}
      />
      <TransactionLink label={t('topUps.fields.transfer')} hash={topUp.txHash} explorer={explorer} />
      {topUp.returnTxHash ? <TransactionLink label={t('topUps.fields.returnPayment')} hash={topUp.returnTxHash} explorer={explorer} /> : null}
      {topUp.reorged ? (
        <p className="desk-badge" data-tone="danger">
          {t('topUps.reorged')}
        </p>
      ) : null}
      <div className="desk-form" aria-live="polite">
        {stage === 'ready' ? (
          <div className="desk-actions">
            <Button color="primary" shape="rounded" onClick={() => decision.send({ type: 'user.choose', act: 'release' })}>
              {t('topUps.release')}
            </Button>
            <Button fill="outline" shape="rounded" onClick={() => decision.send({ type: 'user.choose', act: 'return' })}>
              {t('topUps.return')}
            </Button>
          </div>
        ) : null}
        {stage === 'form' && act === 'release' ? (
          <form
            className="desk-form"
            onSubmit={(event) => {
              event.preventDefault();
              confirm();
            }}
          >
            <FormField
              id={`release-${topUp.txHash}-${String(topUp.logPosition)}`}
              label={t('topUps.releaseTo')}
              hint={t('topUps.releaseHint')}
              error={addressError ? t(`topUps.addressError.${addressError}`) : null}
              placeholder="0x…"
              value={address}
              onChange={(event) => decision.send({ type: 'field.change', field: 'address', value: event.target.value })}
            />
            <div className="desk-actions">
              <Button type="submit" color="primary" shape="rounded" disabled={!canConfirm}>
                {t('topUps.confirmRelease')}
              </Button>
              <Button fill="outline" shape="rounded" onClick={() => decision.send({ type: 'user.cancel' })}>
                {t('common:wallet.actions.cancel')}
              </Button>
            </div>
          </form>
        ) : null}
        {stage === 'form' && act === 'return' ? (
          <>
            <p>{t('topUps.returnText', { from: topUp.from })}</p>
            <div className="desk-actions">
              <Button color="primary" shape="rounded" onClick={confirm}>
                {t('topUps.confirmReturn')}
              </Button>
              <Button fill="outline" shape="rounded" onClick={() => decision.send({ type: 'user.cancel' })}>
                {t('common:wallet.actions.cancel')}
              </Button>
            </div>
          </>
        ) : null}
        {stage === 'busy' ? <StatusPanel message={t(act === 'release' ? 'topUps.releasing' : 'topUps.returning')} /> : null}
        {stage === 'refused' ? (
          <Refused error={error} onRetry={() => decision.send({ type: 'user.retry' })} onLeave={() => decision.send({ type: 'user.cancel' })} leaveLabel={t('actions.back')} />
        ) : null}
      </div>
    </Item>
  );
}

function Reread() {
  const { t } = useTranslation('ops');
  const { api } = useDesk();
  const [range, setRange] = useState({ fromBlock: '', toBlock: '' });
  const reread = useDeskAction((request: { fromBlock: string; toBlock: string }) => api.call('opsTopUpsReread', { body: request }));
  const valid = blockPattern.test(range.fromBlock) && blockPattern.test(range.toBlock) && BigInt(range.fromBlock) <= BigInt(range.toBlock);
  const busy = useSelector(reread, (snapshot) => snapshot.hasTag('busy'));
  return (
    <section className="card desk-form" aria-labelledby="reread-title">
      <h3 id="reread-title" className="card-title">
        {t('topUps.rereadTitle')}
      </h3>
      <p className="desk-muted">{t('topUps.rereadLead')}</p>
      <form
        className="desk-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (valid) runAct(reread, range);
        }}
      >
        <FormField id="reread-from" label={t('topUps.fromBlock')} error={null} inputMode="numeric" value={range.fromBlock} onChange={(event) => setRange({ ...range, fromBlock: event.target.value.trim() })} />
        <FormField id="reread-to" label={t('topUps.toBlock')} error={null} inputMode="numeric" value={range.toBlock} onChange={(event) => setRange({ ...range, toBlock: event.target.value.trim() })} />
        <Button type="submit" color="primary" shape="rounded" disabled={!valid || busy}>
          {t('topUps.reread')}
        </Button>
      </form>
      <ActionState
        actor={reread}
        busyText={t('topUps.rereading')}
        done={(result: OpsResult<'opsTopUpsReread'> | null) => <p>{t('topUps.rereadDone', { found: result?.found ?? 0, credited: result?.credited ?? 0, held: result?.held ?? 0 })}</p>}
      />
    </section>
  );
}
