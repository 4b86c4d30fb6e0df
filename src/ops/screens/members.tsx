/**
 * Members: a member by address or invite code, with balances, records, team and sessions; sign them out everywhere,
 * freeze or unfreeze their withdrawals with a reason, grant or deduct with a reason (above the quorum threshold a
 * second finance operator confirms it, from the list of those waiting). From 900 px the members are a table
 * (opsMembers, newest first) whose row opens the member beside it; on a phone, the lookup by address or code.
 */
import Button from 'antd-mobile/es/components/button';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { memberPrefixSchema } from '../../../api-schema/opsMembers';
import { holdsRole } from '../../../machines/ops/opsSelectors';
import { FormField } from '../../components/FormField';
import { ListState } from '../../components/ListState';
import type { OpsResult } from '../api/opsContract';
import { useDesk } from '../DeskContext';
import { useDeskAction, useDeskRead, useOperator } from '../deskHooks';
import { ActionState } from '../parts/ActionState';
import { MemberRecords, MemberSummary } from '../parts/MemberCard';
import { PendingAdjustments } from '../parts/PendingAdjustments';
import { MoneySettingsCard } from '../parts/MoneySettingsCard';
import { PolicyCard } from '../parts/PolicyCard';
import type { MemberView } from '../parts/MemberCard';
import { MembersTable } from '../parts/MembersTable';
import { ListFooter } from '../parts/PageButtons';
import { PageSize, pageSizeOf } from '../parts/PageSize';
import { ReadState, readAgain } from '../parts/ReadState';
import { useDraft } from '../useDraft';
import { useWide } from '../useWide';
import { runAct } from '../../../machines/ops/opsActionMachine';

const queryPattern = /^(0x[0-9a-fA-F]{40}|[A-Za-z0-9]{4,16})$/;
const adjustPattern = /^-?(0|[1-9]\d{0,11})(\.\d{1,6})?$/;

export function Screen() {
  const { t } = useTranslation('ops');
  const operator = useOperator();
  const wide = useWide();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const [text, setText] = useDraft(q);
  const search = (event: FormEvent) => {
    event.preventDefault();
    if (queryPattern.test(text.trim())) setParams({ q: text.trim() });
  };
  const finance = holdsRole(operator, 'finance');
  if (wide) {
    return (
      <section aria-labelledby="members-title">
        <h2 id="members-title" className="desk-screen-title">
          {t('screens.members')}
        </h2>
        <div className="desk-columns">
          <MemberList openAddress={q} onOpen={(address) => setParams({ q: address })} />
          <div>{q && queryPattern.test(q) ? <MemberLookup key={q} q={q} /> : <p className="desk-muted">{t('members.pick')}</p>}</div>
        </div>
        {finance ? <PendingAdjustments /> : null}
        {finance ? <MoneySettingsCard /> : null}
        <PolicyCard />
      </section>
    );
  }
  return (
    <section aria-labelledby="members-title">
      <h2 id="members-title" className="desk-screen-title">
        {t('screens.members')}
      </h2>
      <form className="desk-form" role="search" onSubmit={search}>
        <FormField
          id="member-query"
          label={t('members.query')}
          hint={t('members.queryHint')}
          error={text.trim() !== '' && !queryPattern.test(text.trim()) ? t('members.queryInvalid') : null}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <Button type="submit" color="primary" shape="rounded">
          {t('members.find')}
        </Button>
      </form>
      {q && queryPattern.test(q) ? <MemberLookup key={q} q={q} /> : <ListState state="empty" title={t('members.prompt')} />}
      {finance ? <PendingAdjustments /> : null}
      {finance ? <MoneySettingsCard /> : null}
      <PolicyCard />
    </section>
  );
}

/** The start of an address or an invite code, as opsMembers' schema takes it. */
const isPrefix = (text: string) => memberPrefixSchema.safeParse(text).success;

/**
 * The members from 900 px, newest first: the filters in one row (an address's or invite code's start, applied as it
 * is typed; frozen only; page size), the table and its total; a row opens the member beside it.
 */
