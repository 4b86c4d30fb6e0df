import { useTranslation } from 'react-i18next';
import { AmountText } from '../../components/AmountText';
import { ShortAddress } from '../../components/ShortAddress';
import { formatDateTime } from '../../components/dateFormat';
import type { OpsItem } from '../api/opsContract';
import { DeskTable, byDecimal, byText, byTime } from './DeskTable';
import type { DeskColumn } from './DeskTable';

type ListedMember = OpsItem<'opsMembers'>;

/** The members from 900 px (src/ops/screens/members.tsx): address, invite code, recommender, joined, CREDIT, frozen. */
export function MembersTable({ rows, openAddress, onOpen }: { rows: readonly ListedMember[]; openAddress: string | null; onOpen: (member: ListedMember) => void }) {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const columns: DeskColumn<ListedMember>[] = [
    { id: 'address', header: t('members.columns.address'), cell: (member) => <ShortAddress address={member.address} />, compare: byText((member) => member.address.toLowerCase()) },
    { id: 'inviteCode', header: t('members.columns.inviteCode'), cell: (member) => member.inviteCode, compare: byText((member) => member.inviteCode) },
    {
      id: 'recommender',
      header: t('members.columns.recommender'),
      cell: (member) => (member.recommender ? <ShortAddress address={member.recommender} /> : t('members.columns.none')),
      compare: byText((member) => member.recommender?.toLowerCase() ?? ''),
    },
    { id: 'createdAt', header: t('members.columns.joined'), cell: (member) => formatDateTime(member.createdAt, locale), compare: byTime((member) => member.createdAt) },
    { id: 'credit', header: 'CREDIT', cell: (member) => <AmountText amount={member.credit} locale={locale} />, compare: byDecimal((member) => member.credit), numeric: true },
    {
      id: 'frozen',
      header: t('members.columns.withdrawals'),
      cell: (member) =>
        member.frozen ? (
          <span className="desk-badge" data-tone="danger">
            {t('members.columns.frozen')}
          </span>
        ) : (
          t('members.columns.open')
        ),
      compare: byText((member) => (member.frozen ? '0' : '1')),
    },
  ];
  return (
    <DeskTable
      label={t('members.list')}
      rows={rows}
      columns={columns}
      rowId={(member) => member.address}
      openId={openAddress}
      onOpen={onOpen}
    />
  );
}
