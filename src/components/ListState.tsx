import Button from 'antd-mobile/es/components/button';
import ErrorBlock from 'antd-mobile/es/components/error-block';
import type { ReactNode } from 'react';
import { LoadingSkeleton } from './LoadingSkeleton';

type ListStateProps =
  | { state: 'loading'; loadingLabel: string; rows?: number }
  | { state: 'empty'; title: string; description?: string; action?: ReactNode }
  | { state: 'error'; title: string; description?: string; retryLabel: string; onRetry: () => void };

/**
 * The states of anything the member waits for that is not yet content: a skeleton while loading (announced
 * once), an empty state, or an error with a retry.
 */
export function ListState(props: ListStateProps) {
  switch (props.state) {
    case 'loading':
      return <LoadingSkeleton label={props.loadingLabel} rows={props.rows} />;
    case 'empty':
      return (
        <div className="list-state">
          <ErrorBlock status="empty" title={props.title} description={props.description ?? ''}>
            {props.action}
          </ErrorBlock>
        </div>
      );
    case 'error':
      return (
        <div className="list-state">
          <ErrorBlock status="default" title={<span role="alert">{props.title}</span>} description={props.description ?? ''}>
            <Button color="primary" fill="outline" shape="rounded" onClick={props.onRetry}>
              {props.retryLabel}
            </Button>
          </ErrorBlock>
        </div>
      );
  }
}
