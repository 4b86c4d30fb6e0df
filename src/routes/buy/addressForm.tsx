import { useActorRef, useSelector } from '@xstate/react';
import './buy.css';
import Button from 'antd-mobile/es/components/button';
import List from 'antd-mobile/es/components/list';
import Switch from 'antd-mobile/es/components/switch';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { addressTextLimits } from '../../../api-schema/address';
import type { DeliveryAddress } from '../../../api-schema/buy';
import { ApiCode } from '../../../api-schema/codes';
import { addressFormMachine, type AddressFormInput } from '../../../machines/buy/addressFormMachine';
import {
  selectAddressFormView,
  selectCanRetry,
  selectDefaultLocked,
  selectFieldProblem,
  selectForm,
  selectFormError,
  selectIsBusy,
  selectIsDirty,
  selectNeedsPhoneRules,
  selectSaved,
} from '../../../machines/buy/addressFormSelectors';
import type { AddressField } from '../../../machines/buy/buyContract';
import { selectResource, selectResourceError, selectResourceView } from '../../../machines/resource/resourceSelectors';
import { saveAddress } from '../../actors/buyActors';
import { fetchAddresses } from '../../api/screenCalls';
import { useRootActors } from '../../app/RootActorsContext';
import { errorKey } from '../../app/errorKey';
import { paths } from '../../app/paths';
import { ConfirmSheet } from '../../components/ConfirmSheet';
import { ErrorText } from '../../components/ErrorText';
import { FormField } from '../../components/FormField';
import { ListState } from '../../components/ListState';
import { RegionField } from '../../components/RegionField';
import { Screen } from '../shared/Screen';
import { useResource } from '../shared/useResource';
import { afterSave, returnPathOf } from './returnPath';
import { newRequestId } from '../../api/requestId';

const inputProps: Record<Exclude<AddressField, 'region'>, { autoComplete: string; inputMode?: 'tel' | 'text'; type?: string }> = {
  name: { autoComplete: 'name' },
  // A phone keyboard, and the browser's own number offered.
  phone: { autoComplete: 'tel', inputMode: 'tel', type: 'tel' },
  detail: { autoComplete: 'street-address' },
};

/** The form for one address (or a new one), on the address form machine. */
function AddressFormView({ input, returnTo }: { input: AddressFormInput; returnTo: string | null }) {
  const { t } = useTranslation(['buy', 'common']);
  const { api } = useRootActors();
  const navigate = useNavigate();
  const [logic] = useState(() => addressFormMachine.provide({ actors: { saveAddress: saveAddress(api) } }));
  const form = useActorRef(logic, { input });
  const view = useSelector(form, selectAddressFormView);
  const values = useSelector(form, selectForm);
  const busy = useSelector(form, selectIsBusy);
  // The fields take changes only while editing: saving and a failed save wait for retry or "change the address".
  const editable = useSelector(form, (snapshot) => snapshot.can({ type: 'field.change', field: 'name', value: '' }));
  const dirty = useSelector(form, selectIsDirty);
  const defaultLocked = useSelector(form, selectDefaultLocked);
  const error = useSelector(form, selectFormError);
  const canRetry = useSelector(form, selectCanRetry);
  const canEdit = useSelector(form, (snapshot) => snapshot.can({ type: 'user.edit' }));
  const saved = useSelector(form, selectSaved);
  const needsPhoneRules = useSelector(form, selectNeedsPhoneRules);
  const problems = useSelector(form, (snapshot) => ({
    name: selectFieldProblem(snapshot, 'name'),
    phone: selectFieldProblem(snapshot, 'phone'),
    region: selectFieldProblem(snapshot, 'region'),
    detail: selectFieldProblem(snapshot, 'detail'),
  }), (a, b) => a.name === b.name && a.phone === b.phone && a.region === b.region && a.detail === b.detail);

  // A +country number's rules (libphonenumber-js, ~27 KiB) load only when one is typed: most members never need them.
  useEffect(() => {
    if (!needsPhoneRules) return;
    let live = true;
    import('../../../api-schema/internationalPhone')
      .then(({ isValidInternationalNumber }) => {
        if (live) form.send({ type: 'phoneRules.loaded', check: isValidInternationalNumber });
      })
      // Not loaded (offline): the number stays unchecked, so it is not saved; the next +number typed tries again.
      .catch((error: unknown) => console.error('phone rules not loaded', error));
    return () => {
      live = false;
    };
  }, [needsPhoneRules, form]);

  // Leaving (the back arrow, the browser's back button) goes through the machine: with unsaved changes it asks.
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && view !== 'saved' && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (blocker.state === 'blocked') form.send({ type: 'user.leave' });
  }, [blocker.state, form]);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    // The machine's state now, not this render's: in the render that blocked, the effect above has just sent
    // user.leave, and this render's 'editing' would let the navigation go before the member answered.
    const now = form.getSnapshot().value;
    if (now === 'left') blocker.proceed();
    else if (now === 'editing' || now === 'failed') blocker.reset();
  }, [blocker, view, form]);
  useEffect(() => {
    if (view === 'saved' && saved) void navigate(afterSave(returnTo, saved), { replace: true });
  }, [view, saved, navigate, returnTo]);

  const problemText = (field: AddressField) => {
    const problem = problems[field];
    if (!problem) return null;
    return t(`buy:address.problems.${problem}`, { field: t(`buy:address.fields.${field}`), max: field === 'phone' ? 0 : addressTextLimits[field] });
  };
  const change = (field: AddressField) => (value: string) => form.send({ type: 'field.change', field, value });
  const textField = (field: Exclude<AddressField, 'region'>) => (
    <FormField
      id={`address-${field}`}
      label={t(`buy:address.fields.${field}`)}
      value={values[field]}
      error={problemText(field)}
      hint={field === 'phone' ? t('buy:address.phoneHint') : undefined}
      disabled={!editable}
      {...inputProps[field]}
      onChange={(event) => change(field)(event.target.value)}
      onBlur={() => form.send({ type: 'field.blur', field })}
    />
  );

  return (
    <form
      className="address-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        form.send({ type: 'user.save', requestId: newRequestId() });
      }}
    >
      {textField('name')}
      {textField('phone')}
      <RegionField
        id="address-region"
        label={t('buy:address.fields.region')}
        value={values.region}
        placeholder={t('buy:address.regionPlaceholder')}
        texts={{ title: t('buy:address.regionTitle'), confirm: t('common:actions.confirm'), cancel: t('common:actions.cancel'), choose: t('buy:address.regionChoose') }}
        error={problemText('region')}
        disabled={!editable}
        onChange={change('region')}
        onClose={() => form.send({ type: 'field.blur', field: 'region' })}
      />
      {textField('detail')}
      <List mode="card" className="form-list">
        <List.Item
          extra={
            <Switch
              checked={values.isDefault}
              disabled={!editable || defaultLocked}
              aria-label={t('buy:address.fields.isDefault')}
              onChange={(isDefault) => form.send({ type: 'field.setDefault', isDefault })}
            />
          }
          description={defaultLocked ? t('buy:address.defaultLocked') : undefined}
        >
          {t('buy:address.fields.isDefault')}
        </List.Item>
      </List>
      {error ? (
        <div className="card" role="alert">
          <ErrorText text={error.code === ApiCode.amountOutOfLimits ? t('buy:address.tooMany') : t(`common:${errorKey(error)}`)} />
          {canRetry || canEdit ? (
            <div className="row-actions">
              {canRetry ? <Button onClick={() => form.send({ type: 'user.retry' })}>{t('common:actions.retry')}</Button> : null}
              {canEdit ? <Button onClick={() => form.send({ type: 'user.edit' })}>{t('buy:address.edit')}</Button> : null}
            </div>
          ) : null}
        </div>
      ) : null}
      {/* The loading text keeps the button's name while saving (antd-mobile shows only its dots otherwise). */}
      <Button type="submit" color="primary" block size="large" loading={busy} loadingText={t('buy:address.save')} disabled={busy}>
        {t('buy:address.save')}
      </Button>
      {view === 'confirmingLeave' ? (
        <ConfirmSheet
          titleId="leave-title"
          title={t('buy:address.leaveTitle')}
          text={t('buy:address.leaveText')}
          keepLabel={t('buy:address.stay')}
          confirmLabel={t('buy:address.discard')}
          closeLabel={t('common:actions.cancel')}
          onKeep={() => form.send({ type: 'user.stay' })}
          onConfirm={() => form.send({ type: 'user.discard' })}
        />
      ) : null}
    </form>
  );
}

