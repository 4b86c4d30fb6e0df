import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';

/**
 * The foot of a desk edit form: its submit button (disabled while the form is invalid) and, when the form can be
 * closed, a Close button beside it.
 *
 * @example <SaveButtons label={t('content.save')} disabled={!formValid(form)} onClose={onClose} />
 */
export function SaveButtons({ label, disabled, onClose }: { label: string; disabled: boolean; onClose?: (() => void) | undefined }) {
  const { t } = useTranslation('ops');
  return (
    <div className="desk-actions">
      <Button type="submit" color="primary" shape="rounded" disabled={disabled}>
        {label}
      </Button>
      {onClose ? (
        <Button fill="outline" shape="rounded" onClick={onClose}>
          {t('actions.close')}
        </Button>
      ) : null}
    </div>
  );
}
