import { useTranslation } from 'react-i18next';
import type { EditableNotice } from '../../../../machines/ops/noticePublicationMachine';

/** Where a notice stands: a draft, or published (and pinned on top); and whether it has English. */
export function NoticeBadges({ notice }: { notice: EditableNotice }) {
  const { t } = useTranslation('ops');
  return (
    <>
      {notice.published ? (
        <span className="desk-badge" data-tone="success">
          {t('content.notices.state.published')}
        </span>
      ) : (
        <span className="desk-badge" data-tone="warning">
          {t('content.notices.state.draft')}
        </span>
      )}
      {notice.pinned ? <span className="desk-badge">{t('content.notices.state.pinned')}</span> : null}
      {notice.en ? null : <span className="desk-badge">{t('content.notices.state.zhOnly')}</span>}
    </>
  );
}
