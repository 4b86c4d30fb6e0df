import Button from 'antd-mobile/es/components/button';
import DotLoading from 'antd-mobile/es/components/dot-loading';

interface ListFooterProps {
  state: 'idle' | 'loadingMore' | 'loadMoreFailed' | 'complete';
  loadingLabel: string;
  noMoreLabel: string;
  errorText: string;
  retryLabel: string;
  onRetry: () => void;
}

/** The end of a paged list: the next page loading, its error with a retry, or "no more". */
export function ListFooter({ state, loadingLabel, noMoreLabel, errorText, retryLabel, onRetry }: ListFooterProps) {
  switch (state) {
    case 'loadingMore':
      return (
        <p role="status" className="list-footer">
          {loadingLabel} <DotLoading color="currentColor" />
        </p>
      );
    case 'loadMoreFailed':
      return (
        <div className="list-footer">
          <p role="alert">{errorText}</p>
          <Button size="small" fill="outline" color="primary" shape="rounded" onClick={onRetry}>
            {retryLabel}
          </Button>
        </div>
      );
    case 'complete':
      return <p className="list-footer">{noMoreLabel}</p>;
    case 'idle':
      return null;
  }
}
