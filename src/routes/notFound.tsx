import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../app/paths';
import { Page } from '../components/Page';

/** Any path outside spec section 2. */
export function Component() {
  const { t } = useTranslation('common');
  return (
    <Page title={t('errors.notFound')}>
      <Link to={paths.home.href()}>{t('actions.goHome')}</Link>
    </Page>
  );
}
