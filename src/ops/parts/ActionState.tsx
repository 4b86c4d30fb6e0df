import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { createOpsActionMachine } from '../../../machines/ops/opsActionMachine';
import { selectActionError, selectActionResult, selectActionView } from '../../../machines/ops/opsSelectors';
import { StatusPanel } from '../../components/StatusPanel';
import { Refused } from './Refused';

interface ActionStateProps<TRequest, TResult> {
  actor: ActorRefFrom<ReturnType<typeof createOpsActionMachine<TRequest, TResult>>>;
  busyText: string;
  /** What the answer says, once it came. */
  done: (result: TResult | null) => ReactNode;
}

/** An act's wait, refusal (with the same request again) and answer, with a way to close the answer. */
export function ActionState<TRequest, TResult>({ actor, busyText, done }: ActionStateProps<TRequest, TResult>) {
  const { t } = useTranslation('ops');
  const view = useSelector(actor, selectActionView);
  const result = useSelector(actor, selectActionResult<TRequest, TResult>);
  const error = useSelector(actor, selectActionError);
  if (view === 'running') return <StatusPanel message={busyText} />;
  if (view === 'refused') {
    return (
      <div className="desk-form">
        <Refused error={error} onRetry={() => actor.send({ type: 'user.retry' })} onLeave={() => actor.send({ type: 'user.cancel' })} leaveLabel={t('actions.close')} />
      </div>
    );
  }
  if (view === 'done') {
    return (
      <div className="desk-form" role="status">
        {done(result)}
        <div className="desk-actions">
          <Button fill="outline" shape="rounded" onClick={() => actor.send({ type: 'user.cancel' })}>
            {t('actions.close')}
          </Button>
        </div>
      </div>
    );
  }
  return null;
}
