/**
 * Content (role `content`): notices in zh and en with a preview as members see them, published, pinned
 * and unpublished; the about page; goods with their prices and stock; share pools; bots. One tab each, named in
 * the address (?tab=), so a link or a reload opens the same one.
 */
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { FilterChips } from '../../components/FilterChips';
import { About } from './content/about';
import { Bots } from './content/bots';
import { Goods } from './content/goods';
import { Notices } from './content/notices';
import { Pools } from './content/pools';

const tabs = ['notices', 'about', 'goods', 'pools', 'bots'] as const;
type Tab = (typeof tabs)[number];
const isTab = (value: string | null): value is Tab => tabs.includes(value as Tab);

export function Screen() {
  const { t } = useTranslation('ops');
  const [params, setParams] = useSearchParams();
  const given = params.get('tab');
  const tab: Tab = isTab(given) ? given : 'notices';
  return (
    <section aria-labelledby="content-title">
      <h2 id="content-title" className="desk-screen-title">
        {t('screens.content')}
      </h2>
      <FilterChips label={t('content.tabsLabel')} options={tabs.map((value) => ({ value, label: t(`content.tabs.${value}`) }))} value={tab} onChange={(next) => setParams({ tab: next })} />
      {tab === 'notices' ? <Notices /> : null}
      {tab === 'about' ? <About /> : null}
      {tab === 'goods' ? <Goods /> : null}
      {tab === 'pools' ? <Pools /> : null}
      {tab === 'bots' ? <Bots /> : null}
    </section>
  );
}
