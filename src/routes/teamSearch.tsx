import { useActorRef, useSelector } from '@xstate/react';
import SearchBar from 'antd-mobile/es/components/search-bar';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { selectKeyword, selectResults, selectSearchError, selectSearchView } from '../../machines/search/searchSelectors';
import type { TeamMember } from '../../api-schema/member';
import { provideSearch } from '../actors/listActors';
import { searchTeam } from '../api/screenCalls';
import { useRootActors } from '../app/RootActorsContext';
import { errorKey } from '../app/errorKey';
import { paths } from '../app/paths';
import { ListState } from '../components/ListState';
import { StatusPanel } from '../components/StatusPanel';
import { Screen } from './shared/Screen';
import { TeamRows } from './shared/TeamRows';

/**
 * /team/search — search the whole team by an address fragment as the member types; only the newest keyword's
 * answer is shown (the search machine).
 */
export function Component() {
  const { t } = useTranslation(['team', 'common']);
  const { api } = useRootActors();
  const logic = useMemo(
    () =>
      provideSearch<TeamMember>((keyword) => searchTeam(api, { keyword: keyword.trim() })),
    [api],
  );
  const search = useActorRef(logic);
  const view = useSelector(search, selectSearchView);
  const keyword = useSelector(search, selectKeyword);
  const results = useSelector(search, selectResults<TeamMember>);
  const error = useSelector(search, selectSearchError);

  return (
    <Screen title={t('team:search.title')} parent={paths.team.href()}>
      <div className="search-box">
        <SearchBar
          value={keyword}
          onChange={(value) => search.send({ type: 'user.type', keyword: value })}
          placeholder={t('team:search.placeholder')}
          clearable={false}
        />
      </div>
      {view === 'idle' ? <p className="hint">{t('team:search.hint')}</p> : null}
      {view === 'tooShort' ? <p className="hint" role="status">{t('team:search.tooShort')}</p> : null}
      {view === 'notHex' ? <p className="hint hint-error" role="alert">{t('team:search.notHex')}</p> : null}
      {view === 'searching' && results.length === 0 ? <StatusPanel message={t('team:search.searching')} /> : null}
      {view === 'noMatch' ? <ListState state="empty" title={t('team:search.noMatch')} /> : null}
      {view === 'failed' ? (
        <ListState
          state="error"
          title={error ? t(`common:${errorKey(error)}`) : t('common:Common.unknown')}
          retryLabel={t('common:actions.retry')}
          onRetry={() => search.send({ type: 'user.retry' })}
        />
      ) : null}
      {(view === 'found' || view === 'searching') && results.length > 0 ? (
        <>
          <p className="hint" role="status">
            {view === 'searching' ? t('team:search.searching') : t('team:search.results', { count: results.length })}
          </p>
          <TeamRows members={results} />
        </>
      ) : null}
    </Screen>
  );
}
