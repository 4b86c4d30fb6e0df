/**
 * The bots as a table from 900 px (parts/DeskTable.tsx): name, status, profit rate and when added; a row opens its
 * editor beside the table (bots.tsx).
 */
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../components/dateFormat';
import type { OpsItem } from '../../api/opsContract';
import { DeskTable, byDecimal, byText, byTime } from '../../parts/DeskTable';
import type { DeskColumn } from '../../parts/DeskTable';

type Bot = OpsItem<'opsBots'>;


export function BotStatusBadge({ status }: { status: Bot['status'] }) {
  const { t } = useTranslation('ops');
  return (
    <span className="desk-badge" data-tone={status === 'running' ? 'success' : status === 'stopped' ? 'danger' : 'warning'}>
      {t(`content.bots.status.${status}`)}
    </span>
  );
}

export function BotsTable({ rows, openId, onOpen }: { rows: readonly Bot[]; openId: string | null; onOpen: (bot: Bot) => void }) {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const columns: DeskColumn<Bot>[] = [
    { id: 'name', header: t('content.bots.name'), cell: (bot) => bot.name, compare: byText((bot) => bot.name) },
    { id: 'status', header: t('content.bots.statusLabel'), cell: (bot) => <BotStatusBadge status={bot.status} />, compare: byText((bot) => t(`content.bots.status.${bot.status}`)) },
    { id: 'profitRate', header: t('content.bots.profitRate'), cell: (bot) => bot.profitRate, compare: byDecimal((bot) => bot.profitRate), numeric: true },
    { id: 'createdAt', header: t('content.bots.columns.createdAt'), cell: (bot) => formatDateTime(bot.createdAt, locale), compare: byTime((bot) => bot.createdAt) },
    { id: 'id', header: t('content.id'), cell: (bot) => <span className="desk-muted">{bot.id}</span>, compare: byText((bot) => bot.id) },
  ];
  return <DeskTable label={t('content.bots.list')} rows={rows} columns={columns} rowId={(bot) => bot.id} rowName={(bot) => `${bot.name} ${bot.id}`} openId={openId} onOpen={onOpen} />;
}
