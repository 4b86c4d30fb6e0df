import { useActor } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { copyMachine } from '../../../machines/clipboard/copyMachine';

const copyLogic = copyMachine.provide({
  actors: {
    writeClipboard: fromPromise<null, { text: string }>(async ({ input }) => {
      await navigator.clipboard.writeText(input.text);
      return null;
    }),
  },
});

export interface CopyBinding {
  copy: (id: string, text: string) => void;
  /** The feedback to show beside the text `id`: from the copy machine's state, null when there is none. */
  feedback: (id: string, copiedText: string) => { kind: 'copied' | 'failed'; text: string } | null;
}

/** A page's copy buttons, bound to one copy machine (component-local logic, so useActor). */
export function useCopy(): CopyBinding {
  const { t } = useTranslation('common');
  const [snapshot, send] = useActor(copyLogic);
  return {
    copy: (id, text) => send({ type: 'user.copy', id, text }),
    feedback: (id, copiedText) => {
      if (snapshot.context.copiedId !== id) return null;
      if (snapshot.matches('copied')) return { kind: 'copied', text: copiedText };
      if (snapshot.matches('failed')) return { kind: 'failed', text: t('actions.copyFailed') };
      return null;
    },
  };
}
