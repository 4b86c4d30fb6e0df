/**
 * The Content screens' own actors: a notice's publication (machines/ops/noticePublicationMachine.ts) with the
 * desk's calls. It lives as long as the editor that made it.
 */
import { useActorRef } from '@xstate/react';
import { useState } from 'react';
import { fromPromise } from 'xstate';
import { createNoticePublicationMachine } from '../../machines/ops/noticePublicationMachine';
import type { EditableNotice, PublishInput, SaveInput, SavedNotice } from '../../machines/ops/noticePublicationMachine';
import type { Answer } from '../../machines/shared/answer';
import { provideBuilt } from '../../machines/shared/provideBuilt';
import { useDesk } from './DeskContext';

/**
 * A notice written, previewed, saved, published, pinned or unpublished; `notice` null writes a new one.
 *
 * @example const publication = useNoticePublication(null, ['welcome']);
 */
export function useNoticePublication(notice: EditableNotice | null, takenIds: readonly string[]) {
  const { api } = useDesk();
  const [logic] = useState(() =>
    provideBuilt(createNoticePublicationMachine(), {
      actors: {
        save: fromPromise<Answer<SavedNotice>, SaveInput>(({ input }) => api.call('opsNoticePut', { body: input })),
        publish: fromPromise<Answer<EditableNotice>, PublishInput>(({ input }) => api.call('opsNoticePublish', { body: input })),
      },
    }),
  );
  return useActorRef(logic, { input: { notice, takenIds } });
}