/** /buy/shipping-address/add — a new address; `?return=` brings the member back (to settlement) with it chosen. */
export function AddAddressPage() {
  const { t } = useTranslation(['buy']);
  const [searchParams] = useSearchParams();
  return (
    <Screen title={t('buy:address.addTitle')} parent={paths.shippingAddress.href()}>
      <AddressFormView input={{ mode: 'add' }} returnTo={returnPathOf(searchParams)} />
    </Screen>
  );
}

/**
 * /buy/shipping-address/edit/:deliveryId — one of the member's addresses; anyone else's is "not found". Keyed by the
 * id, as the announcement's page: another address's edit page loads that one.
 */
export function EditAddressPage() {
  const { deliveryId = '' } = useParams();
  return <EditAddress key={deliveryId} deliveryId={deliveryId} />;
}

function EditAddress({ deliveryId }: { deliveryId: string }) {
  const { t } = useTranslation(['buy', 'common']);
  const { api } = useRootActors();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const address = useResource<DeliveryAddress, { deliveryId: string }>(async (query) => {
    const answer = await fetchAddresses(api);
    if (answer.code !== ApiCode.ok || !answer.result) return { code: answer.code, result: null };
    const found = answer.result.list.find((item) => item.deliveryId === query.deliveryId);
    return found ? { code: ApiCode.ok, result: found } : { code: ApiCode.notFound, result: null };
  }, { deliveryId });
  const view = useSelector(address, selectResourceView);
  const loaded = useSelector(address, selectResource<DeliveryAddress, { deliveryId: string }>);
  const error = useSelector(address, selectResourceError);
  return (
    <Screen title={t('buy:address.editTitle')} parent={paths.shippingAddress.href()}>
      {view === 'loading' ? <ListState state="loading" loadingLabel={t('common:status.loading')} rows={4} /> : null}
      {view === 'notFound' ? (
        <ListState
          state="empty"
          title={t('buy:address.notFound')}
          description={t('buy:address.notFoundDescription')}
          action={<Button onClick={() => void navigate(paths.shippingAddress.href(), { replace: true })}>{t('buy:book.title')}</Button>}
        />
      ) : null}
      {view === 'failed' ? (
        <ListState
          state="error"
          title={error ? t(`common:${errorKey(error)}`) : t('common:Common.unknown')}
          retryLabel={t('common:actions.retry')}
          onRetry={() => address.send({ type: 'user.retry' })}
        />
      ) : null}
      {view === 'loaded' && loaded ? <AddressFormView input={{ mode: 'edit', address: loaded }} returnTo={returnPathOf(searchParams)} /> : null}
    </Screen>
  );
}