function MemberList({ openAddress, onOpen }: { openAddress: string; onOpen: (address: string) => void }) {
  const { t } = useTranslation('ops');
  const [filters, setFilters] = useState<{ text: string; frozen: boolean; limit: number }>({ text: '', frozen: false, limit: pageSizeOf(null) });
  const members = useDeskRead('opsMembers', { limit: pageSizeOf(null) });
  const text = filters.text.trim();
  const invalid = text !== '' && !isPrefix(text);
  const change = (next: typeof filters) => {
    setFilters(next);
    const prefix = next.text.trim();
    if (prefix !== '' && !isPrefix(prefix)) return;
    members.send({ type: 'user.changeQuery', query: { limit: next.limit, ...(prefix ? { q: prefix } : {}), ...(next.frozen ? { frozen: 'true' as const } : {}) } });
  };
  return (
    <div>
      <div className="desk-filters" role="search">
        <label className="desk-filter desk-filter-wide">
          <span className="field-label">{t('members.listQuery')}</span>
          <input value={filters.text} placeholder="0x… / DEMO2026" aria-invalid={invalid || undefined} onChange={(event) => change({ ...filters, text: event.target.value })} />
        </label>
        <label className="desk-filter desk-filter-check">
          <input type="checkbox" checked={filters.frozen} onChange={(event) => change({ ...filters, frozen: event.target.checked })} />
          <span>{t('members.frozenOnly')}</span>
        </label>
        <PageSize value={filters.limit} onChange={(limit) => change({ ...filters, limit })} />
        {invalid ? <p className="desk-filter-error">{t('members.listQueryInvalid')}</p> : null}
      </div>
      <ReadState actor={members} isEmpty={(value) => value.list.length === 0} emptyTitle={t('members.listEmpty')}>
        {(value) => <MembersTable rows={value.list} openAddress={openAddress} onOpen={(member) => onOpen(member.address)} />}
      </ReadState>
      <ListFooter actor={members} />
    </div>
  );
}

function MemberLookup({ q }: { q: string }) {
  const member = useDeskRead('opsMember', { q });
  return (
    <ReadState actor={member} isEmpty={() => false} emptyTitle="">
      {(value) => <MemberDetail member={value} onChanged={() => readAgain(member)} />}
    </ReadState>
  );
}

function MemberDetail({ member, onChanged }: { member: MemberView; onChanged: () => void }) {
  const { t } = useTranslation('ops');
  const { api } = useDesk();
  const operator = useOperator();
  const signOut = useDeskAction((request: { address: string }) => api.call('opsMemberSignOut', { body: request }));
  const freeze = useDeskAction((request: { address: string; frozen: boolean; reason: string }) => api.call('opsMemberFreeze', { body: request }));
  const [freezeReason, setFreezeReason] = useState('');
  return (
    <div className="desk-columns">
      <div className="card desk-form">
        <MemberSummary member={member} />
        <h3 className="card-title">{t('members.records')}</h3>
        <MemberRecords member={member} />
      </div>
      <div className="desk-form">
        <section className="card desk-form" aria-labelledby="sign-out-title">
          <h3 id="sign-out-title" className="card-title">
            {t('members.signOutTitle')}
          </h3>
          <p className="desk-muted">{t('members.signOutLead', { count: member.sessions })}</p>
          <Button color="danger" fill="outline" shape="rounded" onClick={() => runAct(signOut, { address: member.address })}>
            {t('members.signOut')}
          </Button>
          <ActionState
            actor={signOut}
            busyText={t('members.signingOut')}
            done={(result: OpsResult<'opsMemberSignOut'> | null) => <p>{t('members.signedOut', { count: result?.revoked ?? 0 })}</p>}
          />
        </section>
        <section className="card desk-form" aria-labelledby="freeze-title">
          <h3 id="freeze-title" className="card-title">
            {member.frozen ? t('members.unfreezeTitle') : t('members.freezeTitle')}
          </h3>
          <form
            className="desk-form"
            onSubmit={(event) => {
              event.preventDefault();
              if (freezeReason.trim()) runAct(freeze, { address: member.address, frozen: member.frozen === null, reason: freezeReason.trim() });
            }}
          >
            <label htmlFor="freeze-reason" className="field-label">
              {t('members.reason')}
            </label>
            <textarea id="freeze-reason" rows={2} maxLength={500} value={freezeReason} onChange={(event) => setFreezeReason(event.target.value)} />
            <Button type="submit" color={member.frozen ? 'primary' : 'danger'} shape="rounded" disabled={freezeReason.trim() === ''}>
              {member.frozen ? t('members.unfreeze') : t('members.freeze')}
            </Button>
          </form>
          <ActionState
            actor={freeze}
            busyText={t('members.saving')}
            done={(result: OpsResult<'opsMemberFreeze'> | null) => <FreezeDone frozen={result?.frozen !== null && result?.frozen !== undefined} onShown={onChanged} />}
          />
        </section>
        {holdsRole(operator, 'finance') ? <Adjust address={member.address} onChanged={onChanged} /> : null}
      </div>
    </div>
  );
}

