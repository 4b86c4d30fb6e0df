import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { errorKey } from '../app/errorKey';
import { selectWalletAddress, selectWalletError, selectWalletProviders, selectWalletView } from '../app/selectors';
import { ErrorText } from '../components/ErrorText';
import { ProviderPicker } from '../components/ProviderPicker';
import { ShortAddress } from '../components/ShortAddress';
import { StatusPanel } from '../components/StatusPanel';
import { useDesk } from './DeskContext';
import { useDeskChain } from './deskChain';

/**
 * The wallet part of the desk's sign-in: the member app's wallet machine and texts (common: wallet.*), connected
 * to the app's chain from the app config, every wait with a way out.
 */
export function DeskWallet() {
  const { t } = useTranslation('common');
  const { wallet } = useDesk();
  const view = useSelector(wallet, selectWalletView);
  const error = useSelector(wallet, selectWalletError);
  const providers = useSelector(wallet, selectWalletProviders);
  const address = useSelector(wallet, selectWalletAddress);
  const chain = useDeskChain();
  const chainName = chain?.chain.chainName ?? '';
  const wrongChain = useSelector(wallet, (snapshot) => chain !== null && snapshot.matches('active') && snapshot.context.chainId !== chain.chainId);
  const connect = () => wallet.send(chain ? { type: 'user.connect', chainId: chain.chainId, chainParams: chain.chain } : { type: 'user.connect' });
  const cancel = () => wallet.send({ type: 'user.cancel' });
  const cancelLabel = t('wallet.actions.cancel');
  const errorLine = error ? <ErrorText text={t(errorKey(error), { chain: chainName })} /> : null;
  switch (view) {
    case 'idle':
    case 'noWallet':
      return (
        <div className="wallet-panel">
          {errorLine}
          <Button block color="primary" size="large" shape="rounded" onClick={connect}>
            {t('wallet.actions.connect')}
          </Button>
        </div>
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
    case 'active':
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
            <Button block color="primary" size="large" shape="rounded" onClick={connect}>
              {t('wallet.actions.switchChain', { chain: chainName })}
            </Button>
          ) : null}
        </div>
      );
    case 'switchingChain':
      return <StatusPanel message={t('wallet.prompts.switching', { chain: chainName })} cancelLabel={cancelLabel} onCancel={cancel} />;
    case 'addingChain':
      return <StatusPanel message={t('wallet.prompts.adding', { chain: chainName })} cancelLabel={cancelLabel} onCancel={cancel} />;
    case 'awaitingWallet':
      return <StatusPanel message={t('wallet.prompts.openWallet')} cancelLabel={cancelLabel} onCancel={cancel} />;
    case 'discovering':
    case 'searching':
      return <StatusPanel message={t('wallet.prompts.discovering')} cancelLabel={cancelLabel} onCancel={cancel} />;
    case 'confirmInWallet':
      return <StatusPanel message={t('wallet.prompts.confirmInWallet')} cancelLabel={cancelLabel} onCancel={cancel} />;
  }
}
