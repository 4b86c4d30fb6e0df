import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router-dom';
import { useRootActors } from '../app/RootActorsContext';
import { errorKey } from '../app/errorKey';
import { paths } from '../app/paths';
import {
  selectAuthError,
  selectAuthView,
  selectConfigFailed,
  selectDappParam,
  selectWalletAddress,
  selectWalletChainId,
  selectWalletError,
  selectWalletView,
} from '../app/selectors';
import { Button } from '../components/Button';
import { ErrorText } from '../components/ErrorText';
import { Page } from '../components/Page';
import { StatusPanel } from '../components/StatusPanel';
import { WalletPanel } from './shared/WalletPanel';
import { useReturnPath } from './shared/useReturnPath';

/** /login/:inviteCode? — connect the wallet, sign in by signature, and bind with the code from the link. */
export function Component() {
  const { t } = useTranslation(['login', 'common']);
  const { inviteCode } = useParams();
  const returnPath = useReturnPath();
  const { wallet, auth, config } = useRootActors();
  const authView = useSelector(auth, selectAuthView);
  const authError = useSelector(auth, selectAuthError);
  const walletView = useSelector(wallet, selectWalletView);
  const address = useSelector(wallet, selectWalletAddress);
  const chainId = useSelector(wallet, selectWalletChainId);
  const dappParam = useSelector(config, selectDappParam);
  const configFailed = useSelector(config, selectConfigFailed);
  const walletError = useSelector(wallet, selectWalletError);

  if (authView === 'signedIn' || authView === 'loadingProfile' || authView === 'profileFailed') {
    return <Navigate to={returnPath} replace />;
  }
  if (authView === 'bindRequired' || authView === 'binding') {
    return <Navigate to={paths.register.href(inviteCode)} replace state={{ from: returnPath }} />;
  }

  const cancel = () => auth.send({ type: 'user.cancel' });
  const canSignIn = walletView === 'active' && address !== null && dappParam !== null && chainId === dappParam.chainId;
  const signIn = () => {
    if (address && chainId !== null) auth.send({ type: 'user.signIn', address, chainId, inviteCode: inviteCode ?? null });
  };

  return (
    <Page title={t('login:title')}>
      <p className="lead">{t('login:description')}</p>
      {inviteCode ? <p className="invite-note">{t('login:inviteCode.invited', { code: inviteCode })}</p> : null}
      {configFailed ? (
        <div>
          <ErrorText text={t('common:Common.-1')} />
          <Button variant="secondary" onClick={() => config.send({ type: 'user.retry' })}>
            {t('common:actions.retry')}
          </Button>
        </div>
      ) : null}
      {authView === 'signedOut' || authView === 'restoring' ? (
        <>
          <WalletPanel />
          {/* A disconnect ends both the connection and the sign-in: the wallet panel already says so once. */}
          {authError && authError.name !== walletError?.name ? <ErrorText text={t(`common:${errorKey(authError)}`)} /> : null}
          {canSignIn ? <Button onClick={signIn}>{t('login:signIn.label')}</Button> : null}
        </>
      ) : null}
      {authView === 'fetchingNonce' ? <StatusPanel message={t('login:signIn.preparing')} cancelLabel={t('common:wallet.actions.cancel')} onCancel={cancel} /> : null}
      {authView === 'signingMessage' ? (
        <StatusPanel message={t('login:signIn.busy')} cancelLabel={t('common:wallet.actions.cancel')} onCancel={cancel} />
      ) : null}
      {authView === 'verifying' ? <StatusPanel message={t('login:signIn.verifying')} cancelLabel={t('common:wallet.actions.cancel')} onCancel={cancel} /> : null}
    </Page>
  );
}
