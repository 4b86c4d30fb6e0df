import { createActorContext } from '@xstate/react';
import { withdrawMachine } from '../../../machines/credit/withdrawMachine';

/**
 * The withdrawal flow, owned by the sheet that shows it (STYLE.md, "Binding a page to a machine"): the sheet
 * renders WithdrawContext.Provider with the provided machine and its input, so the actor starts when the sheet
 * opens and stops when it closes; the parts of the sheet read it with WithdrawContext.useSelector.
 */
export const WithdrawContext = createActorContext(withdrawMachine);
