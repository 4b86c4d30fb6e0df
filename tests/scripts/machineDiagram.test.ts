import { describe, expect, it } from 'vitest';
import { authMachine } from '../../machines/auth/authMachine';
import { walletMachine } from '../../machines/wallet/walletMachine';
import { allStateNodes } from '../../scripts/machineGraph/modelPaths';
import { decisionsOf, renderMachineMarkdown } from '../../scripts/machineGraph/diagram';
import { atlasTexts } from '../../scripts/machineGraph/texts';

const entry = { name: 'wallet', source: 'machines/wallet/walletMachine.ts', summary: 'Wallet connection.' };
const walletPage = renderMachineMarkdown(entry, walletMachine, new Map(), 0);
const authPage = renderMachineMarkdown({ ...entry, name: 'auth' }, authMachine, new Map(), 0);
const en = atlasTexts('en');

describe('docs/machines pages', () => {
  it('behavior: say what each state means, from its description', () => {
    for (const node of allStateNodes(walletMachine).slice(1)) {
      expect(node.description, node.id).toBeTruthy();
      expect(walletPage).toContain(`| ${node.id} |`);
      expect(walletPage).toContain(en[node.description ?? ''] ?? `(no text for ${node.id})`);
    }
  });

  it('behavior: draw a transition of the machine itself from "(any state)", never from a state named after the machine', () => {
    expect(authPage).toContain('state "(any state)" as auth__anyState');
    expect(authPage).toContain('auth__anyState --> auth__signedOut : server.tokenExpired');
    expect(authPage).not.toMatch(/^\s*auth --> /m);
  });

  it('behavior: say what happens on 4902, 4001 and -32002 and link the decision record', () => {
    const adr = '[ADR 0003](../decisions/0003-wallet-switch-failure-keeps-connection.md)';
    const row = (code: string, from: string, to: string) =>
      walletPage.split('\n').find((line) => line.startsWith(`| ${code} | ${from} |`) && line.includes(`| ${to} |`));
    expect(row('4902 UnrecognizedChainError', 'wallet.switchingChain', 'wallet.addingChain')).toContain(adr);
    expect(row('4001 UserRejectedError', 'wallet.switchingChain', 'wallet.active')).toContain(adr);
    expect(row('-32002 RequestPendingError', 'wallet.activating.requestingAccounts', 'wallet.activating.awaitingWallet')).toContain(adr);
  });

  it('behavior: write out not() and and() guards instead of "inline"', () => {
    expect(walletPage).toContain('not(hasAccounts)');
    expect(walletPage).toContain('not(isReconnecting)');
    expect(walletPage).not.toContain('| inline |');
  });

  it('behavior: list the decision records each machine names', () => {
    expect(decisionsOf(walletMachine)).toEqual(['0003-wallet-switch-failure-keeps-connection']);
    expect(decisionsOf(authMachine)).toEqual(['0008-session-address']);
  });
});
