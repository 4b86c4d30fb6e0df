import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * What a content save answers: saved, and whether the sanitiser changed the text sent. When it shows, what it
 * changed is read again once.
 */
export function Saved({ sanitised = false, onShown }: { sanitised?: boolean; onShown: () => void }) {
  const { t } = useTranslation('ops');
  const shown = useRef(onShown);
  useEffect(() => shown.current(), []);
  return (
    <>
      <p>{t('content.saved')}</p>
      {sanitised ? (
        <p className="desk-badge" data-tone="warning">
          {t('content.notices.sanitised')}
        </p>
      ) : null}
    </>
  );
}
