/**
 * `machine.provide(implementations)` for a machine built for this one caller (`createWalletMachine()` just now).
 *
 * xstate's provide() builds the whole machine again (its tree of state nodes) only to swap the implementations,
 * which the machine reads while it runs, never while it is built (`machine.implementations`, xstate 5.33). For the
 * wallet machine the second build was 16-29 ms of one task of a phone's start-up (4x slower CPU; Lighthouse's
 * Total Blocking Time counts what a task takes over 50 ms). This gives the machine its merged implementations
 * instead, as provide() merges them. Only for a machine no one else holds: the machine changes.
 * provideBuilt.test.ts checks that it behaves as provide() does, so an xstate that read them earlier fails there.
 */
import type { AnyStateMachine } from 'xstate';

/**
 * Provides implementations to a machine built just now for the caller, without building it again.
 *
 * @param machine - a machine from a factory (`create…Machine()`), not a shared one
 * @param implementations - what provide() takes: actors, actions, guards, delays
 * @returns the same machine, with the implementations merged over its own
 * @example
 * const machine = provideBuilt(createWalletMachine(), { actors: { findProviders } });
 */
export function provideBuilt<TMachine extends AnyStateMachine>(machine: TMachine, implementations: Parameters<TMachine['provide']>[0]): TMachine {
  const own = machine.implementations;
  // The same merge as xstate's provide(); the objects are new, so the factory's setup keeps its own. provide()'s
  // parameter types each map's entries as optional, which its own merge also spreads over the machine's.
  machine.implementations = {
    actors: { ...own.actors, ...implementations.actors },
    actions: { ...own.actions, ...implementations.actions },
    guards: { ...own.guards, ...implementations.guards },
    delays: { ...own.delays, ...implementations.delays },
  } as typeof own;
  return machine;
}
