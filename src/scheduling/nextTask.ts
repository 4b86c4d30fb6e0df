/**
 * Yielding the main thread between start-up steps: Lighthouse's Total Blocking Time counts the part of every task
 * over 50 ms (bench/lighthouse.ts), so a step that waits for this one runs in a task of its own.
 */

/**
 * Resolves in a new task: the browser may paint and handle input before the caller goes on.
 *
 * @example
 * createStepOne();
 * await nextTask();
 * createStepTwo();
 */
export const nextTask = (): Promise<void> => new Promise<void>((resolve) => setTimeout(resolve, 0));
