import List from 'antd-mobile/es/components/list';
import Tag from 'antd-mobile/es/components/tag';
import { useTranslation } from 'react-i18next';
import { fetchBotPage } from '../api/screenCalls';
import { useRootActors } from '../app/RootActorsContext';
import { paths } from '../app/paths';
import { formatAmount } from '../components/amountFormat';
import { PagedListView } from './shared/PagedListView';
import { Screen } from './shared/Screen';
import { pageQuery, usePagedList } from './shared/usePagedList';

/** Statuses with their own label and colour; anything else reads "unknown status" rather than a raw word. */
const statusColor: Record<string, 'success' | 'warning' | 'default'> = { running: 'success', paused: 'warning', stopped: 'default' };

/** /me/solbot-list — the bots, each with its status and profit rate (the API sends the rate in percent: "12.5"). */
export function Component() {
  const { t, i18n } = useTranslation(['solbot', 'common']);
  const { api } = useRootActors();
  const bots = usePagedList((input) => fetchBotPage(api, pageQuery(input)), {});
  const locale = i18n.resolvedLanguage ?? 'zh';
  return (
    <Screen title={t('solbot:title')} parent={paths.me.href()}>
      <PagedListView
        actor={bots}
        emptyTitle={t('solbot:empty')}
        renderItems={(items) => (
          <List mode="card" className="rows">
            {items.map((bot) => (
              <List.Item
                key={bot.id}
                title={bot.name}
                description={t('solbot:profitRate', { rate: `${formatAmount(bot.profitRate, { locale, signed: true, maxDecimals: 2 })}%` })}
                extra={
                  <Tag color={statusColor[bot.status] ?? 'default'} fill="outline">
                    {t(bot.status in statusColor ? `solbot:status.${bot.status}` : 'solbot:status.unknown')}
                  </Tag>
                }
              />
            ))}
          </List>
        )}
      />
    </Screen>
  );
}
