/**
 * The bench's output format: one line per figure, `bench <name>: <value> <unit> | floor <value> <unit> |
 * <budget or goal> | PASS/MISS/INFO[ | note]`, so two runs can be compared with diff or grep.
 */

export type Verdict = 'PASS' | 'MISS' | 'INFO';

export interface Figure {
  /** Stable dotted name, e.g. `bundle.login.firstLoad`. */
  name: string;
  /** The measured value, already formatted with its unit, e.g. `176.41 KiB`. */
  value: string;
  /** The floor it is compared with, formatted with its unit, or `n/a`. */
  floor: string;
  /** The budget or goal, e.g. `budget <= 145.00 KiB`, or `-` when the figure is informational. */
  target: string;
  verdict: Verdict;
  /** Optional extra (ratio to the floor, error counts, ...). */
  note?: string | undefined;
}

/** Every figure printed so far, for the summary. */
const printed: Figure[] = [];

/**
 * Prints one figure line and remembers it for the summary.
 *
 * @param figure - the figure
 * @returns the printed line
 * @example
 * emit({ name: 'startup.empty', value: ms(2100), floor: ms(600), target: '-', verdict: 'INFO' });
 */
export function emit(figure: Figure): string {
  printed.push(figure);
  const parts = [`bench ${figure.name}: ${figure.value}`, `floor ${figure.floor}`, figure.target, figure.verdict];
  if (figure.note) parts.push(figure.note);
  const line = parts.join(' | ');
  console.log(line);
  return line;
}

/**
 * Prints a detail line (not a figure; not counted in the summary), e.g. the top packages of a chunk.
 *
 * @param text - the detail
 * @returns nothing
 * @example
 * detail('bundle.login.top: react-dom 41.20 KiB');
 */
export function detail(text: string): void {
  console.log(`  ${text}`);
}

/**
 * The figures printed so far.
 *
 * @returns a copy of the list
 * @example
 * const misses = figures().filter((f) => f.verdict === 'MISS');
 */
export function figures(): Figure[] {
  return [...printed];
}

/**
 * Verdict of an upper bound.
 *
 * @param value - measured value
 * @param max - the budget
 * @returns PASS when value <= max
 * @example
 * atMost(120, 145); // 'PASS'
 */
export function atMost(value: number, max: number): Verdict {
  return value <= max ? 'PASS' : 'MISS';
}

/**
 * Verdict of a lower bound.
 *
 * @param value - measured value
 * @param min - the goal
 * @returns PASS when value >= min
 * @example
 * atLeast(0.8, 0.75); // 'PASS'
 */
export function atLeast(value: number, min: number): Verdict {
  return value >= min ? 'PASS' : 'MISS';
}

/**
 * Formats bytes as KiB with two decimals.
 *
 * @param bytes - a byte count
 * @returns e.g. `12.34 KiB`
 * @example
 * kib(2048); // '2.00 KiB'
 */
export function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(2)} KiB`;
}

/**
 * Formats milliseconds with one decimal.
 *
 * @param value - milliseconds
 * @returns e.g. `12.3 ms`
 * @example
 * ms(12.345); // '12.3 ms'
 */
export function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

/**
 * Formats a rate as a whole number per second.
 *
 * @param value - events per second
 * @param what - what is counted, e.g. `req`
 * @returns e.g. `812 req/s`
 * @example
 * rate(812.4, 'req'); // '812 req/s'
 */
export function rate(value: number, what: string): string {
  return `${Math.round(value)} ${what}/s`;
}

/**
 * Formats a ratio as a percentage with one decimal.
 *
 * @param value - a ratio (0.5 is 50 %)
 * @returns e.g. `50.0 %`
 * @example
 * percent(0.5); // '50.0 %'
 */
export function percent(value: number): string {
  return `${(value * 100).toFixed(1)} %`;
}
