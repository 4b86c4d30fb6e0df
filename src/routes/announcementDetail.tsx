import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { fetchNotice } from '../api/screenCalls';
import { useRootActors } from '../app/RootActorsContext';
import { paths } from '../app/paths';
import { DocumentView } from './shared/DocumentView';
import { Screen } from './shared/Screen';
import { useAppNavigate } from './shared/useAppNavigate';
import { apiLanguage, useFollowLanguage } from './shared/useFollowLanguage';
import { useResource } from './shared/useResource';

/**
 * /me/announcement/detail/:noticeId — one announcement, its HTML sanitised; an unknown id says so with a way back.
 * Keyed by the id: a link from one notice to another loads the other, where the route's element would stay.
 */
export function Component() {
  const { noticeId = '' } = useParams();
  return <AnnouncementDetail key={noticeId} noticeId={noticeId} />;
}

function AnnouncementDetail({ noticeId }: { noticeId: string }) {
  const { t, i18n } = useTranslation(['announcement', 'common']);
  const { api } = useRootActors();
  const onNavigate = useAppNavigate();
  const notice = useResource((query: { noticeId: string; lang: 'zh' | 'en' }) => fetchNotice(api, query), {
    noticeId,
    lang: apiLanguage(i18n.resolvedLanguage),
  });
  useFollowLanguage(useCallback((lang) => notice.send({ type: 'user.changeQuery', query: { noticeId, lang } }), [notice, noticeId]));
  return (
    <Screen title={t('announcement:detailTitle')} parent={paths.announcement.href()}>
      <DocumentView
        actor={notice}
        notFoundTitle={t('announcement:notFound')}
        notFoundDescription={t('announcement:notFoundDescription')}
        backLabel={t('announcement:back')}
        onBack={() => onNavigate(paths.announcement.href())}
      />
    </Screen>
  );
}
