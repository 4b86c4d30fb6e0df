import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchAbout } from '../api/screenCalls';
import { useRootActors } from '../app/RootActorsContext';
import { paths } from '../app/paths';
import { DocumentView } from './shared/DocumentView';
import { Screen } from './shared/Screen';
import { useAppNavigate } from './shared/useAppNavigate';
import { apiLanguage, useFollowLanguage } from './shared/useFollowLanguage';
import { useResource } from './shared/useResource';

/** /me/about — the about page in the member's language, its HTML sanitised. */
export function Component() {
  const { t, i18n } = useTranslation(['about', 'common']);
  const { api } = useRootActors();
  const onNavigate = useAppNavigate();
  const about = useResource((query: { lang: 'zh' | 'en' }) => fetchAbout(api, query), { lang: apiLanguage(i18n.resolvedLanguage) });
  useFollowLanguage(useCallback((lang) => about.send({ type: 'user.changeQuery', query: { lang } }), [about]));
  return (
    <Screen title={t('about:title')} parent={paths.me.href()}>
      <DocumentView
        actor={about}
        notFoundTitle={t('about:empty')}
        notFoundDescription=""
        backLabel={t('common:actions.goHome')}
        onBack={() => onNavigate(paths.home.href())}
      />
    </Screen>
  );
}
