import { useActorRef, useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Address } from 'viem';
import { fromPromise } from 'xstate';
import { watchAssetMachine } from '../../../machines/wallet/watchAssetMachine';
import { selectCanAddAsset, selectWatchAssetError, selectWatchAssetStep } from '../../../machines/wallet/watchAssetSelectors';
import { useRootActors } from '../../app/RootActorsContext';
import { errorKey } from '../../app/errorKey';
import { AddressLink } from '../../components/AddressLink';
import { ErrorText } from '../../components/ErrorText';
import { SummaryList } from '../../components/SummaryList';

/** wallet_watchAsset through viem loads when the member taps, never with the sheet. */
const loadWatchToken = () => import('../../wallet/watchToken');

interface TokenInWalletProps {
  token: { address: string; symbol: string; decimals: number };
  /** Where a top-up goes; left out where no money goes there (a withdrawal is paid from the payer's wallet). */
  treasury?: string | undefined;
  explorer: string | undefined;
}

/**
 * The app's token in the member's wallet: its contract and, for a top-up, the treasury, linked to the
 * block explorer so a careful member can check where the money goes; and "add to wallet", as the watchAsset machine
 * says, since a wallet does not list a token it was not told about. The flow lives as long as this part.
 */
export function TokenInWallet({ token, treasury, explorer }: TokenInWalletProps) {
  const { t } = useTranslation(['credit', 'common']);
  const { walletProvider } = useRootActors();
  const [logic] = useState(() =>
    watchAssetMachine.provide({
      actors: {
        watchAsset: fromPromise<boolean>(async () =>
          (await loadWatchToken()).watchToken(walletProvider(), { address: token.address as Address, symbol: token.symbol, decimals: token.decimals }),
        ),
      },
    }),
  );
  const actor = useActorRef(logic);
  const step = useSelector(actor, selectWatchAssetStep);
  const canAdd = useSelector(actor, selectCanAddAsset);
  const error = useSelector(actor, selectWatchAssetError);
  const { symbol } = token;
  const title = t('credit:token.title', { symbol });
  return (
    <section className="token-in-wallet" aria-label={title}>
      <SummaryList
        label={title}
        rows={[
          { label: t('credit:token.contract', { symbol }), value: <AddressLink label={t('credit:token.contract', { symbol })} address={token.address} explorer={explorer} /> },
          ...(treasury ? [{ label: t('credit:token.treasury'), value: <AddressLink label={t('credit:token.treasury')} address={treasury} explorer={explorer} /> }] : []),
        ]}
      />
      {step === 'added' ? (
        <p role="status" className="flow-next">
          {t('credit:token.added', { symbol })}
        </p>
      ) : null}
      {step === 'declined' ? <ErrorText text={t('credit:token.declined', { symbol })} /> : null}
      {step === 'unsupported' ? <ErrorText text={t('credit:token.unsupported', { symbol })} /> : null}
      {step === 'failed' && error ? <ErrorText text={t(`common:${errorKey(error)}`)} /> : null}
      {canAdd || step === 'adding' ? (
        <Button block fill="outline" shape="rounded" loading={step === 'adding'} disabled={!canAdd} onClick={() => actor.send({ type: 'user.add' })}>
          {t('credit:token.add', { symbol })}
        </Button>
      ) : null}
    </section>
  );
}
