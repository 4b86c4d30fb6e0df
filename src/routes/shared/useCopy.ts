import { useActor } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { createCopyMachine } from '../../../machines/clipboard/copyMachine';
import { provideBuilt } from '../../../machines/shared/provideBuilt';

let copyLogic: ReturnType<typeof createCopyMachine> | undefined;
/** Built when a page first copies, not when the module loads (the sign-in page's bundle holds it). */
function copyLogicOnce(): ReturnType<typeof createCopyMachine> {
  copyLogic ??= provideBuilt(createCopyMachine(), {
    actors: {
      writeClipboard: fromPromise<null, { text: string }>(async ({ input }) => {
        await navigator.clipboard.writeText(input.text);
        return null;
      }),
    },
  });
  return copyLogic;
}

export interface CopyBinding {
  copy: (id: string, text: string) => void;
  /** The feedback to show beside the text `id`: from the copy machine's state, null when there is none. */
  feedback: (id: string, copiedText: string) => { kind: 'copied' | 'failed'; text: string } | null;
}

/** A page's copy buttons, bound to one copy machine (component-local logic, so useActor). */
export function useCopy(): CopyBinding {
  const { t } = useTranslation('common');
  const [snapshot, send] = useActor(copyLogicOnce());
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
