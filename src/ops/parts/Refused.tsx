import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { ErrorText } from '../../components/ErrorText';
import type { ErrorInfo } from '../../../machines/shared/errorInfo';
import { deskErrorText } from '../deskErrors';

interface RefusedProps {
  error: ErrorInfo | null;
  onRetry: () => void;
  /** Leaves the refusal without trying again (back to the form, or closed). */
  onLeave: () => void;
  leaveLabel: string;
}

/** A refused act: why, in the operator's language, then the same request again or leave. */
export function Refused({ error, onRetry, onLeave, leaveLabel }: RefusedProps) {
  const { t, i18n } = useTranslation('ops');
  return (
    <>
      <ErrorText text={deskErrorText(t, (key) => i18n.exists(key), error)} />
      <div className="desk-actions">
        <Button color="primary" shape="rounded" onClick={onRetry}>
          {t('common:actions.retry')}
        </Button>
        <Button fill="outline" shape="rounded" onClick={onLeave}>
          {leaveLabel}
        </Button>
      </div>
    </>
  );
}
