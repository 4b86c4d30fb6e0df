import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router-dom';
import { useRootActors } from '../app/RootActorsContext';
import { errorKey } from '../app/errorKey';
import { paths } from '../app/paths';
import { selectAuthError, selectAuthView } from '../app/selectors';
import { Button } from '../components/Button';
import { ErrorText } from '../components/ErrorText';
import { Page } from '../components/Page';
import { StatusPanel } from '../components/StatusPanel';
import { useReturnPath } from './shared/useReturnPath';

/** /register/:inviteCode? — a signed-in member without recommender enters or confirms an invite code. */
export function Component() {
  const { t } = useTranslation(['register', 'common']);
  const { inviteCode } = useParams();
  const returnPath = useReturnPath();
  const { auth } = useRootActors();
  const view = useSelector(auth, selectAuthView);
  const error = useSelector(auth, selectAuthError);

  if (view === 'signedOut' || view === 'restoring' || view === 'signingOut') return <Navigate to={paths.login.href(inviteCode)} replace />;
  if (view === 'signedIn' || view === 'loadingProfile' || view === 'profileFailed') return <Navigate to={returnPath} replace />;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = new FormData(event.currentTarget).get('inviteCode');
    auth.send({ type: 'user.bind', inviteCode: typeof value === 'string' ? value.trim() : '' });
  };
  const errorText = error ? t(`common:${errorKey(error)}`) : null;

  return (
    <Page title={t('register:title')}>
      <p className="lead">{t('register:description')}</p>
      {view === 'binding' ? (
        <StatusPanel message={t('register:bind.busy')} cancelLabel={t('common:wallet.actions.cancel')} onCancel={() => auth.send({ type: 'user.cancel' })} />
      ) : (
        <form onSubmit={submit} noValidate className="form">
          <label htmlFor="inviteCode" className="field-label">
            {t('register:inviteCode.label')}
          </label>
          <input
            id="inviteCode"
            name="inviteCode"
            className="field-input"
            defaultValue={inviteCode ?? ''}
            placeholder={t('register:inviteCode.placeholder')}
            autoComplete="off"
            autoCapitalize="characters"
            aria-invalid={errorText ? true : undefined}
            aria-describedby={errorText ? 'inviteCode-error' : undefined}
          />
          {errorText ? <ErrorText id="inviteCode-error" text={errorText} /> : null}
          <Button type="submit">{t('register:bind.label')}</Button>
        </form>
      )}
      <Button variant="link" onClick={() => auth.send({ type: 'user.signOut' })}>
        {t('register:signOut.label')}
      </Button>
    </Page>
  );
}
