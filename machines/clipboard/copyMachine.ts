/**
 * Copying a text (the invite link or code) to the clipboard, with the short "copied" confirmation the member
 * expects. Wallet browsers may refuse clipboard access; the member then sees that copying failed.
 */
import { assign, fromPromise, setup } from 'xstate';
import { notProvided } from '../shared/errorInfo';

export interface CopyContext {
  /** Which of the page's texts was copied last, so the confirmation shows beside the right one. */
  copiedId: string | null;
}

export type CopyEvent = { type: 'user.copy'; id: string; text: string };

const copySetup = setup({
  types: { context: {} as CopyContext, events: {} as CopyEvent },
  actors: {
    writeClipboard: fromPromise<null, { text: string }>(async () => notProvided('copy', 'writeClipboard')),
  },
  actions: {
    assignCopiedId: assign((_, params: { id: string }) => ({ copiedId: params.id })),
  },
  delays: {
    /** How long "copied" stays visible. */
    confirmation: 2_000,
  },
});

/**
 * Builds the copy machine. The app builds it when a page first copies (src/routes/shared/useCopy.ts), not when
 * this module loads: the sign-in page's bundle holds it, and building a machine is work in a phone's start-up task.
 * `copyMachine` below is the same definition for tests, diagrams and types; marked free of side effects, so a
 * bundle that never reads it drops it.
 */
// @__NO_SIDE_EFFECTS__
export function createCopyMachine() {
  return copySetup.createMachine({
    id: 'copy',
    context: { copiedId: null },
    initial: 'idle',
    on: {
      'user.copy': {
        target: '.copying',
        actions: { type: 'assignCopiedId', params: ({ event }) => ({ id: event.id }) },
      },
    },
    states: {
      idle: { description: 'copy.idle' },
      copying: {
        description: 'copy.copying',
        invoke: {
          id: 'writeClipboard',
          src: 'writeClipboard',
          input: ({ event }) => ({ text: event.type === 'user.copy' ? event.text : '' }),
          onDone: 'copied',
          onError: 'failed',
        },
      },
      copied: { description: 'copy.copied', after: { confirmation: 'idle' } },
      failed: { description: 'copy.failed', after: { confirmation: 'idle' } },
    },
  });
}

export const copyMachine = createCopyMachine();
