/**
 * The frame every money flow's sheet shares: the bottom sheet with the flow's title and close label, the flow once
 * what it starts from is ready (its Provider, given by the sheet), a skeleton until then, or what failed to load
 * instead; and the flow's form with its Next button, which asks the machine whether the summary may open.
 */
import Button from 'antd-mobile/es/components/button';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BottomSheet } from '../../components/BottomSheet';
import { ListState } from '../../components/ListState';
import type { MoneyFlowActor } from './MoneyFlowSteps';

interface MoneyFlowSheetProps {
  /** The flow's text keys' prefix, e.g. `wpos:transfer` (its title, close and loading texts). */
  texts: string;
  /** The sheet's heading id. */
  titleId: string;
  onClose: () => void;
  /** The flow's Provider with its input, or null while what it starts from loads. */
  flow: ReactNode | null;
  /** Shown instead of the flow when what it starts from failed to load (an error with a retry). */
  failure?: ReactNode;
}

export function MoneyFlowSheet({ texts, titleId, onClose, flow, failure }: MoneyFlowSheetProps) {
  const { t } = useTranslation();
  return (
    <BottomSheet titleId={titleId} title={t(`${texts}.title`)} closeLabel={t(`${texts}.close`)} onClose={onClose}>
      {failure ?? flow ?? <ListState state="loading" loadingLabel={t(`${texts}.loading`)} rows={3} />}
    </BottomSheet>
  );
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

/**
 * The language the app shows, for number and date formats.
 *
 * @example const locale = useLocale(); // 'en'
 */
export function useLocale(): string {
  const { i18n } = useTranslation();
  return i18n.resolvedLanguage ?? 'zh';
}
