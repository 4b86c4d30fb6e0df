import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { CopyFeedback } from '../../components/CopyFeedback';
import { WALLET_LINKS } from '../../wallet/walletLinks';
import { useCopy } from './useCopy';

interface OpenInWalletProps {
  /** The page to open in the wallet, invite code and all: normally window.location. */
  page: URL;
}

/**
 * For a phone browser without a wallet: open this same page in a wallet app's own browser (where the wallet
 * injects its provider), or copy the link to paste there. Plain links, so the phone hands them to the wallet app.
 */
export function OpenInWallet({ page }: OpenInWalletProps) {
  const { t } = useTranslation('common');
  const { copy, feedback } = useCopy();
  return (
    <section className="open-in-wallet" aria-labelledby="open-in-wallet-title">
      <h2 id="open-in-wallet-title" className="wallet-panel-title">
        {t('wallet.openIn.title')}
      </h2>
      <p className="wallet-hint">{t('wallet.openIn.detail')}</p>
      <ul className="wallet-link-list">
        {WALLET_LINKS.map((wallet) => (
          <li key={wallet.id}>
            <a className="wallet-link" href={wallet.href(page)} data-wallet={wallet.id} rel="noopener noreferrer">
              {wallet.name}
            </a>
          </li>
        ))}
      </ul>
      <Button block fill="outline" color="primary" shape="rounded" onClick={() => copy('pageLink', page.href)}>
        {t('wallet.openIn.copyLink')}
      </Button>
      <CopyFeedback feedback={feedback('pageLink', t('wallet.openIn.copied'))} />
    </section>
  );
}
