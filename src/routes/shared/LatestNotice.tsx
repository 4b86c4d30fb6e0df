import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import { SoundOutline } from 'antd-mobile-icons';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { selectResource, selectResourceError, selectResourceView } from '../../../machines/resource/resourceSelectors';
import type { ItemOf } from '../../api/answer';
import { fetchNoticePage } from '../../api/screenCalls';
import { useRootActors } from '../../app/RootActorsContext';
import { errorKey } from '../../app/errorKey';
import { paths } from '../../app/paths';
import { AppLink } from '../../components/AppLink';
import { formatDate } from '../../components/dateFormat';
import { useAppNavigate } from './useAppNavigate';
import { apiLanguage, useFollowLanguage } from './useFollowLanguage';
import { useResource } from './useResource';

type NoticeHeadline = ItemOf<'queryPagePlatformNotice'>;

/** The home page's newest announcement: one line that leads to it, with its loading, none and error states. */
export function LatestNotice() {
  const { t, i18n } = useTranslation(['announcement', 'common']);
  const { api } = useRootActors();
  const onNavigate = useAppNavigate();
  const latest = useResource(
    async (query: { lang: 'zh' | 'en' }) => {
      const answer = await fetchNoticePage(api, { page: 1, pageSize: 1, lang: query.lang });
      // No notice at all is content too ({ notice: null }), not a failure.
      return { code: answer.code, result: answer.result ? { notice: answer.result.list[0] ?? null } : null };
    },
    { lang: apiLanguage(i18n.resolvedLanguage) },
  );
  useFollowLanguage(useCallback((lang) => latest.send({ type: 'user.changeQuery', query: { lang } }), [latest]));
  const view = useSelector(latest, selectResourceView);
  const error = useSelector(latest, selectResourceError);
  const notice = useSelector(latest, selectResource<{ notice: NoticeHeadline | null }, { lang: 'zh' | 'en' }>)?.notice ?? null;
  const locale = i18n.resolvedLanguage ?? 'zh';

  return (
    <section className="card latest-notice" aria-labelledby="latest-notice-title">
      <div className="latest-notice-head">
        <h2 id="latest-notice-title" className="card-title">
          <SoundOutline aria-hidden="true" /> {t('announcement:latest')}
        </h2>
        <AppLink href={paths.announcement.href()} onNavigate={onNavigate} className="search-link">
          {t('announcement:more')}
        </AppLink>
      </div>
      {view === 'loading' ? <p role="status" className="hint">{t('common:status.loading')}</p> : null}
      {view === 'failed' ? (
        <div className="latest-notice-error">
          <p role="alert" className="hint hint-error">
            {error ? t(`common:${errorKey(error)}`) : t('common:Common.unknown')}
          </p>
          <Button size="small" fill="outline" color="primary" shape="rounded" onClick={() => latest.send({ type: 'user.retry' })}>
            {t('common:actions.retry')}
          </Button>
        </div>
      ) : null}
      {view === 'loaded' && !notice ? <p className="hint">{t('announcement:empty')}</p> : null}
      {view === 'loaded' && notice ? (
        <AppLink href={paths.announcementDetail.href(notice.noticeId)} onNavigate={onNavigate} className="latest-notice-link">
          <span className="latest-notice-text">{notice.title}</span>
          <span className="row-date">{formatDate(notice.publishedAt, locale)}</span>
        </AppLink>
      ) : null}
    </section>
  );
}
