import Button from 'antd-mobile/es/components/button';
import ErrorBlock from 'antd-mobile/es/components/error-block';
import { useTranslation } from 'react-i18next';
import { paths } from '../app/paths';
import { Screen } from './shared/Screen';
import { useAppNavigate } from './shared/useAppNavigate';

/** Any path outside spec section 2: say so, and offer the way home. */
export function Component() {
  const { t } = useTranslation('common');
  const onNavigate = useAppNavigate();
  return (
    <Screen title={t('errors.notFound')}>
      <ErrorBlock status="empty" title={t('errors.notFound')} description={t('errors.notFoundDescription')} fullPage={false}>
        <Button color="primary" shape="rounded" onClick={() => onNavigate(paths.home.href())}>
          {t('actions.goHome')}
        </Button>
      </ErrorBlock>
    </Screen>
  );
}
