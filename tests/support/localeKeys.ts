/**
 * Translation keys as i18next reads them: a text shown with a count is a set of plural forms (`key_one`,
 * `key_other`), one per category the language's plural rules name (en: one and other; zh: other alone). The key
 * checks compare languages by these keys, so a plural text is one key in every language, with every form it needs.
 */

const pluralSuffix = /_(zero|one|two|few|many|other)$/;

export interface LocaleKeys {
  /** Every key, a plural text once as `base (plural)`. */
  keys: string[];
  /** Plural texts whose forms are not exactly the language's categories. */
  problems: string[];
}

/**
 * Groups a language's leaf keys into texts and checks each plural text's forms.
 *
 * @example localeKeys('en', ['a', 'b_one', 'b_other']); // { keys: ['a', 'b (plural)'], problems: [] }
 */
export function localeKeys(lng: string, leaves: readonly string[]): LocaleKeys {
  const categories = [...new Intl.PluralRules(lng).resolvedOptions().pluralCategories].sort();
  const forms = new Map<string, string[]>();
  const plain: string[] = [];
  for (const key of leaves) {
    const match = pluralSuffix.exec(key);
    if (!match) plain.push(key);
    else forms.set(key.slice(0, match.index), [...(forms.get(key.slice(0, match.index)) ?? []), match[1] ?? '']);
  }
  const problems = [...forms].flatMap(([base, found]) =>
    found.sort().join() === categories.join() ? [] : [`${lng}: ${base} has ${found.join(', ')}; ${lng} needs ${categories.join(', ')}`],
  );
  return { keys: [...plain, ...[...forms.keys()].map((base) => `${base} (plural)`)].sort(), problems };
}

/** The text a key names, or its `_other` form when the text is plural (i18next picks the form by `count`). */
export function textOrPlural(lookup: (key: string) => unknown, key: string): unknown {
  const text = lookup(key);
  return typeof text === 'string' ? text : lookup(`${key}_other`);
}
