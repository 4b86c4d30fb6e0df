/**
 * What a chat app or a wallet shows for an invite link (/login/:inviteCode) pasted in a conversation: Open Graph
 * and Twitter card tags in the sign-in document, in the document's language. They say the invite and
 * nothing else: the app's name, the invite code from the link itself and the sign-in page's lead. No member is
 * looked up, so a preview shows nobody's data and tells no one whether a code exists.
 */
import { inviteCodeSchema } from '../../api-schema/primitives';

/** The sign-in page with an invite code: /login/:inviteCode. */
const INVITE_PAGE = /^\/login\/([^/]+)$/;

export interface LinkPreview {
  /** The site's origin, from the server's own sites (never a request's Host): preview URLs must be absolute. */
  origin: string;
  inviteCode: string;
}

export interface PreviewTexts {
  title: string;
  description: string;
}

const escapeAttribute = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The invite code of a sign-in page's path, when it is one a member could have (docs/API.md's inviteCode: 4 to 16
 * letters or digits); anything else gets no preview.
 *
 * @param urlPath - the request's path, e.g. /login/DEMO2026
 * @returns the code, or undefined
 * @example
 * inviteCodeOfPath('/login/DEMO2026'); // 'DEMO2026'
 * inviteCodeOfPath('/login/%3Cb%3E'); // undefined
 */
export function inviteCodeOfPath(urlPath: string): string | undefined {
  const segment = INVITE_PAGE.exec(urlPath)?.[1];
  if (segment === undefined) return undefined;
  let code: string;
  try {
    code = decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  return inviteCodeSchema.safeParse(code).success ? code : undefined;
}

/**
 * The preview tags. og:image is the 512 px PNG (previews take no SVG); twitter:card "summary" shows it square
 * beside the texts.
 *
 * @param preview - origin and invite code
 * @param texts - title and description in the document's language
 * @param imagePath - the image's path on the site
 * @returns the <meta> elements, for <head>
 * @example
 * linkPreviewTags({ origin: 'https://member.example', inviteCode: 'DEMO2026' }, { title: 'Member DApp', description: '…' }, '/media/icons/icon-512.png');
 */
export function linkPreviewTags(preview: LinkPreview, texts: PreviewTexts, imagePath: string): string {
  const properties: [string, string][] = [
    ['og:title', texts.title],
    ['og:description', texts.description],
    ['og:image', `${preview.origin}${imagePath}`],
    ['og:url', `${preview.origin}/login/${encodeURIComponent(preview.inviteCode)}`],
  ];
  return (
    properties.map(([property, content]) => `<meta property="${property}" content="${escapeAttribute(content)}">`).join('') +
    '<meta name="twitter:card" content="summary">'
  );
}
