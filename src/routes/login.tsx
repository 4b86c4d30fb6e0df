import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import { InformationCircleOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router-dom';
import { useRootActors } from '../app/RootActorsContext';
import { errorKey } from '../app/errorKey';
import { paths } from '../app/paths';
import {
  selectAuthError,
  selectAuthView,
  selectCanSignIn,
  selectConfigFailed,
  selectDappParam,
  selectSignInRedirect,
  selectWalletAddress,
  selectWalletChainId,
  selectWalletError,
} from '../app/selectors';
import { BrandMark } from '../components/BrandMark';
import { ErrorText } from '../components/ErrorText';
import { Notice } from '../components/Notice';
import { StatusPanel } from '../components/StatusPanel';
import { Screen } from './shared/Screen';
import { WalletPanel } from './shared/WalletPanel';
import { useReturnPath } from './shared/useReturnPath';

/** /login/:inviteCode? — connect the wallet, sign in by signature, and bind with the code from the link. */
export function Component() {
  const { t } = useTranslation(['login', 'common']);
  const { inviteCode } = useParams();
  const returnPath = useReturnPath();
  const { wallet, auth, config } = useRootActors();
  const authSnapshot = useSelector(auth, (snapshot) => snapshot);
  const walletSnapshot = useSelector(wallet, (snapshot) => snapshot);
  const authView = selectAuthView(authSnapshot);
  const authError = selectAuthError(authSnapshot);
  const redirect = selectSignInRedirect(authSnapshot);
  const address = useSelector(wallet, selectWalletAddress);
  const chainId = useSelector(wallet, selectWalletChainId);
  const dappParam = useSelector(config, selectDappParam);
  const configFailed = useSelector(config, selectConfigFailed);
  const walletError = useSelector(wallet, selectWalletError);

  if (redirect === 'returnPath') return <Navigate to={returnPath} replace />;
  if (redirect === 'register') return <Navigate to={paths.register.href(inviteCode)} replace state={{ from: returnPath }} />;

  const cancel = () => auth.send({ type: 'user.cancel' });
  const cancelLabel = t('common:wallet.actions.cancel');
  const canSignIn = selectCanSignIn(authSnapshot, walletSnapshot, dappParam);
  const signIn = () => {
    if (address && chainId !== null) auth.send({ type: 'user.signIn', address, chainId, inviteCode: inviteCode ?? null });
  };

  return (
    <Screen title={t('login:title')}>
      <div className="hero">
        <BrandMark size={56} />
        <p className="hero-name">{t('common:layout.appName')}</p>
        <p className="hero-lead">{t('login:description')}</p>
      </div>
      {inviteCode ? <Notice icon={<InformationCircleOutline />}>{t('login:inviteCode.invited', { code: inviteCode })}</Notice> : null}
      {configFailed ? (
        <div className="card">
          <ErrorText text={t('common:Common.-1')} />
          <Button block shape="rounded" onClick={() => config.send({ type: 'user.retry' })}>
            {t('common:actions.retry')}
          </Button>
        </div>
      ) : null}
      <div className="card">
        {authView === 'signedOut' || authView === 'restoring' ? (
          <>
            <WalletPanel />
            {/* A disconnect ends both the connection and the sign-in: the wallet panel already says so once. */}
            {authError && authError.name !== walletError?.name ? <ErrorText text={t(`common:${errorKey(authError)}`)} /> : null}
            {canSignIn ? (
              <Button block color="primary" size="large" shape="rounded" onClick={signIn}>
                {t('login:signIn.label')}
              </Button>
            ) : null}
          </>
        ) : null}
        {authView === 'fetchingNonce' ? <StatusPanel message={t('login:signIn.preparing')} cancelLabel={cancelLabel} onCancel={cancel} /> : null}
        {authView === 'signingMessage' ? <StatusPanel message={t('login:signIn.busy')} detail={t('login:signIn.free')} cancelLabel={cancelLabel} onCancel={cancel} /> : null}
        {authView === 'verifying' ? <StatusPanel message={t('login:signIn.verifying')} cancelLabel={cancelLabel} onCancel={cancel} /> : null}
      </div>
    </Screen>
  );
}
