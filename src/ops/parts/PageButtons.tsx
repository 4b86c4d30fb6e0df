import Button from 'antd-mobile/es/components/button';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { createResourceMachine } from '../../../machines/resource/resourceMachine';

/**
 * A list's next page (the API's nextCursor) and the way back to the newest, so a queue longer than a page is never
 * cut short unsaid.
 */
export function PageButtons<TValue, TQuery extends { cursor?: string | undefined }>({
  actor,
  nextCursor,
}: {
  actor: ActorRefFrom<ReturnType<typeof createResourceMachine<TValue, TQuery>>>;
  nextCursor: string | null;
}) {
  const { t } = useTranslation('ops');
  const query = useSelector(actor, (snapshot) => snapshot.context.query);
  if (!nextCursor && query.cursor === undefined) return null;
  const { cursor: _cursor, ...first } = query;
  return (
    <div className="desk-actions">
      {query.cursor !== undefined ? (
        <Button fill="outline" shape="rounded" onClick={() => actor.send({ type: 'user.changeQuery', query: first as TQuery })}>
          {t('actions.firstPage')}
        </Button>
      ) : null}
      {nextCursor ? (
        <Button fill="outline" shape="rounded" onClick={() => actor.send({ type: 'user.changeQuery', query: { ...query, cursor: nextCursor } })}>
          {t('actions.nextPage')}
        </Button>
      ) : null}
    </div>
  );
}

/** Under a desk table: how many match on all pages (the API's `total`) and the page buttons. */
export function ListFooter<TValue extends { nextCursor: string | null; total: number }, TQuery extends { cursor?: string | undefined }>({
  actor,
}: {
  actor: ActorRefFrom<ReturnType<typeof createResourceMachine<TValue, TQuery>>>;
}) {
  const { t } = useTranslation('ops');
  const total = useSelector(actor, (snapshot) => snapshot.context.value?.total ?? null);
  const nextCursor = useSelector(actor, (snapshot) => snapshot.context.value?.nextCursor ?? null);
  return (
    <div className="desk-row">
      {total !== null ? <p className="desk-muted desk-row-main">{t('table.total', { count: total })}</p> : null}
      <PageButtons actor={actor} nextCursor={nextCursor} />
    </div>
  );
}
