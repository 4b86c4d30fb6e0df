import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import { InformationCircleOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router-dom';
import { useRootActors } from '../app/RootActorsContext';
import { errorKey } from '../app/errorKey';
import { paths } from '../app/paths';
import {
  sameSignInTarget,
  selectAuthAcceptsSignIn,
  selectAuthError,
  selectAuthView,
  selectConfigFailed,
  selectDappParam,
  selectSignInRedirect,
  selectSignInTarget,
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
  // Each value on its own selector: the page renders again only when one of them changes, not on every step of
  // the wallet or auth machine (the wallet panel follows the wallet itself). On a phone's start-up each render of
  // the whole page is a long task (bench/lighthouse.ts).
  const authView = useSelector(auth, selectAuthView);
  const authError = useSelector(auth, selectAuthError);
  const redirect = useSelector(auth, selectSignInRedirect);
  const dappParam = useSelector(config, selectDappParam);
  const configFailed = useSelector(config, selectConfigFailed);
  const walletError = useSelector(wallet, selectWalletError);
  const target = useSelector(wallet, (snapshot) => selectSignInTarget(snapshot, dappParam), sameSignInTarget);
  const canSignIn = useSelector(auth, (snapshot) => selectAuthAcceptsSignIn(snapshot, target));

  if (redirect === 'returnPath') return <Navigate to={returnPath} replace />;
  if (redirect === 'register') return <Navigate to={paths.register.href(inviteCode)} replace state={{ from: returnPath }} />;

  const cancel = () => auth.send({ type: 'user.cancel' });
  const cancelLabel = t('common:wallet.actions.cancel');
  const signIn = () => {
    if (target) auth.send({ type: 'user.signIn', ...target, inviteCode: inviteCode ?? null });
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
