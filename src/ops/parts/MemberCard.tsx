import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { AmountText } from '../../components/AmountText';
import { SummaryList } from '../../components/SummaryList';
import { formatDateTime } from '../../components/dateFormat';
import type { OpsResult } from '../api/opsContract';
import { useDeskRead } from '../deskHooks';
import { deskPath } from '../deskScreens';
import { ReadState } from './ReadState';

export type MemberView = OpsResult<'opsMember'>;

/** A member's balances, freeze, team and sessions. */
export function MemberSummary({ member }: { member: MemberView }) {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  return (
    <SummaryList
      label={t('members.summary')}
      rows={[
        { label: t('members.fields.address'), value: member.address },
        { label: t('members.fields.inviteCode'), value: member.inviteCode },
        { label: t('members.fields.recommender'), value: member.recommender ?? t('members.none') },
        { label: t('members.fields.joined'), value: formatDateTime(member.createdAt, locale) },
        { label: 'CREDIT', value: <AmountText amount={member.balances.CREDIT} locale={locale} /> },
        { label: 'WPOS', value: <AmountText amount={member.balances.WPOS} locale={locale} /> },
        { label: t('members.fields.team'), value: t('members.team', { direct: member.team.direct, total: member.team.total }) },
        { label: t('members.fields.sessions'), value: String(member.sessions) },
        {
          label: t('members.fields.withdrawals'),
          value: member.frozen ? t('members.frozen', { reason: member.frozen.reason, at: formatDateTime(member.frozen.frozenAt, locale) }) : t('members.notFrozen'),
          strong: member.frozen !== null,
        },
      ]}
    />
  );
}

/** A member's latest records, newest first. */
export function MemberRecords({ member, limit }: { member: MemberView; limit?: number }) {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const records = limit === undefined ? member.records : member.records.slice(0, limit);
  if (records.length === 0) return <p className="desk-muted">{t('members.noRecords')}</p>;
  return (
    <ul className="desk-list" aria-label={t('members.records')}>
      {records.map((record) => (
        <li key={`${record.asset}:${record.id}`} className="desk-row desk-item">
          <span className="desk-row-main">
            {record.asset} · {record.type} · {record.status}
            <span className="desk-muted"> {formatDateTime(record.createdAt, locale)}</span>
          </span>
          <AmountText amount={record.amount} signed locale={locale} />
        </li>
      ))}
    </ul>
  );
}

/** The member of a withdrawal, beside it: who they are and their latest records. */
export function MemberCard({ address }: { address: string }) {
  const { t } = useTranslation('ops');
  const member = useDeskRead('opsMember', { q: address });
  return (
    <section aria-label={t('withdrawals.memberBeside')} className="desk-form">
      <h4 className="card-title">{t('withdrawals.memberBeside')}</h4>
      <ReadState actor={member} isEmpty={() => false} emptyTitle="">
        {(value) => (
          <>
            <MemberSummary member={value} />
            <MemberRecords member={value} limit={5} />
            <Link to={`${deskPath('members')}?q=${value.address}`}>{t('withdrawals.openMember')}</Link>
          </>
        )}
      </ReadState>
    </section>
  );
}
