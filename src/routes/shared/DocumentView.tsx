import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import ErrorBlock from 'antd-mobile/es/components/error-block';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { createResourceMachine } from '../../../machines/resource/resourceMachine';
import { selectResource, selectResourceError, selectResourceView } from '../../../machines/resource/resourceSelectors';
import { errorKey } from '../../app/errorKey';
import { ListState } from '../../components/ListState';
import { RichText } from '../../components/RichText';
import { formatDate } from '../../components/dateFormat';
import { sanitizeHtml } from '../../content/sanitizeHtml';

interface DocumentValue {
  title: string;
  content: string;
  publishedAt?: string;
}

interface DocumentViewProps<TValue extends DocumentValue, TQuery> {
  actor: ActorRefFrom<ReturnType<typeof createResourceMachine<TValue, TQuery>>>;
  notFoundTitle: string;
  notFoundDescription: string;
  backLabel: string;
  onBack: () => void;
}

/** A notice or the about page from the resource machine: skeleton, sanitised content, not found, error with retry. */
export function DocumentView<TValue extends DocumentValue, TQuery>({ actor, notFoundTitle, notFoundDescription, backLabel, onBack }: DocumentViewProps<TValue, TQuery>) {
  const { t, i18n } = useTranslation('common');
  const view = useSelector(actor, selectResourceView);
  const value = useSelector(actor, selectResource<TValue, TQuery>);
  const error = useSelector(actor, selectResourceError);
  switch (view) {
    case 'loading':
      return <ListState state="loading" loadingLabel={t('status.loading')} rows={6} />;
    case 'failed':
      return <ListState state="error" title={error ? t(errorKey(error)) : t('Common.unknown')} retryLabel={t('actions.retry')} onRetry={() => actor.send({ type: 'user.retry' })} />;
    case 'notFound':
      return (
        <div className="list-state">
          <ErrorBlock status="empty" title={<span role="alert">{notFoundTitle}</span>} description={notFoundDescription}>
            <Button color="primary" shape="rounded" onClick={onBack}>
              {backLabel}
            </Button>
          </ErrorBlock>
        </div>
      );
    case 'loaded':
      return value ? (
        <article className="card document">
          <h2 className="document-title">{value.title}</h2>
          {value.publishedAt ? <p className="document-date">{formatDate(value.publishedAt, i18n.resolvedLanguage ?? 'zh')}</p> : null}
          <RichText sanitizedHtml={sanitizeHtml(value.content)} />
        </article>
      ) : null;
  }
}
