import List from 'antd-mobile/es/components/list';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchNoticePage } from '../api/screenCalls';
import { useRootActors } from '../app/RootActorsContext';
import { paths } from '../app/paths';
import { AppLink } from '../components/AppLink';
import { formatDate } from '../components/dateFormat';
import { PagedListView } from './shared/PagedListView';
import { Screen } from './shared/Screen';
import { useAppNavigate } from './shared/useAppNavigate';
import { useFollowLanguage } from './shared/useFollowLanguage';
import { pageQuery, usePagedList } from './shared/usePagedList';

/** /me/announcement — the announcements, newest first, in the member's language, paging in as they scroll. */
export function Component() {
  const { t, i18n } = useTranslation(['announcement', 'common']);
  const { api } = useRootActors();
  const onNavigate = useAppNavigate();
  const locale = i18n.resolvedLanguage ?? 'zh';
  const notices = usePagedList((input) => fetchNoticePage(api, { ...pageQuery(input), lang: input.query.lang }), {
    lang: locale.startsWith('en') ? ('en' as const) : ('zh' as const),
  });
  useFollowLanguage(useCallback((lang) => notices.send({ type: 'user.changeQuery', query: { lang } }), [notices]));
  return (
    <Screen title={t('announcement:title')} parent={paths.me.href()}>
      <PagedListView
        actor={notices}
        emptyTitle={t('announcement:empty')}
        renderItems={(items) => (
          <List mode="card" className="rows">
            {items.map((notice) => (
              <List.Item key={notice.noticeId} arrow description={notice.summary} extra={<span className="row-date">{formatDate(notice.publishedAt, locale)}</span>}>
                <AppLink href={paths.announcementDetail.href(notice.noticeId)} onNavigate={onNavigate} className="menu-link row-link">
                  {notice.title}
                </AppLink>
              </List.Item>
            ))}
          </List>
        )}
      />
    </Screen>
  );
}
