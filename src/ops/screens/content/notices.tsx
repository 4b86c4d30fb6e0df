/**
 * The Content screen's notices: every notice (drafts first, then pinned, then newest) in the operator's language,
 * one open beside the list in its editor, and a new one to write. From 900 px the list is a table with its total.
 */
import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { formatDateTime } from '../../../components/dateFormat';
import type { OpsItem } from '../../api/opsContract';
import { useDeskRead } from '../../deskHooks';
import { readAgain } from '../../parts/ReadState';
import { useWide } from '../../useWide';
import { KeptRead } from './keptRead';
import { NoticeBadges } from './noticeBadges';
import { NoticeEditor } from './noticeEditor';
import { NoticesTable } from './noticesTable';

/** The editor's key for a new notice (no notice id can be it: ids are letters, digits, _ and -). */
const newNotice = '*new';
type Notice = OpsItem<'opsNotices'>;

export function Notices() {
  const { t } = useTranslation('ops');
  const wide = useWide();
  const [params, setParams] = useSearchParams();
  const open = params.get('new') === '1' ? newNotice : params.get('notice');
  const notices = useDeskRead('opsNotices', undefined);
  const list = useSelector(notices, (snapshot) => snapshot.context.value?.list ?? null);
  const selected = open && open !== newNotice ? (list?.find((notice) => notice.id === open) ?? null) : null;
  // The editor keeps what it opened with while the list is read again (or fails to be): its machine holds the rest.
  const [opened, setOpened] = useState<{ key: string; notice: Notice | null; takenIds: string[] } | null>(null);
  if (open && list && (open === newNotice || selected) && opened?.key !== open) setOpened({ key: open, notice: selected, takenIds: list.map((notice) => notice.id) });
  const editor = opened && opened.key === open ? opened : null;
  // Each "Write a notice" starts an empty editor, even over a new notice just saved (same address).
  const [writes, setWrites] = useState(0);
  const openNotice = (id: string | null) => setParams(id === newNotice ? { tab: 'notices', new: '1' } : id ? { tab: 'notices', notice: id } : { tab: 'notices' });
  return (
    <div className="desk-columns">
      <div className="desk-form">
        <div className="desk-actions">
          <Button
            color="primary"
            shape="rounded"
            onClick={() => {
              setWrites(writes + 1);
              setOpened(null);
              openNotice(newNotice);
            }}
          >
            {t('content.notices.write')}
          </Button>
        </div>
        <KeptRead actor={notices} isEmpty={(value) => value.list.length === 0} emptyTitle={t('content.notices.empty')}>
          {(value) => (wide ? <NoticesTable rows={value.list} openId={open} onOpen={(notice) => openNotice(notice.id)} /> : <NoticeList rows={value.list} openId={open} onOpen={openNotice} />)}
        </KeptRead>
        {wide && list ? <p className="desk-muted">{t('table.total', { count: list.length })}</p> : null}
      </div>
      <div>
        {editor ? (
          <NoticeEditor key={`${editor.key}:${String(writes)}`} notice={editor.notice} takenIds={editor.takenIds} onChanged={() => readAgain(notices)} onClose={() => openNotice(null)} />
        ) : (
          <p className="desk-muted">{open && list !== null ? t('content.notices.gone') : t('content.notices.pick')}</p>
        )}
      </div>
    </div>
  );
}

/** The phone's list: each notice's title, where it stands, its id and when published. */
function NoticeList({ rows, openId, onOpen }: { rows: readonly Notice[]; openId: string | null; onOpen: (id: string) => void }) {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  return (
    <ul className="desk-list" aria-label={t('content.notices.list')}>
      {rows.map((notice) => {
        const text = locale.startsWith('en') && notice.en ? notice.en : notice.zh;
        return (
          <li key={notice.id} className="desk-item" aria-current={notice.id === openId}>
            <button type="button" className="desk-item-button" onClick={() => onOpen(notice.id)}>
              <span className="desk-row">
                <strong className="desk-row-main">{text.title}</strong>
                <NoticeBadges notice={notice} />
              </span>
              <span className="desk-muted">
                {notice.id}
                {notice.publishedAt ? ` · ${formatDateTime(notice.publishedAt, locale)}` : ''}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
