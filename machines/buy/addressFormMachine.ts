/**
 * Adding and editing a shipping address (spec: /buy/shipping-address/add and /edit/:deliveryId; docs/API.md "Buy flow and
 * shipping addresses"): name, mobile number, region (the picker's 'province / city / district'), detail and the
 * default switch. Each field is checked as typed by the contract's own rule (api-schema/address.ts) and shows its
 * problem once touched or after a save attempt; only a form whose every field passes is sent. The server's refusals:
 * 1001 names the field when it can, 3002 is the 21st address, 4004 an address that is gone (edit). Leaving with
 * unsaved changes asks first, so the page wires the browser's back button to `user.leave`. A +country number other
 * than China's needs libphonenumber's rules, which the page loads when one is typed (`phoneRules.loaded`).
 */
import { assign, fromPromise, setup } from 'xstate';
import { ApiCode } from '../../api-schema/codes';
import type { ErrorInfo } from '../shared/errorInfo';
import { notProvided, toErrorInfo } from '../shared/errorInfo';
import { apiError, codeIn, type AddressField, type DeliveryAddress } from './buyContract';
import { allTouched, blankAddressForm, fieldNamed, formOf, isFormChanged, isFormValid, untouched } from './addressFields';
import type { AddressForm, InternationalPhoneCheck, SaveAddressAnswer, SaveAddressInput, TouchedFields } from './addressFields';

export type { SaveAddressAnswer, SaveAddressInput } from './addressFields';

export type AddressFormInput = { mode: 'add' } | { mode: 'edit'; address: DeliveryAddress };

export interface AddressFormContext {
  /** The address being edited; null when adding. */
  original: DeliveryAddress | null;
  form: AddressForm;
  touched: TouchedFields;
  /** The field the server refused (a 1001 naming it), until the member changes it. */
  refusedField: AddressField | null;
  saved: DeliveryAddress | null;
  error: ErrorInfo | null;
  /** The +country number check, once the page loaded it for such a number; a +country number fails until then. */
  internationalPhone: InternationalPhoneCheck | null;
  /**
   * The save under way's request id: fixed when a save starts from the form and kept by its retries, so an add
   * whose answer was lost is not added twice (deliveryAdd at most once per id). A new save from the form, a new id.
   */
  requestId: string | null;
}

export type AddressFormEvent =
  | { type: 'field.change'; field: AddressField; value: string }
  | { type: 'field.blur'; field: AddressField }
  | { type: 'field.setDefault'; isDefault: boolean }
  | { type: 'user.save'; requestId: string }
  | { type: 'user.retry' }
  | { type: 'user.edit' }
  | { type: 'user.leave' }
  | { type: 'user.stay' }
  | { type: 'user.discard' }
  | { type: 'phoneRules.loaded'; check: InternationalPhoneCheck };

const answered = ({ event }: { event: { output: SaveAddressAnswer } }) => ({ code: event.output.code });
const startForm = (context: AddressFormContext) => (context.original ? formOf(context.original) : blankAddressForm);
const leaving = () => [
  { guard: 'isDirty' as const, target: 'confirmingLeave' as const, description: 'addressForm.editing:user.leave[isDirty]' },
  { target: 'left' as const },
];

