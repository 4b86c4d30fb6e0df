import { useActorRef, useSelector } from '@xstate/react';
import './buy.css';
import Button from 'antd-mobile/es/components/button';
import Tag from 'antd-mobile/es/components/tag';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { addressBookMachine } from '../../../machines/buy/addressBookMachine';
import {
  selectAddressBookView,
  selectAddresses,
  selectBookError,
  selectCanChoose,
  selectCanDelete,
  selectCanSetDefault,
  selectChosenId,
  selectIsBusy,
  selectTarget,
} from '../../../machines/buy/addressBookSelectors';
import { addressBookActors } from '../../actors/buyActors';
import { useRootActors } from '../../app/RootActorsContext';
import { errorKey } from '../../app/errorKey';
import { paths } from '../../app/paths';
import { ConfirmSheet } from '../../components/ConfirmSheet';
import { ErrorText } from '../../components/ErrorText';
import { ListState } from '../../components/ListState';
import { Screen } from '../shared/Screen';
import { afterSave, returnPathOf, withReturn } from './returnPath';

/**
 * /buy/shipping-address — the member's addresses, the default first and marked: make one the default, edit or delete
 * it (after confirming), add one. Opened from settlement (`?return=`), each address can also be chosen, and the
 * member goes back to settlement with it.
 */
export function Component() {
  const { t } = useTranslation(['buy', 'common']);
  const { api } = useRootActors();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const returnTo = returnPathOf(searchParams);
  const [logic] = useState(() => addressBookMachine.provide({ actors: addressBookActors(api) }));
  const book = useActorRef(logic);
  const view = useSelector(book, selectAddressBookView);
  const addresses = useSelector(book, selectAddresses);
  const busy = useSelector(book, selectIsBusy);
  const target = useSelector(book, selectTarget);
  const error = useSelector(book, selectBookError);
  const chosenId = useSelector(book, selectChosenId);
  const snapshot = useSelector(book, (state) => state);

  useEffect(() => {
    if (view === 'chosen' && chosenId && returnTo) void navigate(afterSave(returnTo, { deliveryId: chosenId }), { replace: true });
  }, [view, chosenId, returnTo, navigate]);

  const errorText = error ? t(`common:${errorKey(error)}`) : t('common:Common.unknown');
  const add = (
    <Button color="primary" block size="large" onClick={() => void navigate(withReturn(paths.shippingAddressAdd.href(), returnTo))}>
      {t('buy:book.add')}
    </Button>
  );
  const failedAction = view === 'deleteFailed' || view === 'setDefaultFailed';

  return (
    <Screen title={t('buy:book.title')} parent={returnTo ?? paths.buyList.href()}>
      {/* Outside the failed states an error is news about the list (the address to make default was gone): say so. */}
      {error && !failedAction && view !== 'loadFailed' ? <ErrorText text={errorText} /> : null}
      {view === 'loading' && addresses.length === 0 ? <ListState state="loading" loadingLabel={t('common:status.loading')} rows={3} /> : null}
      {view === 'loadFailed' ? <ListState state="error" title={errorText} retryLabel={t('common:actions.retry')} onRetry={() => book.send({ type: 'user.retry' })} /> : null}
      {view === 'empty' ? <ListState state="empty" title={t('buy:book.empty')} description={t('buy:book.emptyDescription')} action={add} /> : null}
      {addresses.length > 0 && view !== 'empty' && view !== 'loadFailed' ? (
        <>
          {failedAction ? (
            <div className="card" role="alert">
              <ErrorText text={errorText} />
              <div className="row-actions">
                <Button onClick={() => book.send({ type: 'user.retry' })}>{t('common:actions.retry')}</Button>
                <Button onClick={() => book.send({ type: 'user.cancel' })}>{t('common:actions.cancel')}</Button>
              </div>
            </div>
          ) : null}
          <ul className="address-list" aria-label={t('buy:book.title')} aria-busy={busy || undefined}>
            {addresses.map((address) => (
              <li key={address.deliveryId} className="card address-card">
                <p className="address-who">
                  <strong>{address.name}</strong> <span>{address.phone}</span>
                  {address.isDefault ? (
                    <Tag color="primary" fill="outline" className="address-default">
                      {t('buy:book.default')}
                    </Tag>
                  ) : null}
                </p>
                <p className="address-where">
                  {address.region} {address.detail}
                </p>
                <div className="row-actions">
                  {returnTo && selectCanChoose(snapshot, address.deliveryId) ? (
                    <Button color="primary" onClick={() => book.send({ type: 'user.choose', deliveryId: address.deliveryId })}>
                      {t('buy:book.choose')}
                    </Button>
                  ) : null}
                  {selectCanSetDefault(snapshot, address.deliveryId) ? (
                    <Button onClick={() => book.send({ type: 'user.setDefault', deliveryId: address.deliveryId })}>{t('buy:book.setDefault')}</Button>
                  ) : null}
                  <Button onClick={() => void navigate(withReturn(paths.shippingAddressEdit.href(address.deliveryId), returnTo))} disabled={busy}>
                    {t('buy:book.edit')}
                  </Button>
                  {selectCanDelete(snapshot, address.deliveryId) ? (
                    <Button color="danger" fill="outline" onClick={() => book.send({ type: 'user.delete', deliveryId: address.deliveryId })}>
                      {t('buy:book.delete')}
                    </Button>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
          {add}
        </>
      ) : null}
      {view === 'confirmingDelete' && target ? (
        <ConfirmSheet
          titleId="delete-title"
          title={t('buy:book.deleteTitle')}
          text={t(target.isDefault ? 'buy:book.deleteDefaultText' : 'buy:book.deleteText', { name: target.name, region: target.region })}
          keepLabel={t('common:actions.cancel')}
          confirmLabel={t('buy:book.delete')}
          closeLabel={t('common:actions.cancel')}
          onKeep={() => book.send({ type: 'user.cancel' })}
          onConfirm={() => book.send({ type: 'user.confirm' })}
        />
      ) : null}
    </Screen>
  );
}
