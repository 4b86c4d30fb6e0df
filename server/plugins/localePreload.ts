/**
 * A first visit's translations start loading with the page instead of after the app's script ran: index.html goes
 * out with a `Link: rel=preload` for the locale files the page will ask for, in the language the app will pick.
 * The sign-in pages need none: their document carries its texts (loginShell.ts).
 * The guess follows the app's detection order (src/i18n/i18n.ts: ?lng, the i18next cookie, then the browser's
 * languages, which Accept-Language carries; zh when none is supported). Only localStorage, which a returning member
 * may have set, is out of the server's sight: then the preload is a few KiB fetched in vain, never a wrong text.
 */
const LANGUAGES = ['zh', 'en'] as const;
type Language = (typeof LANGUAGES)[number];
const FALLBACK: Language = 'zh';

/**
 * The namespaces of the pages a first visit lands on (the invite link's sign-in pages), by first path segment.
 * routes.tsx declares the same in its route handles; tests/server/localePreload.test.ts checks they agree.
 */
export const FIRST_VISIT_NAMESPACES: Readonly<Record<string, readonly string[]>> = {
  login: ['login'],
  register: ['register'],
};

/** 'en-US' → 'en', 'zh-Hans-CN' → 'zh', anything else → undefined. */
function supported(tag: string | undefined): Language | undefined {
  const base = tag?.trim().toLowerCase().split(/[-_]/)[0];
  return LANGUAGES.find((language) => language === base);
}

/** Accept-Language's tags, best first (q=0 dropped). */
function acceptedTags(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = Number(params.find((param) => param.trim().startsWith('q='))?.trim().slice(2) ?? '1');
      return { tag, q: Number.isFinite(q) ? q : 0, index };
    })
    .filter(({ tag, q }) => tag !== '' && q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map(({ tag }) => tag);
}

export interface LanguageHints {
  /** The page's ?lng. */
  query?: string | undefined;
  /** The Cookie header (the detector's cookie is `i18next`). */
  cookie?: string | undefined;
  acceptLanguage?: string | undefined;
}

/**
 * The language the app will most likely pick on this visit.
 *
 * @example
 * guessLanguage({ acceptLanguage: 'en-US,en;q=0.9' }); // 'en'
 */
export function guessLanguage({ query, cookie, acceptLanguage }: LanguageHints): Language {
  const fromCookie = /(?:^|;\s*)i18next=([^;]*)/.exec(cookie ?? '')?.[1];
  for (const candidate of [query, fromCookie]) {
    const language = supported(candidate);
    if (language) return language;
  }
  for (const tag of acceptedTags(acceptLanguage)) {
    const language = supported(tag);
    if (language) return language;
  }
  return FALLBACK;
}

/**
 * The Link header value preloading a page's locale files.
 *
 * @param pathname - the page's path, e.g. /login/DEMO2026
 * @param hints - what the request says about the language
 * @example
 * localePreloadLink('/login/DEMO2026', { acceptLanguage: 'en' });
 * // '</locales/en/common.json>; rel=preload; as=fetch; crossorigin, </locales/en/login.json>; rel=preload; as=fetch; crossorigin'
 */
export function localePreloadLink(pathname: string, hints: LanguageHints): string {
  const language = guessLanguage(hints);
  const section = pathname.split('/')[1] ?? '';
  const namespaces = ['common', ...(FIRST_VISIT_NAMESPACES[section] ?? [])];
  // crossorigin: the backend's fetch() is a CORS-mode request, and a preload is reused only when the modes match.
  return namespaces.map((namespace) => `</locales/${language}/${namespace}.json>; rel=preload; as=fetch; crossorigin`).join(', ');
}
