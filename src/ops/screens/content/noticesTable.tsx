/**
 * The notices as a table from 900 px (parts/DeskTable.tsx): title, where each stands, when published, id; a row
 * opens its editor beside the table (notices.tsx).
 */
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../components/dateFormat';
import type { OpsItem } from '../../api/opsContract';
import { DeskTable, byText, byTime } from '../../parts/DeskTable';
import type { DeskColumn } from '../../parts/DeskTable';
import { NoticeBadges } from './noticeBadges';

type Notice = OpsItem<'opsNotices'>;

/** Drafts, then published, then pinned: the order the badges say. */
const standing = (notice: Notice) => (notice.published ? 1 : 0) + (notice.pinned ? 1 : 0);

export function NoticesTable({ rows, openId, onOpen }: { rows: readonly Notice[]; openId: string | null; onOpen: (notice: Notice) => void }) {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const titleOf = (notice: Notice) => (locale.startsWith('en') && notice.en ? notice.en : notice.zh).title;
  const columns: DeskColumn<Notice>[] = [
    { id: 'title', header: t('content.notices.title'), cell: titleOf, compare: byText(titleOf) },
    { id: 'state', header: t('content.notices.columns.state'), cell: (notice) => <NoticeBadges notice={notice} />, compare: (a, b) => standing(a) - standing(b) },
    {
      id: 'publishedAt',
      header: t('content.notices.columns.publishedAt'),
      cell: (notice) => (notice.publishedAt ? formatDateTime(notice.publishedAt, locale) : ''),
      compare: byTime((notice) => notice.publishedAt ?? ''),
    },
    { id: 'id', header: t('content.notices.id'), cell: (notice) => <span className="desk-muted">{notice.id}</span>, compare: byText((notice) => notice.id) },
  ];
  return <DeskTable label={t('content.notices.list')} rows={rows} columns={columns} rowId={(notice) => notice.id} rowName={(notice) => `${titleOf(notice)} ${notice.id}`} openId={openId} onOpen={onOpen} />;
}
