import Skeleton from 'antd-mobile/es/components/skeleton';

/** Grey placeholder lines while content loads, announced once to screen readers. */
export function LoadingSkeleton({ label, rows = 3 }: { label: string; rows?: number }) {
  return (
    <div className="list-state" aria-busy="true">
      <p role="status" className="visually-hidden">
        {label}
      </p>
      <Skeleton.Title animated />
      <Skeleton.Paragraph lineCount={rows} animated />
    </div>
  );
}