function FreezeDone({ frozen, onShown }: { frozen: boolean; onShown: () => void }) {
  const { t } = useTranslation('ops');
  return (
    <>
      <p>{frozen ? t('members.frozenNow') : t('members.unfrozenNow')}</p>
      <Button size="small" fill="none" onClick={onShown}>
        {t('actions.readAgain')}
      </Button>
    </>
  );
}

function Adjust({ address, onChanged }: { address: string; onChanged: () => void }) {
  const { t } = useTranslation('ops');
  const { api } = useDesk();
  const [form, setForm] = useState({ asset: 'CREDIT' as 'CREDIT' | 'WPOS', amount: '', reason: '' });
  const adjust = useDeskAction((request: { address: string; asset: 'CREDIT' | 'WPOS'; amount: string; reason: string; requestId: string }) => api.call('opsAdjust', { body: request }));
  const amountValid = adjustPattern.test(form.amount) && /[1-9]/.test(form.amount);
  const described = (result: OpsResult<'opsAdjust'> | null) =>
    result ? (
      <>
        <p>{result.status === 'waiting' ? t('members.adjustWaiting', { id: result.id }) : t('members.adjustDone', { id: result.id })}</p>
        <Button size="small" fill="none" onClick={onChanged}>
          {t('actions.readAgain')}
        </Button>
      </>
    ) : null;
  return (
    <section className="card desk-form" aria-labelledby="adjust-title">
      <h3 id="adjust-title" className="card-title">
        {t('members.adjustTitle')}
      </h3>
      <p className="desk-muted">{t('members.adjustLead')}</p>
      <form
        className="desk-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (amountValid && form.reason.trim()) runAct(adjust, { address, ...form, reason: form.reason.trim(), requestId: crypto.randomUUID() });
        }}
      >
        <label htmlFor="adjust-asset" className="field-label">
          {t('members.asset')}
        </label>
        <select id="adjust-asset" value={form.asset} onChange={(event) => setForm({ ...form, asset: event.target.value === 'WPOS' ? 'WPOS' : 'CREDIT' })}>
          <option value="CREDIT">CREDIT</option>
          <option value="WPOS">WPOS</option>
        </select>
        <FormField
          id="adjust-amount"
          label={t('members.amount')}
          hint={t('members.amountHint')}
          error={form.amount !== '' && !amountValid ? t('members.amountInvalid') : null}
          inputMode="decimal"
          value={form.amount}
          onChange={(event) => setForm({ ...form, amount: event.target.value.trim() })}
        />
        <label htmlFor="adjust-reason" className="field-label">
          {t('members.reason')}
        </label>
        <textarea id="adjust-reason" rows={2} maxLength={500} value={form.reason} onChange={(event) => setForm({ ...form, reason: event.target.value })} />
        <Button type="submit" color="primary" shape="rounded" disabled={!amountValid || form.reason.trim() === ''}>
          {form.amount.startsWith('-') ? t('members.deduct') : t('members.grant')}
        </Button>
      </form>
      <ActionState actor={adjust} busyText={t('members.saving')} done={described} />
    </section>
  );
}
