/**
 * The frame every money flow's sheet shares, made once per flow by createMoneyFlowSheet at the top of the sheet's
 * module (the one place a flow's actor context lives): the bottom sheet with the flow's title and close label; the
 * flow's Provider, given the machine with the real submit actor and the profile refresh once money moved, as soon
 * as the sheet's input is ready (a skeleton until then, or what failed to load instead); the skeleton's steps
 * (MoneyFlowSteps) around the flow's own form, summary and receipt; and the flow's form with its Next button,
 * which asks the machine whether the summary may open.
 */
import { createActorContext } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import type { ComponentType, FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { PromiseActorLogic } from 'xstate';
import type { Answer } from '../../../machines/shared/answer';
import type { createMoneyFlowMachine, SubmitInput } from '../../../machines/shared/moneyFlow';
import type { ApiClient } from '../../api/client';
import { useRootActors } from '../../app/RootActorsContext';
import { BottomSheet } from '../../components/BottomSheet';
import { ListState } from '../../components/ListState';
import { useLocale } from '../../i18n/useLocale';
import { MoneyFlowSteps, type MoneyFlowActor } from './MoneyFlowSteps';

/** A machine made by createMoneyFlowMachine. */
export type MoneyFlowMachine<TInput, TBody, TResult> = ReturnType<typeof createMoneyFlowMachine<TInput, TBody, TResult>>;

export interface MoneyFlowSheetSpec<TInput, TBody, TResult> {
  machine: MoneyFlowMachine<TInput, TBody, TResult>;
  /** The real submit actor (src/actors/*Actors.ts), given the app's API client. */
  submit: (api: ApiClient) => PromiseActorLogic<Answer<TResult>, SubmitInput<TBody>>;
  /** The flow's text keys' prefix, e.g. `wpos:transfer` (every step's texts; its namespace is the parts' too). */
  texts: string;
}

export interface MoneyFlowSheetProps<TInput> {
  /** What the flow starts from (limits, balances, a list), or null while it loads. */
  input: TInput | null;
  /** Shown instead of the flow when what it starts from failed to load (an error with a retry). */
  failure?: ReactNode;
  onClose: () => void;
  /** The flow's form (editing): its fields in MoneyFlowForm. */
  Form: ComponentType;
  /** What the member confirms (a SummaryList). */
  Summary: ComponentType;
  /** What moved, from the answer (a SummaryList). */
  Receipt: ComponentType;
  /** The receipt's second way on (e.g. the records). */
  next?: { label: string; onClick: () => void } | undefined;
}

/** What a flow's parts read the texts with: `t` (the flow's namespace and common) and the locale of numbers. */
export interface MoneyFlowText {
  t: TFunction;
  locale: string;
}

/**
 * A money flow's sheet and the hooks its parts read the flow with.
 *
 * @param spec - the flow's machine, its submit actor and its texts' prefix
 * @returns `Sheet` (renders the frame and owns the actor: it starts when the sheet opens with its input and stops
 *   when it closes), `useSelector` and `useActorRef` (the flow's actor, for the parts inside Sheet), `useText`
 * @example
 * const withdrawFlow = createMoneyFlowSheet({ machine: withdrawMachine, submit: submitWithdrawal, texts: 'credit:withdraw' });
 * // <withdrawFlow.Sheet input={input} onClose={onClose} Form={AmountForm} Summary={Summary} Receipt={Receipt} />
 */
export function createMoneyFlowSheet<TInput, TBody, TResult>({ machine, submit, texts }: MoneyFlowSheetSpec<TInput, TBody, TResult>) {
  const FlowContext = createActorContext(machine);
  const namespace = texts.slice(0, texts.indexOf(':'));
  const titleId = `${texts.slice(texts.indexOf(':') + 1)}-title`;

  function useText(): MoneyFlowText {
    const { t } = useTranslation([namespace, 'common']);
    return { t, locale: useLocale() };
  }

  function Steps({ onClose, Form, Summary, Receipt, next }: Omit<MoneyFlowSheetProps<TInput>, 'input' | 'failure'>) {
    const actor: MoneyFlowActor = FlowContext.useActorRef();
    return <MoneyFlowSteps actor={actor} texts={texts} Form={Form} Summary={Summary} Receipt={Receipt} onClose={onClose} next={next} />;
  }

  function Sheet({ input, failure, ...steps }: MoneyFlowSheetProps<TInput>) {
    const { t } = useTranslation();
    const { api, auth } = useRootActors();
    const flow = input ? (
      <FlowContext.Provider
        logic={machine.provide({
          actors: { submit: submit(api) },
          actions: { reportDone: () => auth.send({ type: 'app.refreshProfile' }) },
        })}
        options={{ input }}
      >
        <Steps {...steps} />
      </FlowContext.Provider>
    ) : null;
    return (
      <BottomSheet titleId={titleId} title={t(`${texts}.title`)} closeLabel={t(`${texts}.close`)} onClose={steps.onClose}>
        {failure ?? flow ?? <ListState state="loading" loadingLabel={t(`${texts}.loading`)} rows={3} />}
      </BottomSheet>
    );
  }

  return { Sheet, useSelector: FlowContext.useSelector, useActorRef: FlowContext.useActorRef, useText };
}

interface MoneyFlowFormProps {
  actor: MoneyFlowActor;
  /** The machine's answer to user.submit (selectCanSubmit). */
  canSubmit: boolean;
  nextLabel: string;
  children: ReactNode;
}

/** A flow's form: its fields, then Next, which sends user.submit (the machine's guard decides). */
export function MoneyFlowForm({ actor, canSubmit, nextLabel, children }: MoneyFlowFormProps) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    actor.send({ type: 'user.submit' });
  };
  return (
    <form onSubmit={submit} noValidate className="form">
      {children}
      <div className="form-actions">
        <Button type="submit" block color="primary" size="large" shape="rounded" disabled={!canSubmit}>
          {nextLabel}
        </Button>
      </div>
    </form>
  );
}
