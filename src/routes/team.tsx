import { SearchOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { fetchTeamPage } from '../api/screenCalls';
import { useRootActors } from '../app/RootActorsContext';
import { paths } from '../app/paths';
import { AppLink } from '../components/AppLink';
import { shortAddress } from '../components/ShortAddress';
import { PagedListView } from './shared/PagedListView';
import { Screen } from './shared/Screen';
import { TeamRows } from './shared/TeamRows';
import { useAppNavigate } from './shared/useAppNavigate';
import { pageQuery, usePagedList } from './shared/usePagedList';

/**
 * /team — the member's direct members, paging in as the member scrolls; /team?of=address — the direct members of a
 * member of the downline, opened from its row. Each list is its own page (keyed by `of`), so going back returns to
 * the list before it.
 */
export function Component() {
  const [params] = useSearchParams();
  const of = params.get('of') ?? undefined;
  return <TeamLevel key={of ?? ''} of={of} />;
}

function TeamLevel({ of }: { of: string | undefined }) {
  const { t } = useTranslation(['team', 'common']);
  const { api } = useRootActors();
  const onNavigate = useAppNavigate();
  const team = usePagedList((input) => fetchTeamPage(api, { ...pageQuery(input), ...(of ? { of } : {}) }), {});
  return (
    <Screen title={of ? t('team:teamOf', { address: shortAddress(of) }) : t('team:title')} parent={of ? paths.team.href() : undefined}>
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
