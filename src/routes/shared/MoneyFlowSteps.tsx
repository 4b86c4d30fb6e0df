/**
 * A money flow's sheet body, for any instance of the skeleton (machines/shared/moneyFlow.ts): the flow's own form
 * while editing, then the shared steps (src/components/moneyFlow/FlowSteps.tsx) bound to the machine. Texts come
 * from the flow's namespace prefix (`credit:withdraw` → `credit:withdraw.confirm.title`, ...), so every flow has the
 * same keys; what the member may do is asked of the machine (snapshot.can).
 */
import { useSelector } from '@xstate/react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRef, Snapshot } from 'xstate';
import type { MoneyFlowEvent } from '../../../machines/shared/moneyFlow';
import {
  selectCanCancel,
  selectCanRetry,
  selectFlowError,
  selectFlowView,
  type MoneyFlowSnapshot,
} from '../../../machines/shared/moneyFlowSelectors';
import { errorKey } from '../../app/errorKey';
import { ErrorText } from '../../components/ErrorText';
import { FlowDone, FlowRetry, FlowSummary, FlowWaiting } from '../../components/moneyFlow/FlowSteps';
import { newRequestId } from '../../api/requestId';

export type MoneyFlowActor = ActorRef<Snapshot<unknown> & MoneyFlowSnapshot, MoneyFlowEvent>;

export interface MoneyFlowStepsProps {
  actor: MoneyFlowActor;
  /** The flow's text keys' prefix, e.g. `credit:withdraw`. */
  texts: string;
  /** The flow's form (editing). */
  Form: ComponentType;
  /** What the member confirms (a SummaryList). */
  Summary: ComponentType;
  /** What moved, from the answer (a SummaryList). */
  Receipt: ComponentType;
  onClose: () => void;
  /** The receipt's second way on (e.g. the records). */
  next?: { label: string; onClick: () => void } | undefined;
}

export function MoneyFlowSteps({ actor, texts, Form, Summary, Receipt, onClose, next }: MoneyFlowStepsProps) {
  const { t } = useTranslation();
  const view = useSelector(actor, selectFlowView);
  const error = useSelector(actor, selectFlowError);
  const canRetry = useSelector(actor, selectCanRetry);
  const canCancel = useSelector(actor, selectCanCancel);
  const key = (name: string) => `${texts}.${name}`;
  switch (view) {
    case 'editing':
      return <Form />;
    case 'confirming':
      return (
        <FlowSummary
          lead={t(key('confirm.title'))}
          confirmLabel={t(key('confirm.submit'))}
          editLabel={t(key('confirm.edit'))}
          onConfirm={() => actor.send({ type: 'user.confirm', requestId: newRequestId() })}
          onEdit={() => actor.send({ type: 'user.edit' })}
        >
          <Summary />
        </FlowSummary>
      );
    case 'submitting':
      return (
        <FlowWaiting
          message={t(key('submitting.message'))}
          cancelLabel={t(key('submitting.cancel'))}
          onCancel={canCancel ? () => actor.send({ type: 'user.cancel' }) : undefined}
        />
      );
    case 'interrupted':
    case 'failed': {
      const interrupted = view === 'interrupted';
      return (
        <FlowRetry
          interrupted={interrupted}
          message={interrupted ? t(key('interrupted.message')) : t(`common:${error ? errorKey(error) : 'Common.unknown'}`)}
          detail={t(key(interrupted ? 'interrupted.detail' : 'failed.detail'))}
          retryLabel={t(key(interrupted ? 'interrupted.retry' : 'failed.retry'))}
          closeLabel={t(key('close'))}
          canRetry={canRetry}
          onRetry={() => actor.send({ type: 'user.retry' })}
          onClose={onClose}
        />
      );
    }
    case 'done':
      return (
        <FlowDone title={t(key('done.title'))} detail={t(key('done.detail'))} closeLabel={t(key('done.close'))} onClose={onClose} secondary={next}>
          <Receipt />
        </FlowDone>
      );
    case 'sessionEnded':
      // 1002: the app's auth machine has ended the session and the member area goes to sign-in.
      return <ErrorText text={t('common:Common.1002')} />;
  }
}