export const addressFormMachine = setup({
  types: {
    context: {} as AddressFormContext,
    events: {} as AddressFormEvent,
    input: {} as AddressFormInput,
    output: {} as DeliveryAddress | null,
  },
  actors: {
    /** deliveryAdd (no deliveryId) or deliveryEdit; resolves with the envelope and never needs to throw. */
    saveAddress: fromPromise<SaveAddressAnswer, SaveAddressInput>(async () => notProvided('addressForm', 'saveAddress')),
  },
  actions: {
    assignField: assign(({ context }, params: { field: AddressField; value: string }) => ({
      form: { ...context.form, [params.field]: params.value },
      touched: { ...context.touched, [params.field]: true },
      refusedField: context.refusedField === params.field ? null : context.refusedField,
      error: null,
    })),
    touchField: assign(({ context }, params: { field: AddressField }) => ({ touched: { ...context.touched, [params.field]: true } })),
    assignDefault: assign(({ context }, params: { isDefault: boolean }) => ({ form: { ...context.form, isDefault: params.isDefault }, error: null })),
    touchAll: assign({ touched: allTouched }),
    assignSaved: assign((_, params: { saved: DeliveryAddress | null }) => ({ saved: params.saved, error: null })),
    assignRefusedField: assign((_, params: { field: string | null | undefined }) => ({
      refusedField: fieldNamed(params.field),
      touched: allTouched,
      error: apiError(ApiCode.invalidParameters),
    })),
    assignFailure: assign((_, params: { code: number }) => ({ error: apiError(params.code) })),
    assignThrown: assign((_, params: { error: unknown }) => ({ error: toErrorInfo(params.error) })),
    clearError: assign({ error: null }),
    assignRequestId: assign((_, params: { requestId: string }) => ({ requestId: params.requestId })),
    clearRequestId: assign({ requestId: null }),
    assignPhoneRules: assign((_, params: { check: InternationalPhoneCheck }) => ({ internationalPhone: params.check })),
  },
  guards: {
    isFormValid: ({ context }) => isFormValid(context.form, context.internationalPhone),
    isDirty: ({ context }) => isFormChanged(context.form, startForm(context)),
    /** docs/API.md: `isDefault: false` on the current default leaves it the default, so the switch cannot turn it off. */
    canChangeDefault: ({ context }, params: { isDefault: boolean }) => params.isDefault || !context.original?.isDefault,
    isOk: codeIn(ApiCode.ok),
    isSignedOutAnswer: codeIn(ApiCode.notSignedIn),
    isFieldRefused: codeIn(ApiCode.invalidParameters),
  },
}).createMachine({
  id: 'addressForm',
  context: ({ input }) => {
    const original = input.mode === 'edit' ? input.address : null;
    return { original, form: original ? formOf(original) : blankAddressForm, touched: untouched, refusedField: null, saved: null, error: null, internationalPhone: null, requestId: null };
  },
  output: ({ context }) => context.saved,
  on: {
    'phoneRules.loaded': {
      actions: { type: 'assignPhoneRules', params: ({ event }) => ({ check: event.check }) },
      description: 'addressForm:phoneRules.loaded',
    },
  },
  initial: 'editing',
  states: {
    editing: {
      description: 'addressForm.editing',
      entry: 'clearRequestId',
      on: {
        'field.change': { actions: { type: 'assignField', params: ({ event }) => ({ field: event.field, value: event.value }) } },
        'field.blur': { actions: { type: 'touchField', params: ({ event }) => ({ field: event.field }) } },
        'field.setDefault': {
          guard: { type: 'canChangeDefault', params: ({ event }) => ({ isDefault: event.isDefault }) },
          actions: { type: 'assignDefault', params: ({ event }) => ({ isDefault: event.isDefault }) },
        },
        'user.save': [
          {
            guard: 'isFormValid',
            target: 'saving',
            actions: { type: 'assignRequestId', params: ({ event }) => ({ requestId: event.requestId }) },
            description: 'addressForm.editing:user.save[isFormValid]',
          },
          { actions: 'touchAll', description: 'addressForm.editing:user.save' },
        ],
        'user.leave': leaving(),
      },
    },
    saving: {
      description: 'addressForm.saving',
      tags: 'busy',
      invoke: {
        id: 'saveAddress',
        src: 'saveAddress',
        input: ({ context }) => ({ deliveryId: context.original?.deliveryId ?? null, fields: context.form, requestId: context.requestId }),
        onDone: [
          { guard: { type: 'isOk', params: answered }, target: 'saved', actions: { type: 'assignSaved', params: ({ event }) => ({ saved: event.output.result }) } },
          {
            guard: { type: 'isSignedOutAnswer', params: answered },
            target: 'sessionEnded',
            actions: { type: 'assignFailure', params: answered },
            meta: { apiCodes: [ApiCode.notSignedIn] },
          },
          {
            guard: { type: 'isFieldRefused', params: answered },
            target: 'editing',
            actions: { type: 'assignRefusedField', params: ({ event }) => ({ field: event.output.field }) },
            meta: { apiCodes: [ApiCode.invalidParameters] },
            description: 'addressForm.saving:done.saveAddress[isFieldRefused]',
          },
          {
            target: 'failed',
            actions: { type: 'assignFailure', params: answered },
            meta: { apiCodes: [ApiCode.amountOutOfLimits, ApiCode.notFound] },
            description: 'addressForm.saving:done.saveAddress',
          },
        ],
        onError: { target: 'failed', actions: { type: 'assignThrown', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    failed: {
      description: 'addressForm.failed',
      on: {
        'user.retry': { target: 'saving', actions: 'clearError', description: 'addressForm.failed:user.retry' },
        'user.edit': { target: 'editing' },
        'user.leave': leaving(),
      },
    },
    confirmingLeave: {
      description: 'addressForm.confirmingLeave',
      on: { 'user.stay': 'editing', 'user.discard': 'left' },
    },
    saved: { type: 'final', description: 'addressForm.saved' },
    left: { type: 'final', description: 'addressForm.left' },
    sessionEnded: { type: 'final', description: 'shared.sessionEnded' },
  },
});

export type AddressFormMachine = typeof addressFormMachine;
