import { SearchOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { fetchTeamPage } from '../api/screenCalls';
import { useRootActors } from '../app/RootActorsContext';
import { paths } from '../app/paths';
import { AppLink } from '../components/AppLink';
import { PagedListView } from './shared/PagedListView';
import { Screen } from './shared/Screen';
import { TeamRows } from './shared/TeamRows';
import { useAppNavigate } from './shared/useAppNavigate';
import { pageQuery, usePagedList } from './shared/usePagedList';

/** /team — the member's downline, direct members first, paging in as the member scrolls. */
export function Component() {
  const { t } = useTranslation(['team', 'common']);
  const { api } = useRootActors();
  const onNavigate = useAppNavigate();
  const team = usePagedList((input) => fetchTeamPage(api, pageQuery(input)), {});
  return (
    <Screen title={t('team:title')}>
      <PagedListView
        actor={team}
        emptyTitle={t('team:empty')}
        emptyDescription={t('team:emptyDescription')}
        toolbar={
          <AppLink href={paths.teamSearch.href()} onNavigate={onNavigate} className="search-link">
            <SearchOutline aria-hidden="true" />
            <span>{t('team:search.open')}</span>
          </AppLink>
        }
        renderItems={(members) => <TeamRows members={members} />}
      />
    </Screen>
  );
}
