import { useTranslation } from 'react-i18next';
import { Link, useMatches } from 'react-router-dom';
import { paths } from '../app/paths';
import { Page } from '../components/Page';

/**
 * Routes of spec section 2 whose screens come with later issues (team, WPOS, bots, announcements, about, buy).
 * They exist now so that links and bookmarks land on a translated page, never on "not found".
 */
export function Component() {
  const { t } = useTranslation('common');
  const handle = useMatches().at(-1)?.handle as { section?: string } | undefined;
  const section = handle?.section ?? 'unknown';
  return (
    <Page title={t(`sections.${section}`)}>
      <p className="lead">{t('upcoming.text')}</p>
      <Link to={paths.home.href()}>{t('actions.goHome')}</Link>
    </Page>
  );
}
