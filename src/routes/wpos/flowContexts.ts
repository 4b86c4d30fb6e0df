import { createActorContext } from '@xstate/react';
import { exchangeMachine } from '../../../machines/exchange/exchangeMachine';
import { transferMachine } from '../../../machines/wpos/transferMachine';

/**
 * The WPOS flows, each owned by the sheet that shows it (STYLE.md, "Binding a page to a machine"): the sheet renders
 * the Provider with the provided machine and its input, so the actor lives while the sheet is open.
 */
export const TransferContext = createActorContext(transferMachine);
export const ExchangeContext = createActorContext(exchangeMachine);
