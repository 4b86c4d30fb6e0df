import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { selectOpsSessionError, selectOpsSessionView } from '../../machines/ops/opsSelectors';
import { BrandMark } from '../components/BrandMark';
import { ErrorText } from '../components/ErrorText';
import { StatusPanel } from '../components/StatusPanel';
import { useDesk } from './DeskContext';
import { useDeskChain } from './deskChain';
import { deskErrorText } from './deskErrors';
import { DeskWallet } from './DeskWallet';

/**
 * The desk's sign-in: connect the operator's own wallet, then sign the desk's message. Only an operator's address
 * gets in (1006 otherwise); the token is the desk's own.
 */
export function SignIn() {
  const { t, i18n } = useTranslation('ops');
  const { session, wallet } = useDesk();
  const view = useSelector(session, selectOpsSessionView);
  const error = useSelector(session, selectOpsSessionError);
  const chain = useDeskChain();
  const target = useSelector(wallet, (snapshot) => {
    const address = snapshot.context.accounts[0];
    const chainId = snapshot.context.chainId;
    if (!snapshot.matches('active') || !address || chainId === null || (chain !== null && chainId !== chain.chainId)) return null;
    return `${address}|${String(chainId)}`;
  });
  const canSignIn = useSelector(session, (snapshot) => target !== null && snapshot.can({ type: 'user.signIn', address: '', chainId: 0 }));
  const signIn = () => {
    if (!target) return;
    const [address = '', chainId = '0'] = target.split('|');
    session.send({ type: 'user.signIn', address, chainId: Number(chainId) });
  };
  const cancel = () => session.send({ type: 'user.cancel' });
  const cancelLabel = t('common:wallet.actions.cancel');
  return (
    <div className="desk-signin">
      <div className="hero">
        <BrandMark size={56} />
        <h2 className="hero-name">{t('signIn.title')}</h2>
        <p className="hero-lead">{t('signIn.lead')}</p>
      </div>
      <div className="card">
        {view === 'signedOut' ? (
          <>
            <DeskWallet />
            {error ? <ErrorText text={deskErrorText(t, (key) => i18n.exists(key), error)} /> : null}
            {canSignIn ? (
              <Button block color="primary" size="large" shape="rounded" onClick={signIn}>
                {t('signIn.action')}
              </Button>
            ) : null}
          </>
        ) : null}
        {view === 'checking' ? <StatusPanel message={t('signIn.checking')} /> : null}
        {view === 'checkFailed' ? (
          <>
            <ErrorText text={deskErrorText(t, (key) => i18n.exists(key), error)} />
            <Button block color="primary" shape="rounded" onClick={() => session.send({ type: 'user.retry' })}>
              {t('common:actions.retry')}
            </Button>
            <Button block fill="none" shape="rounded" onClick={() => session.send({ type: 'user.signOut' })}>
              {t('shell.signOut')}
            </Button>
          </>
        ) : null}
        {view === 'fetchingNonce' ? <StatusPanel message={t('signIn.preparing')} cancelLabel={cancelLabel} onCancel={cancel} /> : null}
        {view === 'signingMessage' ? <StatusPanel message={t('signIn.signing')} detail={t('signIn.free')} cancelLabel={cancelLabel} onCancel={cancel} /> : null}
        {view === 'verifying' ? <StatusPanel message={t('signIn.verifying')} cancelLabel={cancelLabel} onCancel={cancel} /> : null}
        {view === 'signingOut' ? <StatusPanel message={t('shell.signingOut')} /> : null}
      </div>
    </div>
  );
}
