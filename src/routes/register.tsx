import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import { UserAddOutline } from 'antd-mobile-icons';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router-dom';
import { useRootActors } from '../app/RootActorsContext';
import { errorKey } from '../app/errorKey';
import { paths } from '../app/paths';
import { selectAuthError, selectAuthView, selectRegisterRedirect } from '../app/selectors';
import { FormField } from '../components/FormField';
import { Notice } from '../components/Notice';
import { StatusPanel } from '../components/StatusPanel';
import { Screen } from './shared/Screen';
import { useReturnPath } from './shared/useReturnPath';

/**
 * /register/:inviteCode? — a signed-in member without recommender enters or confirms an invite code. The field is
 * a native input in antd-mobile's list look: antd-mobile's Input cannot carry aria-invalid and aria-describedby,
 * which tie the machine's error to the field for screen readers.
 */
export function Component() {
  const { t } = useTranslation(['register', 'common']);
  const { inviteCode } = useParams();
  const returnPath = useReturnPath();
  const { auth } = useRootActors();
  const view = useSelector(auth, selectAuthView);
  const error = useSelector(auth, selectAuthError);
  const redirect = useSelector(auth, selectRegisterRedirect);

  if (redirect === 'login') return <Navigate to={paths.login.href(inviteCode)} replace />;
  if (redirect === 'returnPath') return <Navigate to={returnPath} replace />;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = new FormData(event.currentTarget).get('inviteCode');
    auth.send({ type: 'user.bind', inviteCode: typeof value === 'string' ? value.trim() : '' });
  };
  const errorText = error ? t(`common:${errorKey(error)}`) : null;

  return (
    <Screen title={t('register:title')}>
      <Notice icon={<UserAddOutline />}>{t('register:description')}</Notice>
      {view === 'binding' ? (
        <div className="card">
          <StatusPanel message={t('register:bind.busy')} cancelLabel={t('common:wallet.actions.cancel')} onCancel={() => auth.send({ type: 'user.cancel' })} />
        </div>
      ) : (
        <form onSubmit={submit} noValidate className="form">
          <FormField
            id="inviteCode"
            name="inviteCode"
            label={t('register:inviteCode.label')}
            defaultValue={inviteCode ?? ''}
            placeholder={t('register:inviteCode.placeholder')}
            autoCapitalize="characters"
            error={errorText}
          />
          <div className="form-actions">
            <Button type="submit" block color="primary" size="large" shape="rounded">
              {t('register:bind.label')}
            </Button>
          </div>
        </form>
      )}
      <div className="form-actions">
        <Button block fill="none" shape="rounded" onClick={() => auth.send({ type: 'user.signOut' })}>
          {t('register:signOut.label')}
        </Button>
      </div>
    </Screen>
  );
}
