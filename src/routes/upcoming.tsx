import Button from 'antd-mobile/es/components/button';
import ErrorBlock from 'antd-mobile/es/components/error-block';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router-dom';
import { paths } from '../app/paths';
import { Screen } from './shared/Screen';
import { useAppNavigate } from './shared/useAppNavigate';

interface UpcomingHandle {
  section?: string;
  /** Where back goes when the page was opened directly. */
  parent?: string;
}

/**
 * Routes of spec section 2 whose screens come with later issues (team, WPOS, bots, announcements, about, buy).
 * They exist now in the common frame so that links and bookmarks land on a translated page, never on "not found".
 */
export function Component() {
  const { t } = useTranslation('common');
  const onNavigate = useAppNavigate();
  const handle = useMatches().at(-1)?.handle as UpcomingHandle | undefined;
  const section = handle?.section ?? 'unknown';
  return (
    <Screen title={t(`sections.${section}`)} parent={handle?.parent}>
      <ErrorBlock status="busy" title={t('upcoming.title')} description={t('upcoming.text')} fullPage={false}>
        <Button color="primary" shape="rounded" onClick={() => onNavigate(paths.home.href())}>
          {t('actions.goHome')}
        </Button>
      </ErrorBlock>
    </Screen>
  );
}
