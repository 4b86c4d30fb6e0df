import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { useRootActors } from '../../app/RootActorsContext';
import { errorKey } from '../../app/errorKey';
import {
  selectDappParam,
  selectWalletError,
  selectWalletProviders,
  selectWalletView,
  selectWalletAddress,
  selectWrongChain,
} from '../../app/selectors';
import { ErrorText } from '../../components/ErrorText';
import { ProviderPicker } from '../../components/ProviderPicker';
import { ShortAddress } from '../../components/ShortAddress';
import { StatusPanel } from '../../components/StatusPanel';
import { isMobileBrowser } from '../../wallet/walletLinks';
import { OpenInWallet } from './OpenInWallet';

/**
 * The wallet part of the sign-in screens: connect, every wait on the wallet with what the member must do and a
 * way out, and the switch to the app's chain. Everything shown derives from the wallet machine's state.
 */
export function WalletPanel() {
  const { t } = useTranslation('common');
  const { wallet, config } = useRootActors();
  const view = useSelector(wallet, selectWalletView);
  const error = useSelector(wallet, selectWalletError);
  const providers = useSelector(wallet, selectWalletProviders);
  const address = useSelector(wallet, selectWalletAddress);
  const dappParam = useSelector(config, selectDappParam);
  const wrongChain = useSelector(wallet, (snapshot) => selectWrongChain(snapshot, dappParam));
  const chainName = dappParam?.chain.chainName ?? '';
  const location = useLocation();
  const pageUrl = new URL(`${location.pathname}${location.search}${location.hash}`, window.location.origin);
  const connect = () =>
    wallet.send(dappParam ? { type: 'user.connect', chainId: dappParam.chainId, chainParams: dappParam.chain } : { type: 'user.connect' });
  const cancel = () => wallet.send({ type: 'user.cancel' });
  const cancelLabel = t('wallet.actions.cancel');
  const errorLine = error ? <ErrorText text={t(errorKey(error), { chain: chainName })} /> : null;

  switch (view) {
    case 'idle':
    case 'noWallet':
      return (
        <div className="wallet-panel">
          {errorLine}
          {/* A phone browser without a wallet gets a way into one; a desktop browser keeps the message alone. */}
          {view === 'noWallet' && isMobileBrowser(navigator) ? <OpenInWallet page={pageUrl} /> : null}
          <Button block color="primary" size="large" shape="rounded" onClick={connect}>
            {t('wallet.actions.connect')}
          </Button>
        </div>
      );
    case 'discovering':
      return <StatusPanel message={t('wallet.prompts.discovering')} cancelLabel={cancelLabel} onCancel={cancel} />;
    case 'searching':
      return (
        <StatusPanel
          message={t('wallet.prompts.discovering')}
          detail={t('wallet.prompts.searchingDetail')}
          cancelLabel={cancelLabel}
          onCancel={cancel}
        />
      );
    case 'choosingProvider':
      return (
        <div className="wallet-panel">
          <p className="wallet-panel-title">{t('wallet.prompts.chooseWallet')}</p>
          <ProviderPicker providers={providers} onChoose={(providerId) => wallet.send({ type: 'user.chooseProvider', providerId })} />
          <Button block fill="none" shape="rounded" onClick={cancel}>
            {cancelLabel}
          </Button>
        </div>
      );
    case 'confirmInWallet':
      return <StatusPanel message={t('wallet.prompts.confirmInWallet')} cancelLabel={cancelLabel} onCancel={cancel} />;
    case 'awaitingWallet':
      return <StatusPanel message={t('wallet.prompts.openWallet')} cancelLabel={cancelLabel} onCancel={cancel} />;
    case 'switchingChain':
      return <StatusPanel message={t('wallet.prompts.switching', { chain: chainName })} cancelLabel={cancelLabel} onCancel={cancel} />;
    case 'addingChain':
      return <StatusPanel message={t('wallet.prompts.adding', { chain: chainName })} cancelLabel={cancelLabel} onCancel={cancel} />;
    case 'switchingManually':
      return (
        <StatusPanel
          message={t('wallet.prompts.switchManuallyTitle', { chain: chainName })}
          detail={t('wallet.prompts.switchManually', { chain: chainName })}
          cancelLabel={t('wallet.actions.notNow')}
          onCancel={cancel}
          waiting={false}
        />
      );
    case 'active': {
      return (
        <div className="wallet-panel">
          <div className="wallet-connected">
            <span className="wallet-dot" aria-hidden="true" />
            <span className="wallet-connected-text">
              {t('wallet.status.connected')} {address ? <ShortAddress address={address} /> : null}
            </span>
            <Button size="small" fill="none" className="wallet-disconnect" onClick={() => wallet.send({ type: 'user.disconnect' })}>
              {t('wallet.actions.disconnect')}
            </Button>
          </div>
          {errorLine}
          {wrongChain ? (
            <>
              <p className="wallet-hint">{t('wallet.status.wrongChain', { chain: chainName })}</p>
              <Button block color="primary" size="large" shape="rounded" onClick={connect}>
                {t('wallet.actions.switchChain', { chain: chainName })}
              </Button>
            </>
          ) : null}
        </div>
      );
    }
  }
}
